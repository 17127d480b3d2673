//! The full state of a game as one serializable value: for a client's resync and for persistence across restarts.

use guoxiang_clock::{Clock, ClockState, LagReserve, Timestamp};
use guoxiang_core::{Color, GameState};
use serde::{Deserialize, Serialize};

use crate::adjourn::Adjournment;
use crate::arbiter::{ArbiterRecord, Dispute};
use crate::error::SetupError;
use crate::event::{Clocks, EventLog};
use crate::game::{
    Arbitration, DrawOffers, Game, GameConfig, IllegalRecord, MoveRecord, PlayerRef, Rematch, Source, Status, Variant,
};
use crate::rules::{Incident, Touch};
use crate::serde_util::{color, opt_color};

/// Everything about a game at one moment (`taken_at`), except the event log: restoring gives a game at the same
/// version whose [`Game::events_since`] asks older clients to resync.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub id: String,
    pub white: PlayerRef,
    pub black: PlayerRef,
    pub rated: bool,
    /// How the game came about (absent in states stored before it was kept: `friend`).
    #[serde(default)]
    pub source: Source,
    pub variant: Variant,
    pub config: GameConfig,
    /// The current position (also derivable from the start and the moves; checked on restore).
    pub fen: String,
    #[serde(with = "color")]
    pub turn: Color,
    pub moves: Vec<MoveRecord>,
    /// The exact clock (time control included).
    pub clock: Clock,
    /// Both remaining times at `taken_at`, for display.
    pub clocks: Option<Clocks>,
    #[serde(flatten)]
    pub status: Status,
    #[serde(with = "opt_color")]
    pub draw_offer: Option<Color>,
    /// `[white, black]`: whether each player may offer a draw (re-offer rule).
    pub may_offer: [bool; 2],
    #[serde(with = "opt_color")]
    pub takeback_offer: Option<Color>,
    /// Once the game is over: who offered a rematch (absent in states stored before rematches were the game's).
    #[serde(default, with = "opt_color", skip_serializing_if = "Option::is_none")]
    pub rematch_offer: Option<Color>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rematch_agreed: bool,
    /// `[white, black]`.
    pub lag: [LagReserve; 2],
    pub created_at: Timestamp,
    pub turn_started_at: Timestamp,
    pub last_move_at: [Option<Timestamp>; 2],
    pub disconnected: [Option<Timestamp>; 2],
    pub adjourned_at: Option<Timestamp>,
    /// Touch-move: the squares of the pieces the player on move has touched this turn, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touches: Vec<String>,
    /// `[white, black]`: completed illegal moves counted.
    #[serde(default, skip_serializing_if = "no_illegal_moves")]
    pub illegal_moves: [u8; 2],
    /// The illegal moves counted, for the PGN.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incidents: Vec<Incident>,
    /// An adjournment in progress. It holds the sealed move: this snapshot is the server's, not a client's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjournment: Option<Adjournment>,
    /// A claim or dispute waiting for the arbiter's decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispute: Option<Dispute>,
    /// What the arbiters did, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arbiter_log: Vec<ArbiterRecord>,
    pub version: u64,
    /// When the snapshot was taken, on the same time scale as the other timestamps.
    pub taken_at: Timestamp,
}

fn no_illegal_moves(c: &[u8; 2]) -> bool {
    *c == [0, 0]
}

/// The format of [`StateRecord`] written now.
pub const STATE_RECORD_FORMAT: u32 = 1;

fn first_format() -> u32 {
    1
}

/// A game's state as a store keeps it: the [`Snapshot`] without its moves (a store keeps them as rows of their own,
/// one written per move), with a format number. Taking one costs nothing that grows with the game. Rows written
/// before the format number existed (a snapshot with `"moves": []`) read as format 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRecord {
    #[serde(default = "first_format")]
    pub format: u32,
    /// The snapshot, its `moves` empty.
    #[serde(flatten)]
    pub state: Snapshot,
}

impl Game {
    /// The full state at `now`.
    pub fn snapshot(&self, now: Timestamp) -> Snapshot {
        self.snapshot_with(now, self.moves.clone())
    }

    /// The state to store at `now`: everything but the moves.
    pub fn state_record(&self, now: Timestamp) -> StateRecord {
        StateRecord { format: STATE_RECORD_FORMAT, state: self.snapshot_with(now, Vec::new()) }
    }

    /// A game from its stored state and its moves (in order), resuming at `now` as [`Game::restore`] does.
    pub fn restore_record(record: StateRecord, moves: Vec<MoveRecord>, now: Timestamp) -> Result<Game, SetupError> {
        if record.format != STATE_RECORD_FORMAT {
            return Err(SetupError::BadSnapshot(format!(
                "stored state format {} (this version reads {STATE_RECORD_FORMAT})",
                record.format
            )));
        }
        let mut state = record.state;
        state.moves = moves;
        Game::restore(state, now)
    }

    fn snapshot_with(&self, now: Timestamp, moves: Vec<MoveRecord>) -> Snapshot {
        Snapshot {
            id: self.id.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            rated: self.rated,
            source: self.source,
            variant: self.variant.clone(),
            config: self.config.clone(),
            fen: self.position().fen(),
            turn: self.turn(),
            moves,
            clock: self.clock.clone(),
            clocks: self.clocks(now),
            status: self.status,
            draw_offer: self.draw.pending,
            may_offer: self.draw.may_offer,
            takeback_offer: self.takeback_offer,
            rematch_offer: self.rematch.offer,
            rematch_agreed: self.rematch.agreed,
            lag: self.lag,
            created_at: self.created_at,
            turn_started_at: self.turn_started_at,
            last_move_at: self.last_move_at,
            disconnected: self.disconnected,
            adjourned_at: self.adjourned_at,
            touches: self.touches.iter().map(|t| t.square.to_string()).collect(),
            illegal_moves: self.illegal.counts,
            incidents: self.illegal.incidents.clone(),
            adjournment: self.adjournment.clone(),
            dispute: self.arbiter.dispute.clone(),
            arbiter_log: self.arbiter.log.clone(),
            version: self.version,
            taken_at: now,
        }
    }

    /// A game from a snapshot, resuming at `now` (a timestamp of the restoring process's time scale): the moves are
    /// replayed from the start position, and every timestamp is moved so that the time between `taken_at` and
    /// `now` (the server was down) is charged to no one: the running clock stands where it stood at `taken_at`.
    ///
    /// Timestamps are shifted by `now - taken_at`; one that would fall before 0 is clamped to 0 (give the new
    /// process a time scale that does not start at 0 to avoid that).
    pub fn restore(snapshot: Snapshot, now: Timestamp) -> Result<Game, SetupError> {
        let s = snapshot;
        let bad = |e: String| SetupError::BadSnapshot(e);
        let mut state = GameState::from_position(s.variant.start_position()?);
        for (i, r) in s.moves.iter().enumerate() {
            let m = state.position().parse_uci(&r.uci).map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
            state.play(m).map_err(|e| bad(format!("move {} ({}): {e}", i + 1, r.uci)))?;
        }
        if state.position().fen() != s.fen {
            return Err(bad(format!("the moves lead to {}, not to {}", state.position().fen(), s.fen)));
        }
        let shift = |t: Timestamp| -> Timestamp {
            if t <= s.taken_at {
                Timestamp(now.as_millis().saturating_sub(s.taken_at.millis_since(t)))
            } else {
                now.plus_millis(t.millis_since(s.taken_at))
            }
        };
        let mut clock: Clock = s.clock;
        if let ClockState::Running(_) = clock.state() {
            clock.pause(s.taken_at).map_err(|e| bad(e.to_string()))?;
            clock.resume(now).map_err(|e| bad(e.to_string()))?;
        }
        let moves = s.moves.into_iter().map(|r| MoveRecord { at: shift(r.at), ..r }).collect();
        let mut touches = Vec::new();
        for t in &s.touches {
            let square = guoxiang_core::Square::parse(t).ok_or_else(|| bad(format!("touched square {t:?}")))?;
            let piece = state.position().piece_at(square).ok_or_else(|| bad(format!("no piece on touched {t}")))?;
            touches.push(Touch { square, piece });
        }
        Ok(Game {
            id: s.id,
            white: s.white,
            black: s.black,
            rated: s.rated,
            source: s.source,
            variant: s.variant,
            log: EventLog::new(s.config.event_log_len, s.version),
            config: s.config,
            state,
            clock,
            status: s.status,
            draw: DrawOffers { pending: s.draw_offer, may_offer: s.may_offer },
            takeback_offer: s.takeback_offer,
            rematch: Rematch { offer: s.rematch_offer, agreed: s.rematch_agreed },
            lag: s.lag,
            created_at: shift(s.created_at),
            turn_started_at: shift(s.turn_started_at),
            last_move_at: s.last_move_at.map(|t| t.map(shift)),
            disconnected: s.disconnected.map(|t| t.map(shift)),
            adjourned_at: s.adjourned_at.map(shift),
            moves,
            touches,
            illegal: IllegalRecord { counts: s.illegal_moves, incidents: s.incidents },
            // The sealing time moves with the other timestamps; the resumption time is an appointment and stays.
            adjournment: s.adjournment.map(|mut a| {
                if let Some(sealed) = a.sealed.as_mut() {
                    sealed.at = shift(sealed.at);
                }
                a
            }),
            arbiter: Arbitration { dispute: s.dispute, log: s.arbiter_log },
            version: s.version,
        })
    }
}

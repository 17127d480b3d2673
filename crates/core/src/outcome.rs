//! How games end under the FIDE Laws of Chess: results, the reason for them (Articles 5, 6.9 and 9), dead positions
//! and the game history that repetition and move-count rules need.
//!
//! | item | what it is |
//! |---|---|
//! | [`Outcome`], [`Termination`] | a finished game's result (`1-0`, `0-1`, `1/2-1/2`) and why, with messages in 简体中文 and English |
//! | [`Position::can_mate`], [`Position::is_dead_position`], [`Position::has_insufficient_material`] | Article 5.2.2 / 6.9: can a side still checkmate by *some* series of legal moves? (module `dead`) |
//! | [`Position::mate_verdict`], [`Position::dead_verdict`] | the full answer with its evidence: a mating line, the kind of proof, or unknown (modules `dead`, `regions`) |
//! | [`Position::mating_line`] | a helpmate line as evidence that a side can still mate (module `helpmate`) |
//! | [`GameState`] | the start position, the moves, and the repetition / 50-move / 75-move bookkeeping (module `game`) |
//!
//! [`Position::can_mate`]: crate::Position::can_mate
//! [`Position::is_dead_position`]: crate::Position::is_dead_position
//! [`Position::has_insufficient_material`]: crate::Position::has_insufficient_material
//! [`Position::mating_line`]: crate::Position::mating_line
//! [`Position::mate_verdict`]: crate::Position::mate_verdict
//! [`Position::dead_verdict`]: crate::Position::dead_verdict

mod dead;
mod fortress;
mod game;
mod helpmate;
mod key;
mod regions;

pub use dead::{DEFAULT_MATE_BUDGET, DeadReason, MateAbility, MateVerdict};
pub use game::{Checkpoint, ClaimError, ClaimKind, GameError, GameState};

use crate::lang::{Lang, Text};
use crate::position::Position;
use crate::types::{Color, Role};
use core::fmt;

/// Why a game ended.
///
/// Automatic endings (the game is over the moment they occur, no one has to claim them): [`Checkmate`],
/// [`Stalemate`], [`DeadPosition`], [`FivefoldRepetition`], [`SeventyFiveMoves`]. Claimed draws: [`ThreefoldRepetition`],
/// [`FiftyMoves`]. Decided by a player or the clock: [`Resignation`], [`Agreement`], [`TimeForfeit`],
/// [`TimeForfeitDraw`]. Decided by the server or an arbiter: [`Abandoned`], [`Adjudication`].
///
/// A game that is cancelled without any result (an "aborted" game, e.g. no move was made before the clock ran out
/// on a server) has no `Outcome` at all: keep it as `None`. `*` is not a result.
///
/// [`Checkmate`]: Termination::Checkmate
/// [`Stalemate`]: Termination::Stalemate
/// [`DeadPosition`]: Termination::DeadPosition
/// [`FivefoldRepetition`]: Termination::FivefoldRepetition
/// [`SeventyFiveMoves`]: Termination::SeventyFiveMoves
/// [`ThreefoldRepetition`]: Termination::ThreefoldRepetition
/// [`FiftyMoves`]: Termination::FiftyMoves
/// [`Resignation`]: Termination::Resignation
/// [`Agreement`]: Termination::Agreement
/// [`TimeForfeit`]: Termination::TimeForfeit
/// [`TimeForfeitDraw`]: Termination::TimeForfeitDraw
/// [`Abandoned`]: Termination::Abandoned
/// [`Adjudication`]: Termination::Adjudication
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Article 5.1.1: the winner checkmated the opponent's king.
    Checkmate,
    /// Article 5.2.1: the player to move has no legal move and is not in check.
    Stalemate,
    /// Article 5.2.2: neither player can checkmate by any series of legal moves (includes "insufficient material").
    DeadPosition,
    /// Article 9.2: a correct claim that the same position occurred (or will occur with the intended move) a third
    /// time.
    ThreefoldRepetition { claimant: Color },
    /// Article 9.6.1: the same position appeared a fifth time; drawn without a claim.
    FivefoldRepetition,
    /// Article 9.3: a correct claim that 50 moves by each player passed without a pawn move or a capture.
    FiftyMoves { claimant: Color },
    /// Article 9.6.2: 75 moves by each player without a pawn move or a capture; drawn without a claim (a checkmate
    /// on the last move takes precedence).
    SeventyFiveMoves,
    /// Article 5.1.2: the loser resigned.
    Resignation,
    /// Articles 5.2.3 and 9.1: both players agreed to a draw.
    Agreement,
    /// Article 6.9: the loser's flag fell.
    TimeForfeit,
    /// Article 6.9: `flagged`'s flag fell, but the opponent cannot checkmate by any series of legal moves.
    /// `bare_king` tells that the opponent has nothing but a king (for the wording of the message).
    TimeForfeitDraw { flagged: Color, bare_king: bool },
    /// The loser left the game or failed to continue (a server decision in the spirit of Articles 6.7 and 11.2):
    /// the opponent wins.
    Abandoned,
    /// An arbiter or the server decided the result (either side wins, or a draw).
    Adjudication,
    /// Article 7.5.5: `offender` completed a second illegal move (or, under the school rule 送王, moved into check
    /// a third time) and loses — or the game is drawn if the opponent cannot checkmate by any series of legal
    /// moves.
    IllegalMove { offender: Color },
    /// Adjourned games: `sealer`'s sealed move was ambiguous, false or illegal, and `sealer` loses (Article 10.16 of
    /// the older Laws; the Guidelines on adjourned games) — or the game is drawn if the opponent cannot checkmate by
    /// any series of legal moves.
    SealedMove { sealer: Color },
    /// `late` arrived more than the allowed time (an hour) late for the resumption of an adjourned game and loses
    /// (Article 10.15 of the older Laws; 6.7 today) — or the game is drawn if the opponent cannot checkmate.
    LateArrival { late: Color },
    /// A pawn-war exercise (the rule set `first_promotion`, not a FIDE game): the first player to promote a pawn
    /// wins.
    Promotion,
}

impl Termination {
    /// A stable identifier for storage and protocols, e.g. `checkmate`, `threefold_repetition`.
    pub fn code(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::ThreefoldRepetition { .. } => "threefold_repetition",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::FiftyMoves { .. } => "fifty_moves",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::TimeForfeit => "time_forfeit",
            Termination::TimeForfeitDraw { .. } => "time_forfeit_draw",
            Termination::Abandoned => "abandoned",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove { .. } => "illegal_move",
            Termination::SealedMove { .. } => "sealed_move",
            Termination::LateArrival { .. } => "late_arrival",
            Termination::Promotion => "promotion",
        }
    }

    /// The article of the FIDE Laws of Chess the ending rests on, if one does.
    pub fn article(&self) -> Option<&'static str> {
        Some(match self {
            Termination::Checkmate => "5.1.1",
            Termination::Stalemate => "5.2.1",
            Termination::DeadPosition => "5.2.2",
            Termination::ThreefoldRepetition { .. } => "9.2",
            Termination::FivefoldRepetition => "9.6.1",
            Termination::FiftyMoves { .. } => "9.3",
            Termination::SeventyFiveMoves => "9.6.2",
            Termination::Resignation => "5.1.2",
            Termination::Agreement => "5.2.3",
            Termination::TimeForfeit | Termination::TimeForfeitDraw { .. } => "6.9",
            Termination::IllegalMove { .. } => "7.5.5",
            Termination::LateArrival { .. } => "6.7",
            Termination::Abandoned
            | Termination::Adjudication
            | Termination::SealedMove { .. }
            | Termination::Promotion => return None,
        })
    }

    /// Whether the Laws end the game this way without anyone claiming or deciding anything.
    pub fn is_automatic(&self) -> bool {
        matches!(
            self,
            Termination::Checkmate
                | Termination::Stalemate
                | Termination::DeadPosition
                | Termination::FivefoldRepetition
                | Termination::SeventyFiveMoves
        )
    }

    /// The value of the PGN `Termination` tag: `normal`, `time forfeit`, `abandoned` or `adjudication`.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::TimeForfeit | Termination::TimeForfeitDraw { .. } => "time forfeit",
            Termination::Abandoned => "abandoned",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove { .. } | Termination::SealedMove { .. } => "rules infraction",
            Termination::LateArrival { .. } => "abandoned",
            _ => "normal",
        }
    }
}

/// The result of a finished game: who won (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Outcome {
    /// `winner` wins for the given reason.
    pub const fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome { winner: Some(winner), termination }
    }

    /// A draw for the given reason.
    pub const fn draw(termination: Termination) -> Outcome {
        Outcome { winner: None, termination }
    }

    /// The side whose flag fell loses, unless the opponent cannot checkmate by any series of legal moves from
    /// `pos`, in which case the game is drawn (Article 6.9). Uses [`Position::can_mate`] (sound: it never says "cannot
    /// mate" when a mate is possible).
    pub fn time_forfeit(pos: &Position, flagged: Color) -> Outcome {
        let opponent = !flagged;
        if pos.can_mate(opponent) {
            Outcome::win(opponent, Termination::TimeForfeit)
        } else {
            let bare_king = pos.by_color(opponent) == pos.pieces(opponent, Role::King);
            Outcome::draw(Termination::TimeForfeitDraw { flagged, bare_king })
        }
    }

    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// `1-0`, `0-1` or `1/2-1/2`, as in PGN.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The score of `color`: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(&self, color: Color) -> f32 {
        f32::from(self.half_points(color)) / 2.0
    }

    /// The score of `color` in half points (2, 1 or 0), for exact sums.
    pub fn half_points(&self, color: Color) -> u8 {
        match self.winner {
            Some(w) if w == color => 2,
            Some(_) => 0,
            None => 1,
        }
    }

    /// The message in the given language.
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.message_zh(),
            Lang::En => self.message_en(),
        }
    }

    /// The message in both languages.
    pub fn text(&self) -> Text {
        Text { zh: self.message_zh(), en: self.message_en() }
    }

    fn message_en(&self) -> String {
        let who = |c: Color| c.fold("White", "Black");
        // Decisive endings name the winner; the loser is the other side.
        let (w, l) = match self.winner {
            Some(c) => (who(c), who(!c)),
            None => ("", ""),
        };
        match (self.termination, self.winner) {
            (Termination::Checkmate, Some(_)) => format!("{w} wins: checkmate"),
            (Termination::Resignation, Some(_)) => format!("{w} wins: {l} resigns"),
            (Termination::TimeForfeit, Some(_)) => format!("{w} wins on time"),
            (Termination::Abandoned, Some(_)) => format!("{w} wins: {l} abandoned the game"),
            (Termination::Adjudication, Some(_)) => format!("{w} wins by adjudication"),
            (Termination::Promotion, Some(_)) => format!("{w} wins: the first to promote a pawn (pawn war)"),
            (Termination::Stalemate, None) => "Draw: stalemate".into(),
            (Termination::DeadPosition, None) => {
                "Draw: dead position (neither side can checkmate by any series of legal moves)".into()
            }
            (Termination::ThreefoldRepetition { claimant }, None) => {
                format!("Draw: threefold repetition (claimed by {})", who(claimant))
            }
            (Termination::FivefoldRepetition, None) => "Draw: fivefold repetition".into(),
            (Termination::FiftyMoves { claimant }, None) => {
                format!("Draw: fifty-move rule (claimed by {})", who(claimant))
            }
            (Termination::SeventyFiveMoves, None) => "Draw: seventy-five-move rule".into(),
            (Termination::Agreement, None) => "Draw by agreement".into(),
            (Termination::TimeForfeitDraw { flagged, bare_king }, None) => {
                let (f, o) = (who(flagged), who(!flagged));
                if bare_king {
                    format!("Draw: {f} ran out of time, but {o} has only a king and cannot checkmate")
                } else {
                    format!("Draw: {f} ran out of time, but {o} cannot checkmate by any series of legal moves")
                }
            }
            (Termination::Adjudication, None) => "Draw by adjudication".into(),
            (Termination::IllegalMove { .. }, Some(_)) => format!("{w} wins: {l} made one illegal move too many"),
            (Termination::IllegalMove { offender }, None) => format!(
                "Draw: {} made one illegal move too many, but {} cannot checkmate by any series of legal moves",
                who(offender),
                who(!offender)
            ),
            (Termination::SealedMove { .. }, Some(_)) => {
                format!("{w} wins: {l}'s sealed move was ambiguous, false or illegal")
            }
            (Termination::SealedMove { sealer }, None) => format!(
                "Draw: {}'s sealed move was not valid, but {} cannot checkmate by any series of legal moves",
                who(sealer),
                who(!sealer)
            ),
            (Termination::LateArrival { .. }, Some(_)) => {
                format!("{w} wins: {l} came too late for the resumption of the adjourned game")
            }
            (Termination::LateArrival { late }, None) => format!(
                "Draw: {} came too late for the resumption, but {} cannot checkmate by any series of legal moves",
                who(late),
                who(!late)
            ),
            // An outcome whose winner does not fit its termination (built by hand): say both plainly.
            (t, Some(_)) => format!("{w} wins ({})", t.code().replace('_', " ")),
            (t, None) => format!("Draw ({})", t.code().replace('_', " ")),
        }
    }

    fn message_zh(&self) -> String {
        let short = |c: Color| c.fold("白", "黑");
        let (w, l, ws) = match self.winner {
            Some(c) => (c.name_zh(), (!c).name_zh(), short(c)),
            None => ("", "", ""),
        };
        match (self.termination, self.winner) {
            (Termination::Checkmate, Some(_)) => format!("{w}将死{l}，{ws}胜"),
            (Termination::Resignation, Some(_)) => format!("{l}认输，{ws}胜"),
            (Termination::TimeForfeit, Some(_)) => format!("{l}超时判负，{ws}胜"),
            (Termination::Abandoned, Some(_)) => format!("{l}弃赛（离开对局），{ws}胜"),
            (Termination::Adjudication, Some(_)) => format!("裁判判定{ws}胜"),
            (Termination::Promotion, Some(_)) => format!("{w}先让兵升变，{ws}胜（兵的战争）"),
            (Termination::Stalemate, None) => "逼和（无子可动），和棋".into(),
            (Termination::DeadPosition, None) => "死局：双方都无法以任何合法着法将死对方，和棋".into(),
            (Termination::ThreefoldRepetition { claimant }, None) => {
                format!("同一局面三次重复，{}提出和棋要求，和棋", claimant.name_zh())
            }
            (Termination::FivefoldRepetition, None) => "同一局面五次重复，自动和棋".into(),
            (Termination::FiftyMoves { claimant }, None) => {
                format!("双方连续50回合未走兵、未吃子，{}提出和棋要求，和棋", claimant.name_zh())
            }
            (Termination::SeventyFiveMoves, None) => "双方连续75回合未走兵、未吃子，自动和棋".into(),
            (Termination::Agreement, None) => "双方协议和棋".into(),
            (Termination::TimeForfeitDraw { flagged, bare_king }, None) => {
                let (f, o) = (flagged.name_zh(), (!flagged).name_zh());
                if bare_king {
                    format!("{f}超时，但{o}只剩单王，无法将死 — 和棋")
                } else {
                    format!("{f}超时，但{o}无论怎样走都无法将死对方 — 和棋")
                }
            }
            (Termination::Adjudication, None) => "裁判判定和棋".into(),
            (Termination::IllegalMove { .. }, Some(_)) => format!("{l}不合规则的着法次数已满，判负，{ws}胜"),
            (Termination::IllegalMove { offender }, None) => format!(
                "{}不合规则的着法次数已满，但{}无论怎样走都无法将死对方 — 和棋",
                offender.name_zh(),
                (!offender).name_zh()
            ),
            (Termination::SealedMove { .. }, Some(_)) => format!("{l}的封棋着法模棱两可、虚假或不合规则，判负，{ws}胜"),
            (Termination::SealedMove { sealer }, None) => format!(
                "{}的封棋着法不能成立，但{}无论怎样走都无法将死对方 — 和棋",
                sealer.name_zh(),
                (!sealer).name_zh()
            ),
            (Termination::LateArrival { .. }, Some(_)) => format!("{l}续赛迟到超过规定时间，判负，{ws}胜"),
            (Termination::LateArrival { late }, None) => format!(
                "{}续赛迟到超过规定时间，但{}无论怎样走都无法将死对方 — 和棋",
                late.name_zh(),
                (!late).name_zh()
            ),
            (t, Some(_)) => format!("{ws}胜（{}）", t.code()),
            (t, None) => format!("和棋（{}）", t.code()),
        }
    }
}

impl fmt::Display for Outcome {
    /// The English message, e.g. `White wins: checkmate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_en())
    }
}

impl Position {
    /// The ending that this position alone forces, without looking at the game's history: checkmate, stalemate, a
    /// dead position, or the 75-move rule by the half-move clock (checkmate first, then stalemate, then a dead
    /// position, then 75 moves). Fivefold repetition needs the history: see [`GameState::status`].
    pub fn outcome(&self) -> Option<Outcome> {
        let has_move = self.has_legal_move();
        if !has_move {
            return Some(if self.is_check() {
                Outcome::win(!self.turn(), Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        if self.is_dead_position() {
            return Some(Outcome::draw(Termination::DeadPosition));
        }
        if self.halfmoves() >= 150 {
            return Some(Outcome::draw(Termination::SeventyFiveMoves));
        }
        None
    }
}

//! A game in progress: its start position, the moves played, and the bookkeeping the Laws need to end it —
//! repetitions (Articles 9.2 and 9.6.1), the 50- and 75-move rules (Articles 9.3 and 9.6.2), resignation, agreement,
//! a falling flag (Article 6.9).
//!
//! **Same position (Article 9.2.2).** Same pieces on the same squares, same side to move, same castling rights, same
//! possibility of capturing en passant. [`Position::hash`] covers exactly these (the en-passant square counts only when
//! the capture is legal); two positions count as the same only if their hashes *and* their exact placement, side,
//! castling rooks and en-passant squares are equal, so a hash collision can never fake a repetition.
//!
//! **Irreversible moves.** After a capture, a pawn move or a move that loses castling rights no earlier position can
//! come back (material, pawns or rights differ for good), so repetitions are counted only among the positions since the
//! last such move.

use super::key::same_position;
use super::{Outcome, Termination};
use crate::lang::{Lang, Text};
use crate::mv::Move;
use crate::position::{PlayError, Position};
use crate::types::Color;
use core::fmt;

/// A draw that the player to move may claim (Articles 9.2 and 9.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// Article 9.2: the same position for (at least) the third time.
    ThreefoldRepetition,
    /// Article 9.3: 50 moves by each player without a pawn move or a capture.
    FiftyMoves,
}

impl ClaimKind {
    /// The termination of a correct claim by `claimant`.
    pub fn termination(self, claimant: Color) -> Termination {
        match self {
            ClaimKind::ThreefoldRepetition => Termination::ThreefoldRepetition { claimant },
            ClaimKind::FiftyMoves => Termination::FiftyMoves { claimant },
        }
    }
}

/// Why a draw claim was refused.
///
/// An incorrect claim does not end the game, and the game state is left as it was. Article 9.5 then asks for more,
/// which is the caller's job: the arbiter adds two minutes to the opponent's remaining time, and if the claim was
/// made with an intended move, the claimant must now play that move (Articles 3 and 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The intended move is not legal in the current position.
    IllegalMove { mv: Move, uci: String },
    /// The position (now, or after the intended move) has not occurred three times.
    NotRepeated { occurrences: u32, with_move: bool },
    /// Fewer than 50 moves by each player (now, or after the intended move) without a pawn move or capture.
    NotFiftyMoves { halfmoves: u32, with_move: bool },
}

impl ClaimError {
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.message_zh(),
            Lang::En => self.message_en(),
        }
    }

    pub fn text(&self) -> Text {
        Text { zh: self.message_zh(), en: self.message_en() }
    }

    fn message_en(&self) -> String {
        match self {
            ClaimError::GameOver(o) => format!("the game is already over: {}", o.message(Lang::En)),
            ClaimError::IllegalMove { uci, .. } => format!("the intended move {uci} is not legal"),
            ClaimError::NotRepeated { occurrences, with_move } => {
                let when =
                    if *with_move { "after the intended move, the position would have" } else { "the position has" };
                format!("incorrect claim: {when} occurred only {occurrences} time(s), not three")
            }
            ClaimError::NotFiftyMoves { halfmoves, with_move } => {
                let when = if *with_move { " (after the intended move)" } else { "" };
                format!(
                    "incorrect claim: only {halfmoves} half-moves{when} without a pawn move or capture, not 100 \
                     (50 by each player)"
                )
            }
        }
    }

    fn message_zh(&self) -> String {
        match self {
            ClaimError::GameOver(o) => format!("对局已经结束：{}", o.message(Lang::Zh)),
            ClaimError::IllegalMove { uci, .. } => format!("所声明的着法 {uci} 不合规则"),
            ClaimError::NotRepeated { occurrences, with_move } => {
                let when = if *with_move { "走出所声明的着法后，该局面将" } else { "该局面" };
                format!("和棋要求不成立：{when}只出现{occurrences}次，不足三次")
            }
            ClaimError::NotFiftyMoves { halfmoves, with_move } => {
                let when = if *with_move { "（走出所声明的着法后）" } else { "" };
                format!(
                    "和棋要求不成立：{when}双方只连续走了{halfmoves}个半回合未走兵、未吃子，不足50回合（100个半回合）"
                )
            }
        }
    }
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_en())
    }
}

impl std::error::Error for ClaimError {}

/// Why [`GameState`] refused an action.
#[derive(Clone, Debug)]
pub enum GameError {
    /// The game has already ended; nothing more can happen in it.
    GameOver(Outcome),
    /// The move is not legal.
    Illegal(PlayError),
}

impl GameError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (GameError::GameOver(o), Lang::En) => format!("the game is already over: {}", o.message(Lang::En)),
            (GameError::GameOver(o), Lang::Zh) => format!("对局已经结束：{}", o.message(Lang::Zh)),
            (GameError::Illegal(e), Lang::En) => e.to_string(),
            (GameError::Illegal(e), Lang::Zh) => {
                format!("着法 {} 在局面 {} 中不合规则", e.position.uci(e.mv), e.position.fen())
            }
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for GameError {}

/// A game: start position, moves, and how (whether) it ended.
///
/// Automatic endings are recorded as soon as they happen ([`GameState::play`] returns them); after that the game
/// refuses moves, claims, resignations and flags. [`GameState::undo`] takes a move back and reopens the game.
#[derive(Clone, Debug)]
pub struct GameState {
    start: Position,
    moves: Vec<Move>,
    /// The positions since the last irreversible move, the current one last (the only ones that can repeat). A
    /// game keeps no other position, so it grows by a move, not a position, per ply.
    recent: Vec<Position>,
    /// How many moves were ever taken back (for [`GameState::rewind`]).
    undos: u64,
    outcome: Option<Outcome>,
    claim_move: Option<Move>,
}

/// Where a game stood: see [`GameState::checkpoint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    plies: usize,
    undos: u64,
    /// The last moves, for the ones taken back since.
    tail: Vec<Move>,
    outcome: Option<Outcome>,
    claim_move: Option<Move>,
}

/// Whether `m`, from `before` to `after`, is irreversible: a capture, a pawn move, or a loss of castling rights.
fn irreversible(before: &Position, m: Move, after: &Position) -> bool {
    before.is_zeroing(m) || after.castling_rooks() != before.castling_rooks()
}

impl Default for GameState {
    /// The standard start, as [`GameState::new`] (without looking for an ending: it has none).
    fn default() -> GameState {
        let start = Position::new();
        GameState { recent: vec![start.clone()], start, moves: Vec::new(), undos: 0, outcome: None, claim_move: None }
    }
}

impl GameState {
    /// A game from the standard starting position.
    pub fn new() -> GameState {
        GameState::from_position(Position::new())
    }

    /// A game from any position (the positions before it are unknown and do not count for repetitions; its
    /// half-move clock counts for the 50- and 75-move rules). A start position that is already finished (mate,
    /// stalemate, dead, 75 moves) gives a game that is already over.
    pub fn from_position(start: Position) -> GameState {
        let mut g = GameState {
            recent: vec![start.clone()],
            start,
            moves: Vec::new(),
            undos: 0,
            outcome: None,
            claim_move: None,
        };
        g.outcome = g.status();
        g
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.recent.last().unwrap_or(&self.start)
    }

    /// The positions since the last irreversible move (a capture, a pawn move, a loss of castling rights), the
    /// current one last: the only earlier positions that can occur again. An engine needs them to see repetitions.
    pub fn recent_positions(&self) -> &[Position] {
        &self.recent
    }

    /// Every position of the game, the start first and the current one last, replayed from the start (the game
    /// keeps only [`GameState::recent_positions`]).
    pub fn replay(&self) -> impl Iterator<Item = Position> + '_ {
        let mut p = Some(self.start.clone());
        let mut moves = self.moves.iter();
        core::iter::from_fn(move || {
            let here = p.take()?;
            p = moves.next().map(|&m| here.after(m));
            Some(here)
        })
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The move a player wrote down and declared together with a correct draw claim (Articles 9.2.1.1 and 9.3.1). It
    /// is part of the record but was not played on the board: [`GameState::position`] is the position before it.
    pub fn claim_move(&self) -> Option<Move> {
        self.claim_move
    }

    /// Plays a legal move. Returns the automatic ending the move brought about, if any (the game is then over).
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        let before = self.position();
        let after = before.clone().play(m).map_err(GameError::Illegal)?;
        if irreversible(before, m, &after) {
            // No earlier position can come back.
            self.recent.clear();
        }
        self.recent.push(after);
        self.moves.push(m);
        self.outcome = self.status();
        Ok(self.outcome)
    }

    /// Takes back the last move and reopens the game (any ending is forgotten). `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.undos += 1;
        if self.recent.len() > 1 {
            self.recent.pop();
        } else {
            // The move taken back was irreversible: find the positions since the one before it.
            self.recent.clear();
            let mut p = self.start.clone();
            self.recent.push(p.clone());
            for &m in &self.moves {
                let after = p.after(m);
                if irreversible(&p, m, &after) {
                    self.recent.clear();
                }
                self.recent.push(after.clone());
                p = after;
            }
        }
        self.outcome = self.status();
        self.claim_move = None;
        Some(m)
    }

    /// Where the game stands, to come back to with [`GameState::rewind`] after any moves played and at most
    /// `undos` moves taken back (it keeps that many of the last moves).
    pub fn checkpoint(&self, undos: usize) -> Checkpoint {
        let plies = self.moves.len();
        Checkpoint {
            plies,
            undos: self.undos,
            tail: self.moves[plies.saturating_sub(undos)..].to_vec(),
            outcome: self.outcome,
            claim_move: self.claim_move,
        }
    }

    /// Puts the game back where it stood at `c`: the moves played since are taken back and the ones taken back are
    /// played again. Returns `false`, changing nothing, when more moves were taken back than `c` kept.
    pub fn rewind(&mut self, c: Checkpoint) -> bool {
        let kept_from = c.plies - c.tail.len();
        // Each move taken back since shortened the game by one: the first `unchanged` moves are the checkpoint's.
        let unchanged = c.plies.saturating_sub(usize::try_from(self.undos - c.undos).unwrap_or(usize::MAX));
        if unchanged < kept_from {
            return false;
        }
        // The moves before `kept_from` are the checkpoint's; of the kept ones, those up to the first that differs.
        let common = self.moves.len().min(c.plies);
        let same = (kept_from..common).find(|&i| self.moves[i] != c.tail[i - kept_from]).unwrap_or(common);
        while self.moves.len() > same {
            self.undo();
        }
        for &m in &c.tail[same - kept_from..] {
            // Each was legal here at the checkpoint (the position is the same), so this always plays.
            self.outcome = None;
            if self.play(m).is_err() {
                return false;
            }
        }
        self.outcome = c.outcome;
        self.claim_move = c.claim_move;
        true
    }

    /// The automatic ending of the current position, if there is one (whatever has been recorded): checkmate
    /// (Article 5.1.1), stalemate (5.2.1), dead position (5.2.2), fivefold repetition (9.6.1), 75-move rule (9.6.2).
    /// Checkmate takes precedence over the 75-move rule, as Article 9.6.2 says; the draws are listed in the order
    /// checked.
    pub fn status(&self) -> Option<Outcome> {
        let p = self.position();
        if !p.has_legal_move() {
            return Some(if p.is_check() {
                Outcome::win(!p.turn(), Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        if p.is_dead_position() {
            return Some(Outcome::draw(Termination::DeadPosition));
        }
        if self.repetitions() >= 5 {
            return Some(Outcome::draw(Termination::FivefoldRepetition));
        }
        if p.halfmoves() >= 150 {
            return Some(Outcome::draw(Termination::SeventyFiveMoves));
        }
        None
    }

    /// How many times the current position has occurred in this game (itself included).
    pub fn repetitions(&self) -> u32 {
        self.occurrences(self.position())
    }

    /// How many times the position after the legal move `m` would have occurred (itself included); 0 if `m` is not
    /// legal.
    pub fn repetitions_after(&self, m: Move) -> u32 {
        let p = self.position();
        if !p.is_legal(m) {
            return 0;
        }
        let after = p.after(m);
        if irreversible(p, m, &after) {
            return 1;
        }
        1 + self.occurrences(&after)
    }

    /// How many of the positions since the last irreversible move are the same as `p`.
    fn occurrences(&self, p: &Position) -> u32 {
        self.recent.iter().filter(|q| same_position(p, q)).count() as u32
    }

    /// The draws the player to move may claim right now, without a move (Articles 9.2.1.2 and 9.3.2).
    pub fn claimable(&self) -> Vec<ClaimKind> {
        let mut v = Vec::new();
        if self.outcome.is_some() {
            return v;
        }
        if self.repetitions() >= 3 {
            v.push(ClaimKind::ThreefoldRepetition);
        }
        if self.position().halfmoves() >= 100 {
            v.push(ClaimKind::FiftyMoves);
        }
        v
    }

    /// The draws the player to move may claim by writing down the legal move `m` and declaring it (Articles 9.2.1.1
    /// and 9.3.1): the position after `m` occurs for the third time, or `m` completes 50 moves by each player without
    /// a pawn move or capture. Empty when `m` is not legal or the game is over.
    pub fn claimable_with(&self, m: Move) -> Vec<ClaimKind> {
        let mut v = Vec::new();
        let p = self.position();
        if self.outcome.is_some() || !p.is_legal(m) {
            return v;
        }
        if self.repetitions_after(m) >= 3 {
            v.push(ClaimKind::ThreefoldRepetition);
        }
        if p.after(m).halfmoves() >= 100 {
            v.push(ClaimKind::FiftyMoves);
        }
        v
    }

    /// Whether the player to move can claim `kind` now or with some legal move.
    pub fn can_claim(&self, kind: ClaimKind) -> bool {
        self.claimable().contains(&kind)
            || (self.outcome.is_none()
                && self.position().legal_moves().iter().any(|&m| self.claimable_with(m).contains(&kind)))
    }

    /// A draw claim by the player to move, about the current position (`intended` = `None`) or about the position
    /// after the move `intended` (which the player has written down and declared; it is recorded as
    /// [`GameState::claim_move`] but not played). A correct claim ends the game in a draw; an incorrect one changes
    /// nothing here (see [`ClaimError`] for what Article 9.5 then asks of the caller).
    pub fn claim(&mut self, kind: ClaimKind, intended: Option<Move>) -> Result<Outcome, ClaimError> {
        if let Some(o) = self.outcome {
            return Err(ClaimError::GameOver(o));
        }
        let p = self.position();
        let with_move = intended.is_some();
        let ok = match intended {
            Some(m) => {
                if !p.is_legal(m) {
                    return Err(ClaimError::IllegalMove { mv: m, uci: p.uci(m) });
                }
                self.claimable_with(m).contains(&kind)
            }
            None => self.claimable().contains(&kind),
        };
        if !ok {
            return Err(match kind {
                ClaimKind::ThreefoldRepetition => {
                    let occurrences = intended.map_or_else(|| self.repetitions(), |m| self.repetitions_after(m));
                    ClaimError::NotRepeated { occurrences, with_move }
                }
                ClaimKind::FiftyMoves => {
                    let halfmoves = intended.map_or(p.halfmoves(), |m| p.after(m).halfmoves());
                    ClaimError::NotFiftyMoves { halfmoves, with_move }
                }
            });
        }
        let o = Outcome::draw(kind.termination(p.turn()));
        self.outcome = Some(o);
        self.claim_move = intended;
        Ok(o)
    }

    fn finish(&mut self, o: Outcome) -> Result<Outcome, GameError> {
        if let Some(done) = self.outcome {
            return Err(GameError::GameOver(done));
        }
        self.outcome = Some(o);
        Ok(o)
    }

    /// `color` resigns (Article 5.1.2); either player may resign at any time.
    pub fn resign(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.finish(Outcome::win(!color, Termination::Resignation))
    }

    /// Both players agree to a draw (Articles 5.2.3, 9.1).
    pub fn agree_draw(&mut self) -> Result<Outcome, GameError> {
        self.finish(Outcome::draw(Termination::Agreement))
    }

    /// `color`'s flag fell (Article 6.9): a loss, or a draw if the opponent cannot checkmate by any series of legal
    /// moves from the current position ([`Outcome::time_forfeit`]).
    pub fn flag(&mut self, color: Color) -> Result<Outcome, GameError> {
        let o = Outcome::time_forfeit(self.position(), color);
        self.finish(o)
    }

    /// `color` left the game (a server decision): the opponent wins.
    pub fn abandon(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.finish(Outcome::win(!color, Termination::Abandoned))
    }

    /// An arbiter or the server sets the result (`None`: a draw).
    pub fn adjudicate(&mut self, winner: Option<Color>) -> Result<Outcome, GameError> {
        self.finish(Outcome { winner, termination: Termination::Adjudication })
    }
}

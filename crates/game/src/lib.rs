//! guoxiang-game: the game state machine behind the server, without I/O.
//!
//! One [`Game`] is owned by one actor on the server, which is the authority on the position and the clocks. The
//! actor feeds it [`Command`]s, each at a [`Timestamp`] it reads from its own monotonic clock; every command returns
//! the [`Event`]s it caused, numbered with a version that goes up by one per event, or a [`CommandError`] (zh/en)
//! that leaves the game unchanged. A reconnecting client asks for [`Game::events_since`] its version, or resyncs
//! from a [`Snapshot`], which is also what is persisted: [`Game::restore`] resumes a game without charging anyone
//! for the time the server was down.
//!
//! | item | what it is |
//! |---|---|
//! | [`Game`], [`GameSetup`], [`GameConfig`], [`PlayerRef`], [`Variant`] | a game and what it is created from |
//! | [`Action`], [`Command`], [`MoveInput`] | what players ([`Action`], the same type from the wire on) and the server ask of it |
//! | [`Event`], [`VersionedEvent`], [`Clocks`] | what happened, for the clients |
//! | [`Status`], [`AbortReason`], [`MoveRecord`] | where the game is, and its moves with clock times |
//! | [`Snapshot`] | full state for resync and persistence |
//! | [`Rules`], [`IllegalMoves`], [`Obligation`] | the rule set: online, touch-move, illegal moves counted (7.5, 送王) |
//! | [`ArbiterAct`], [`ArbiterRef`], [`ArbiterRecord`], [`Dispute`] | the arbiter's acts (pause, time, rulings, results, the adjournment) |
//! | [`PgnTags`], [`Game::to_pgn`] | PGN export with `[%clk]` comments |
//!
//! The rules as implemented, with the FIDE article numbers, are in `docs/game.md`.
//!
//! ```
//! use guoxiang_game::{
//!     Color, Command, Event, Game, GameConfig, GameSetup, MoveInput, PlayerRef, Source, TimeControl, Timestamp,
//!     Variant,
//! };
//!
//! let tc = TimeControl::from_pgn("180+2").unwrap();
//! let setup = GameSetup {
//!     id: "abcd1234".into(),
//!     white: PlayerRef::human("u1", "Alice"),
//!     black: PlayerRef::human("u2", "Bob"),
//!     rated: true,
//!     config: GameConfig::for_time_control(&tc),
//!     time_control: tc,
//!     variant: Variant::Standard,
//!     source: Source::Friend,
//! };
//! let mut game = Game::new(setup, Timestamp(0)).unwrap();
//! let play = |by, uci: &str| Command::play(by, MoveInput::uci(uci));
//! game.apply(Timestamp(2_000), play(Color::White, "e2e4")).unwrap();
//! game.apply(Timestamp(5_000), play(Color::Black, "e7e5")).unwrap(); // the clocks start now
//! let events = game.apply(Timestamp(9_000), play(Color::White, "g1f3")).unwrap();
//! assert_eq!(events[0].version, 3);
//! match &events[0].event {
//!     Event::MoveMade { san, clocks, .. } => {
//!         assert_eq!(san, "Nf3");
//!         assert_eq!(clocks.unwrap().white_ms, 180_000 - 4_000 + 2_000);
//!     }
//!     e => panic!("{e:?}"),
//! }
//! // A client that saw version 1 catches up:
//! assert_eq!(game.events_since(1).unwrap().len(), 2);
//! ```

#![forbid(unsafe_code)]

mod action;
pub mod adjourn;
pub mod arbiter;
mod error;
mod event;
mod game;
mod pgn;
mod rules;
mod serde_util;
mod snapshot;

pub use action::{Action, MoveInput};
pub use adjourn::{Adjournment, SealedMove};
pub use arbiter::{ARBITER_ACT_CODES, ArbiterAct, ArbiterRecord, ArbiterRef, Dispute};
pub use error::{CommandError, SetupError};
pub use event::{Clocks, Event, VersionedEvent, outcome_text};
pub use game::{
    AbortReason, Checkpoint, Command, Game, GameConfig, GameSetup, MAX_TAKEBACK_PLIES, MoveRecord, MoveText, PlayerRef,
    Source, Status, Variant, move_text,
};
pub use pgn::{PgnTags, format_clk, termination_tag};
pub use rules::{IllegalMoves, Incident, Obligation, Rules, Touch, penalty_ms};
pub use snapshot::{STATE_RECORD_FORMAT, Snapshot, StateRecord};

pub use guoxiang_clock::{TimeControl, Timestamp};
pub use guoxiang_core::{ClaimKind, Color, Outcome, Termination};

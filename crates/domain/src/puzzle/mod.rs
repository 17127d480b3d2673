//! 战术训练 / the tactics trainer's domain (docs/puzzles/server.md): the puzzle service ([`Puzzles`], one per server
//! in its state), puzzles' import (the default set compiled in, the rows the CLI's import writes), ratings and the
//! API's shapes of a stored puzzle. The HTTP handlers are `http::puzzle`.

pub mod error;
pub mod import;
pub mod rating;
pub mod service;
pub mod view;

pub use error::PuzzleError;
pub use service::Puzzles;

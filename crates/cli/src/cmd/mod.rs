pub mod bench;
pub mod explain;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod uci;

//! The engine's worker pools: searches run on blocking threads, so the engine never holds up the async server.
//! The computer opponents of live games have a pool of their own (their moves wait in a queue when every worker is
//! busy); analysis has another, bounded in queue length and per user, so no amount of analysis can make a computer
//! opponent lose on time.
//!
//! | module | what lives there |
//! |---|---|
//! | `opponents` | the computer opponents' pool ([`EnginePool`]), its [`Job`]s and [`game_seed`] |
//! | `analysis` | the analysis pool ([`AnalysisPool`]), its tickets and why it may refuse ([`Busy`]) |

mod analysis;
mod opponents;

pub use analysis::{AnalysisPool, AnalysisTicket, Busy};
pub use opponents::{EnginePool, Job, game_seed};

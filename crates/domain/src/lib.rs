// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-domain: what the server does, without how it is reached. No HTTP, no WebSocket framing, no Redis: the
//! transports (`guoxiang-http`) call these services, and a cluster's broker (`guoxiang-broker`) plugs in behind
//! [`transport`]'s traits.
//!
//! | module | what lives there |
//! |---|---|
//! | `live` | live games: one actor per game, the registry, group-commit persistence, the engine pools, the leases of a cluster (the lobby's too), a game's messages between nodes (`live::wire`) |
//! | `lobby` | challenges, seeks, quick-pairing pools; in a cluster, the lobby run by one node |
//! | `events`, `hub` | what users are told (game started, challenge, rematch) and the hub that tells every connection of theirs |
//! | `tournament` | tournaments: round-robins, Swiss and arenas, online rounds' games created, results, standings |
//! | `review` | the reviewer: game reviews (复盘) queued in the store, run on the analysis workers |
//! | `puzzle` | the tactics trainer's service (next puzzle, rounds and ratings, daily puzzle), the puzzles' import |
//! | `archive` | stored games as PGN (tournament tags as tags) and as replayed games |
//! | `explorer` | the opening explorer's write path (finished games into its `server` source) |
//! | `policy` | who may play what: rated games, bots, the lobby |
//! | `transport` | the seam to a cluster's broker: ask, tell, publish, follow; shared counters; the live list |
//! | `metrics`, `time`, `error` | the counters, the server's clock, the domain's refusal (a kind, a code, zh and en) |
//!
//! Arrows between these modules go one way (`tools/layers.py` checks it): `live` is below `lobby`, `tournament` and
//! `review`; `events`, `transport`, `error`, `time` and `metrics` are below everything.

#![forbid(unsafe_code)]

pub mod archive;
pub mod error;
pub mod events;
pub mod explorer;
pub mod hub;
pub mod live;
pub mod lobby;
pub mod metrics;
pub mod policy;
pub mod puzzle;
pub mod review;
pub mod time;
pub mod tournament;
pub mod transport;

pub use error::{Error, Kind};

//! `guoxiang cluster status`: the nodes of a cluster sharing a database, the live games each owns and the reviews it
//! runs, and the games no node owns now (`docs/cluster.md`).

use std::collections::BTreeMap;
use std::process::ExitCode;

use guoxiang_store::Store;
use serde_json::json;

#[derive(clap::Subcommand, Debug)]
pub enum ClusterCommand {
    /// Each node with the live games it owns (by their leases) and when its leases run out; the live games no node
    /// owns now (another node takes them over at its next scan).
    Status {
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// What one node holds.
#[derive(Default)]
struct Node {
    games: Vec<String>,
    /// The games whose review it runs.
    reviews: Vec<String>,
    /// The last of its leases to run out, ms since the Unix epoch.
    until_ms: i64,
}

pub fn run(c: ClusterCommand) -> Result<ExitCode, String> {
    let ClusterCommand::Status { database, json } = c;
    super::serve::runtime()?.block_on(async {
        let store = Store::connect(&database).await.map_err(|e| format!("database {database}: {e}"))?;
        let now = guoxiang_server::time::now_ms() as i64;
        let leases = store.leases().await.map_err(|e| e.to_string())?;
        let unowned = store.unowned_live_games(now).await.map_err(|e| e.to_string())?;
        let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
        let mut lobby = None;
        for l in leases.into_iter().filter(|l| l.expires_at_ms >= now) {
            let n = nodes.entry(l.node.clone()).or_default();
            n.until_ms = n.until_ms.max(l.expires_at_ms);
            // With a broker one node runs the cluster's lobby, by a lease of its own.
            if l.game_id == guoxiang_server::lobby::LOBBY_LEASE {
                lobby = Some(l.node);
            } else if let Some(game) = l.game_id.strip_prefix(guoxiang_store::REVIEW_LEASE_PREFIX) {
                n.reviews.push(game.to_owned());
            } else {
                n.games.push(l.game_id);
            }
        }
        if json {
            let nodes: Vec<_> = nodes
                .iter()
                .map(|(name, n)| {
                    json!({"node": name, "games": n.games, "reviews": n.reviews, "leases_until_ms": n.until_ms})
                })
                .collect();
            println!("{}", json!({"now_ms": now, "nodes": nodes, "lobby": lobby, "unowned_live_games": unowned}));
            return Ok(ExitCode::SUCCESS);
        }
        if nodes.is_empty() {
            println!("no node holds a live game");
        }
        for (name, n) in &nodes {
            let secs = (n.until_ms - now) as f64 / 1000.0;
            let reviews = match n.reviews.len() {
                0 => String::new(),
                k => format!(", reviewing {k} games"),
            };
            println!("node {name}: {} live games{reviews}, leases renewed until {secs:.1} s from now", n.games.len());
        }
        if let Some(l) = lobby {
            println!("the lobby runs on node {l}");
        }
        if !unowned.is_empty() {
            println!(
                "{} live games owned by no node (a node of the cluster takes them over at its next scan): {}",
                unowned.len(),
                unowned.join(" ")
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}

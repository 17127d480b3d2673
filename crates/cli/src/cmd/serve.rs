//! `guoxiang serve` (also what `guoxiang` with no arguments does): the game server.

use std::net::SocketAddr;
use std::process::ExitCode;

/// Where the server listens and what it stores into.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: `sqlite://FILE` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
    pub database: String,
    /// The address people use to reach the server, for links (default: http://ADDR).
    #[arg(long)]
    pub public_url: Option<String>,
    /// Threads for the computer opponent (default: cores − 1, at least 1).
    #[arg(long)]
    pub engine_workers: Option<usize>,
    /// Threads for the server's analysis: the analysis board of browsers without WebAssembly, API clients'
    /// analyses, game reviews (default 1). 0: the server never analyses for the analysis board (every browser runs
    /// the engine itself; `/api/analyse` and `/ws/analysis` answer 503), and leaves each review two minutes to the
    /// players' browsers before it reviews the game itself, on one thread.
    #[arg(long)]
    pub analysis_workers: Option<usize>,
    /// Threads for the server's own work: requests, connections, the games' actors (default: cores − 1, at least
    /// 1 — the database's writer and the computer's threads need the rest; on two cores one thread serves 5,000
    /// live games with about a tenth less CPU per move than two, docs/benchmarks.md).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Mark session cookies `Secure` (when served over HTTPS by a proxy).
    #[arg(long)]
    pub secure_cookies: bool,
    /// End a session unused for this many days (at least 1; its last use is recorded at most every 10 minutes).
    /// Every session also ends 30 days after it began.
    #[arg(
        long,
        default_value_t = 7,
        value_parser = clap::value_parser!(u64).range(1..=30),
        env = "GUOXIANG_SESSION_IDLE_DAYS"
    )]
    pub session_idle_days: u64,
    /// The least time the computer takes for a reply at levels 1 to 5, ms, on its own clock (0: at once).
    #[arg(long, default_value_t = DEFAULT_COMPUTER_REPLY_MS, env = "GUOXIANG_COMPUTER_REPLY_MS")]
    pub computer_reply_ms: u64,
    /// A reverse proxy in front of the server, as an address or a CIDR range (`127.0.0.1`, `10.0.0.0/8`; repeat the
    /// flag, or separate them by commas). Only on requests from these peers is the client's address read from
    /// `X-Forwarded-For` (or `Forwarded`), for every per-address limit and the access log; from other peers, and
    /// without this flag, those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR", env = "GUOXIANG_TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
    /// A secret for the server's figures: `/metrics` and `/api/server/stats` answer requests that send
    /// `Authorization: Bearer SECRET` (at least 16 characters). Without it, --metrics-addr or --metrics-public they
    /// answer 403; /healthz and /readyz are always open.
    #[arg(long, value_name = "SECRET", env = "GUOXIANG_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// A second address serving only /metrics, /api/server/stats, /healthz and /readyz, without a token (for a
    /// Prometheus on a private network or this machine).
    #[arg(long, value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Open /metrics and /api/server/stats to everyone on the main address.
    #[arg(long)]
    pub metrics_public: bool,
    /// Open connections allowed from one client address (WebSockets included); more are closed at once.
    #[arg(long, default_value_t = guoxiang_server::listen::ConnLimits::default().per_ip)]
    pub max_connections_per_ip: usize,
    /// Let bot accounts and people play rated games against each other (as Lichess does); without it their games
    /// are casual. Two bots may always play rated.
    #[arg(long)]
    pub rated_bot_games: bool,
    /// Who may create rated tournaments: `admins` (the server's administrators, the default) or `everyone` (every
    /// registered user). A tournament's organiser and arbiters decide results that move ratings.
    #[arg(long, default_value = "admins", env = "GUOXIANG_RATED_TOURNAMENTS")]
    pub rated_tournaments: guoxiang_server::tournament::RatedTournaments,
    /// Who may create classes (课堂) and be a teacher: `anyone` (every registered account, the default) or
    /// `admin-only` (the server's administrators).
    #[arg(long, default_value = "anyone", env = "GUOXIANG_TEACHERS")]
    pub teachers: guoxiang_server::http::class::Teachers,
    /// Failed logins allowed a minute from one address (successful logins are not limited per address, so a
    /// class behind one school router signs in at once). Each account also pauses after 10 failures in 10 min.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..), env = "GUOXIANG_LOGIN_LIMIT")]
    pub login_limit: u32,
    /// Registrations allowed an hour from one address.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..), env = "GUOXIANG_SIGNUP_LIMIT")]
    pub signup_limit: u32,
    /// Run as one node of several sharing this database (PostgreSQL): each live game is owned by one node through
    /// a lease, its writes fenced by the lease's epoch, and the games of a node that dies are taken over. Without
    /// --broker, clients must reach the node that owns their game.
    #[arg(long)]
    pub cluster: bool,
    /// The message broker between the nodes (Redis: redis://host:port/ or redis+unix:///path); implies --cluster.
    /// Every node started with the same database and broker serves any client: requests for a game another node
    /// runs go to it through the broker, and its changes come back the same way (docs/cluster.md).
    #[arg(long, env = "GUOXIANG_BROKER")]
    pub broker: Option<String>,
    /// This node's name in the cluster, unique among the running nodes (default: host-pid-random).
    #[arg(long)]
    pub node: Option<String>,
    /// How long a game's lease runs without renewal, ms (default 4000): the longest wait before another node takes
    /// over the games of a node that died (plus a third of it).
    #[arg(long)]
    pub lease_ms: Option<u64>,
    /// How log lines are written to stderr: `text`, or `json` (one object per line with the time, level, module,
    /// node and fields, for a log collector). `RUST_LOG` chooses what is logged (default `info`).
    #[arg(long, value_enum, default_value_t = super::logs::LogFormat::Text, env = "GUOXIANG_LOG_FORMAT")]
    pub log_format: super::logs::LogFormat,
    /// Directories of Syzygy endgame tables (.rtbw/.rtbz, separated by ':') for the computer's top level and the
    /// analysis board.
    #[arg(long, env = "GUOXIANG_SYZYGY_PATH")]
    pub syzygy_path: Option<String>,
}

/// The default lease: a dead node's games move within about 5 s.
pub const DEFAULT_LEASE_MS: u64 = 4_000;

impl Default for Args {
    fn default() -> Args {
        Args {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: std::env::var("GUOXIANG_DATABASE").unwrap_or_else(|_| "sqlite://guoxiang.db".to_owned()),
            public_url: None,
            engine_workers: None,
            analysis_workers: None,
            workers: None,
            secure_cookies: false,
            session_idle_days: std::env::var("GUOXIANG_SESSION_IDLE_DAYS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|d| (1..=30).contains(d))
                .unwrap_or(7),
            computer_reply_ms: std::env::var("GUOXIANG_COMPUTER_REPLY_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(DEFAULT_COMPUTER_REPLY_MS),
            trusted_proxies: std::env::var("GUOXIANG_TRUSTED_PROXY")
                .map(|v| v.split(',').map(str::to_owned).collect())
                .unwrap_or_default(),
            metrics_token: std::env::var("GUOXIANG_METRICS_TOKEN").ok(),
            metrics_addr: None,
            metrics_public: false,
            max_connections_per_ip: guoxiang_server::listen::ConnLimits::default().per_ip,
            rated_bot_games: false,
            rated_tournaments: std::env::var("GUOXIANG_RATED_TOURNAMENTS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or_default(),
            teachers: std::env::var("GUOXIANG_TEACHERS").ok().and_then(|v| v.parse().ok()).unwrap_or_default(),
            login_limit: env_limit("GUOXIANG_LOGIN_LIMIT", 10),
            signup_limit: env_limit("GUOXIANG_SIGNUP_LIMIT", 30),
            cluster: false,
            broker: None,
            node: None,
            lease_ms: None,
            log_format: super::logs::LogFormat::Text,
            syzygy_path: std::env::var("GUOXIANG_SYZYGY_PATH").ok(),
        }
    }
}

/// A limit from the environment (at least 1), or `default`.
fn env_limit(var: &str, default: u32) -> u32 {
    std::env::var(var).ok().and_then(|v| v.parse().ok()).filter(|n| *n >= 1).unwrap_or(default)
}

/// `--trusted-proxy`'s values (blank ones, as an empty variable gives, are skipped).
fn trusted_proxies(values: &[String]) -> Result<Vec<guoxiang_server::client::IpNet>, String> {
    values
        .iter()
        .filter(|v| !v.trim().is_empty())
        .map(|v| guoxiang_server::client::parse_trusted_proxy(v).map_err(|e| format!("--trusted-proxy: {e}")))
        .collect()
}

/// Who may read `/metrics` and `/api/server/stats`.
fn metrics_access(
    token: Option<String>,
    addr: Option<SocketAddr>,
    public: bool,
) -> Result<guoxiang_server::http::metrics::MetricsAccess, String> {
    let token = token.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    if let Some(t) = &token
        && (t.chars().count() < 16 || t.chars().any(char::is_whitespace))
    {
        return Err(
            "--metrics-token: a secret of at least 16 characters without spaces (e.g. openssl rand -hex 16)".to_owned()
        );
    }
    Ok(guoxiang_server::http::metrics::MetricsAccess { token, addr, public })
}

/// A person's short moment before answering, for the lower computer levels.
pub const DEFAULT_COMPUTER_REPLY_MS: u64 = 800;

/// The server's runtime: `workers` threads, or one fewer than the cores (at least one).
fn server_runtime(workers: Option<usize>) -> Result<tokio::runtime::Runtime, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = workers.unwrap_or(cores.saturating_sub(1)).max(1);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))
}

pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| format!("tokio: {e}"))
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let mut config = guoxiang_server::Config::new(a.addr, a.database);
    if let Some(u) = a.public_url {
        config.public_url = u.trim_end_matches('/').to_owned();
    }
    if let Some(n) = a.engine_workers {
        config.engine_workers = n.max(1);
    }
    if let Some(n) = a.analysis_workers {
        config.analysis_workers = n;
    }
    config.secure_cookies = a.secure_cookies;
    config.session_idle_ms = a.session_idle_days * 86_400_000;
    config.computer_reply_ms = a.computer_reply_ms;
    config.rated_bot_games = a.rated_bot_games;
    config.rated_tournaments = a.rated_tournaments;
    config.teachers = a.teachers;
    config.limits.logins_per_minute = a.login_limit;
    config.limits.registrations_per_hour = a.signup_limit;
    config.connections.per_ip = a.max_connections_per_ip.max(1);
    config.trusted_proxies = trusted_proxies(&a.trusted_proxies)?;
    config.metrics = metrics_access(a.metrics_token, a.metrics_addr, a.metrics_public)?;
    if a.cluster || a.broker.is_some() {
        let lease_ms = a.lease_ms.unwrap_or(DEFAULT_LEASE_MS);
        if lease_ms < 300 {
            return Err(format!("--lease-ms {lease_ms}: a lease must run at least 300 ms"));
        }
        let mut c = guoxiang_server::live::cluster::ClusterConfig::new(lease_ms);
        c.broker = a.broker;
        if let Some(node) = a.node {
            if node.trim().is_empty() || node.len() > 100 {
                return Err("--node: a name of 1 to 100 characters".to_owned());
            }
            c.node = node;
        }
        config.cluster = Some(c);
    } else if a.node.is_some() || a.lease_ms.is_some() {
        return Err("--node and --lease-ms are for a node of a cluster: add --cluster or --broker".to_owned());
    }
    super::logs::init(a.log_format, config.cluster.as_ref().map(|c| c.node.clone()));
    if let Some((tb, n)) = super::syzygy_tables(a.syzygy_path.as_deref())? {
        let path = a.syzygy_path.as_deref().unwrap_or_default();
        tracing::info!("Syzygy: {n} tables, up to {} pieces, from {path}", tb.tables.max_pieces());
        config.syzygy = Some(tb);
    }
    server_runtime(a.workers)?.block_on(guoxiang_server::serve(config))?;
    Ok(ExitCode::SUCCESS)
}

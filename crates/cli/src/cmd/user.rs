//! `guoxiang user add NAME [--password P]`, `guoxiang user password NAME [--password P]`, `guoxiang user admin NAME
//! [--revoke]` and `guoxiang token create|list|revoke NAME`: administration from the shell, on the same database the
//! server uses.

use std::process::ExitCode;

use guoxiang_server::auth;
use guoxiang_store::{Store, StoreError};

#[derive(clap::Subcommand, Debug)]
pub enum UserCommand {
    /// Create an account. Without --password a random one is made and printed.
    Add {
        name: String,
        #[arg(long)]
        password: Option<String>,
        /// Make the account an administrator.
        #[arg(long)]
        admin: bool,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// Set an account's password (checked as the site checks a new one) and end all its sessions. Without
    /// --password a random one is made and printed.
    Password {
        name: String,
        #[arg(long)]
        password: Option<String>,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// Make an existing account an administrator (an arbiter of every game it does not play), or with --revoke an
    /// ordinary account again.
    Admin {
        name: String,
        #[arg(long)]
        revoke: bool,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Create a personal API token for a user and print it (it is shown only once).
    Create {
        name: String,
        /// Comma-separated scopes (default: all of board:play, bot:play, challenge:read, challenge:write,
        /// preference:read, email:read).
        #[arg(long)]
        scopes: Option<String>,
        #[arg(long, default_value = "")]
        description: String,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// List a user's tokens: id, creation date, scopes, description (never the secrets).
    List {
        name: String,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// Revoke one of a user's tokens by its id (from `token list`); it stops working at once.
    Revoke {
        name: String,
        id: String,
        #[arg(long, default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
}

fn now_ms() -> i64 {
    guoxiang_server::time::now_ms() as i64
}

/// A random password of 20 hex digits (80 bits), printed for the host to hand on.
fn generated_password() -> String {
    auth::new_secret()[..20].to_owned()
}

/// `user password`: a new password (given or made), checked, stored; every session of the account ends. The
/// connections a running server holds open for those sessions stay until they reconnect.
fn set_password(name: &str, password: Option<String>, database: &str) -> Result<ExitCode, String> {
    super::serve::runtime()?.block_on(async {
        let store = connect(database).await?;
        let user = user_named(&store, name).await?;
        if user.is_guest {
            return Err(format!("{} is a guest; guests have no password", user.name));
        }
        let (password, generated) = match password {
            Some(p) => (p, false),
            None => (generated_password(), true),
        };
        auth::check_password(&password, &user.name).map_err(|e| e.en)?;
        let hash = auth::hash_password(&password).map_err(|e| e.en)?;
        store.set_password(&user.id, &hash).await.map_err(|e| e.to_string())?;
        let ended = store.end_user_sessions(&user.id, None).await.map_err(|e| e.to_string())?;
        println!("set the password of {}; {} sessions ended", user.name, ended.len());
        if generated {
            println!("password: {password}");
        }
        Ok(ExitCode::SUCCESS)
    })
}

async fn connect(url: &str) -> Result<Store, String> {
    Store::connect(url).await.map_err(|e| format!("database {url}: {e}"))
}

pub fn run_user(c: UserCommand) -> Result<ExitCode, String> {
    let (name, password, admin, database) = match c {
        UserCommand::Add { name, password, admin, database } => (name, password, admin, database),
        UserCommand::Password { name, password, database } => return set_password(&name, password, &database),
        UserCommand::Admin { name, revoke, database } => {
            return super::serve::runtime()?.block_on(async {
                let store = connect(&database).await?;
                let user = user_named(&store, &name).await?;
                if user.is_guest {
                    return Err(format!("{} is a guest; only registered accounts can be administrators", user.name));
                }
                store.set_admin(&user.id, !revoke).await.map_err(|e| e.to_string())?;
                let what = if revoke { "is no longer an administrator" } else { "is now an administrator" };
                println!("{} {what}", user.name);
                Ok(ExitCode::SUCCESS)
            });
        }
    };
    super::serve::runtime()?.block_on(async {
        let name = auth::normalize_name(&name);
        auth::check_name(&name).map_err(|e| e.en)?;
        let (password, generated) = match password {
            Some(p) => (p, false),
            None => (generated_password(), true),
        };
        auth::check_password(&password, &name).map_err(|e| e.en)?;
        let hash = auth::hash_password(&password).map_err(|e| e.en)?;
        let store = connect(&database).await?;
        let user = match store.create_user(&name, Some(&hash), false, now_ms()).await {
            Ok(u) => u,
            Err(StoreError::NameTaken) => return Err(format!("the user name {name} is taken")),
            Err(e) => return Err(e.to_string()),
        };
        if admin {
            store.set_admin(&user.id, true).await.map_err(|e| e.to_string())?;
        }
        println!("created user {} (id {}){}", user.name, user.id, if admin { ", administrator" } else { "" });
        if generated {
            println!("password: {password}");
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time in ms.
fn utc_minute(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (proleptic Gregorian), by 400-year eras.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
}

async fn user_named(store: &Store, name: &str) -> Result<guoxiang_store::User, String> {
    let id = guoxiang_store::user_id_of(&auth::normalize_name(name));
    store.user(&id).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("no user named {name}"))
}

pub fn run_token(c: TokenCommand) -> Result<ExitCode, String> {
    let (name, scopes, description, database) = match c {
        TokenCommand::Create { name, scopes, description, database } => (name, scopes, description, database),
        TokenCommand::List { name, database } => {
            return super::serve::runtime()?.block_on(async {
                let store = connect(&database).await?;
                let user = user_named(&store, &name).await?;
                let tokens = store.tokens_of(&user.id).await.map_err(|e| e.to_string())?;
                if tokens.is_empty() {
                    println!("{} has no tokens", user.name);
                }
                for t in tokens {
                    let when = utc_minute(t.created_at_ms);
                    println!("{}  {when}  {}  {}", t.id, t.scopes.join(","), t.description);
                }
                Ok(ExitCode::SUCCESS)
            });
        }
        TokenCommand::Revoke { name, id, database } => {
            return super::serve::runtime()?.block_on(async {
                let store = connect(&database).await?;
                let user = user_named(&store, &name).await?;
                if store.revoke_token(&user.id, &id).await.map_err(|e| e.to_string())? {
                    println!("revoked token {id} of {}", user.name);
                    Ok(ExitCode::SUCCESS)
                } else {
                    eprintln!("{} has no token {id} (see: guoxiang token list {name})", user.name);
                    Ok(ExitCode::from(1))
                }
            });
        }
    };
    super::serve::runtime()?.block_on(async {
        let scopes: Vec<String> = match scopes {
            Some(s) => s.split(',').map(|x| x.trim().to_owned()).filter(|x| !x.is_empty()).collect(),
            None => auth::SCOPES.iter().map(|s| (*s).to_owned()).collect(),
        };
        if let Some(bad) = scopes.iter().find(|s| !auth::SCOPES.contains(&s.as_str())) {
            return Err(format!("unknown scope {bad:?}; known: {}", auth::SCOPES.join(", ")));
        }
        let store = connect(&database).await?;
        let user = user_named(&store, &name).await?;
        let token = format!("gxp_{}", auth::new_secret());
        store
            .create_token(&auth::hash_secret(&token), &user.id, &description, &scopes, now_ms())
            .await
            .map_err(|e| e.to_string())?;
        println!("{token}");
        Ok(ExitCode::SUCCESS)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_minutes() {
        assert_eq!(super::utc_minute(0), "1970-01-01 00:00");
        assert_eq!(super::utc_minute(951_782_400_000), "2000-02-29 00:00");
        assert_eq!(super::utc_minute(1_796_114_979_000), "2026-12-01 08:49");
    }
}

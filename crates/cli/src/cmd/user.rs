//! `guoxiang user add NAME [--password P]` and `guoxiang token create NAME`: administration from the shell, on the
//! same database the server uses.

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
}

fn now_ms() -> i64 {
    guoxiang_server::time::now_ms() as i64
}

async fn connect(url: &str) -> Result<Store, String> {
    Store::connect(url).await.map_err(|e| format!("database {url}: {e}"))
}

pub fn run_user(c: UserCommand) -> Result<ExitCode, String> {
    let UserCommand::Add { name, password, admin, database } = c;
    super::serve::runtime()?.block_on(async {
        let name = auth::normalize_name(&name);
        auth::check_name(&name).map_err(|e| e.en)?;
        let (password, generated) = match password {
            Some(p) => (p, false),
            None => (auth::new_secret()[..16].to_owned(), true),
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

pub fn run_token(c: TokenCommand) -> Result<ExitCode, String> {
    let TokenCommand::Create { name, scopes, description, database } = c;
    super::serve::runtime()?.block_on(async {
        let scopes: Vec<String> = match scopes {
            Some(s) => s.split(',').map(|x| x.trim().to_owned()).filter(|x| !x.is_empty()).collect(),
            None => auth::SCOPES.iter().map(|s| (*s).to_owned()).collect(),
        };
        if let Some(bad) = scopes.iter().find(|s| !auth::SCOPES.contains(&s.as_str())) {
            return Err(format!("unknown scope {bad:?}; known: {}", auth::SCOPES.join(", ")));
        }
        let store = connect(&database).await?;
        let user = store
            .user(&name.to_lowercase())
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no user named {name}"))?;
        let token = format!("gxp_{}", auth::new_secret());
        store
            .create_token(&auth::hash_secret(&token), &user.id, &description, &scopes, now_ms())
            .await
            .map_err(|e| e.to_string())?;
        println!("{token}");
        Ok(ExitCode::SUCCESS)
    })
}

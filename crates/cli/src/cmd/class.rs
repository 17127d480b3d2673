//! `guoxiang class create OWNER NAME`, `guoxiang class add-students ID N` and `guoxiang class list`: classes (课堂)
//! from the shell, for hosts, on the same database the server uses. `--json` prints what a script reads.

use std::process::ExitCode;

use guoxiang_server::auth;
use guoxiang_server::http::class as classes;
use guoxiang_store::Store;
use serde_json::json;

#[derive(clap::Subcommand, Debug)]
pub enum ClassCommand {
    /// Create a class taught by the account OWNER; prints its id (`{"id": …}` with --json).
    Create {
        owner: String,
        name: String,
        #[arg(long)]
        json: bool,
        #[arg(long, alias = "db", default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// Create N student accounts (1 to 60) in the class ID, with generated user names and passwords; prints them
    /// (`[{"username", "password"}]` with --json). The passwords are shown only this once.
    AddStudents {
        id: String,
        count: u32,
        #[arg(long)]
        json: bool,
        #[arg(long, alias = "db", default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
    /// List every class: id, teacher, students, name.
    List {
        #[arg(long)]
        json: bool,
        #[arg(long, alias = "db", default_value = "sqlite://guoxiang.db", env = "GUOXIANG_DATABASE")]
        database: String,
    },
}

fn now_ms() -> i64 {
    guoxiang_server::time::now_ms() as i64
}

async fn connect(url: &str) -> Result<Store, String> {
    Store::connect(url).await.map_err(|e| format!("database {url}: {e}"))
}

async fn create(owner: &str, name: &str, json: bool, database: &str) -> Result<ExitCode, String> {
    let store = connect(database).await?;
    let id = guoxiang_store::user_id_of(&auth::normalize_name(owner));
    let user = store.user(&id).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("no user named {owner}"))?;
    if user.is_guest {
        return Err(format!("{} is a guest; a teacher needs a registered account", user.name));
    }
    let name = classes::check_class_name(name).map_err(|e| e.en)?;
    let class_id = auth::new_secret()[..12].to_owned();
    let class = store.create_class(&class_id, &user.id, &name, now_ms()).await.map_err(|e| e.to_string())?;
    if json {
        println!("{}", json!({ "id": class.id }));
    } else {
        println!("created class {} ({}) taught by {}", class.id, class.name, user.name);
    }
    Ok(ExitCode::SUCCESS)
}

async fn add_students(id: &str, count: u32, json: bool, database: &str) -> Result<ExitCode, String> {
    if !(1..=classes::MAX_NEW_STUDENTS).contains(&count) {
        return Err(format!("N: between 1 and {} students at a time", classes::MAX_NEW_STUDENTS));
    }
    let store = connect(database).await?;
    let class = store.class(id).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("no class {id}"))?;
    let made = classes::create_students(&store, &class, count).await.map_err(|e| e.en)?;
    if json {
        let list: Vec<_> = made.iter().map(|(u, p)| json!({"username": u, "password": p})).collect();
        println!("{}", serde_json::Value::Array(list));
    } else {
        for (u, p) in &made {
            println!("{u}\t{p}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn list(json: bool, database: &str) -> Result<ExitCode, String> {
    let store = connect(database).await?;
    let all = store.all_classes().await.map_err(|e| e.to_string())?;
    if json {
        let list: Vec<_> = all
            .iter()
            .map(|s| {
                json!({"id": s.class.id, "name": s.class.name, "owner": s.class.owner_id, "students": s.students,
                       "join_code": s.class.join_code})
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
    } else {
        for s in &all {
            println!("{}\t{}\t{} students\t{}", s.class.id, s.class.owner_id, s.students, s.class.name);
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(c: ClassCommand) -> Result<ExitCode, String> {
    super::serve::runtime()?.block_on(async {
        match c {
            ClassCommand::Create { owner, name, json, database } => create(&owner, &name, json, &database).await,
            ClassCommand::AddStudents { id, count, json, database } => add_students(&id, count, json, &database).await,
            ClassCommand::List { json, database } => list(json, &database).await,
        }
    })
}

//! `guoxiang token create|list|revoke` on a real database file.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_guoxiang")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tokens_are_listed_and_revoked_from_the_shell() {
    let dir = std::env::temp_dir().join(format!("guoxiang-tokens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("t.db").display());
    assert_eq!(run(&["user", "add", "keeper", "--password", "keep-it-safe-9", "--database", &db]).0, 0);
    let (code, secret, err) = run(&["token", "create", "keeper", "--description", "my bot", "--database", &db]);
    assert_eq!(code, 0, "{err}");
    assert!(secret.trim().starts_with("gxp_"));
    assert_eq!(run(&["token", "create", "keeper", "--scopes", "board:play", "--database", &db]).0, 0);
    let (code, list, _) = run(&["token", "list", "keeper", "--database", &db]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "{list}");
    assert!(!list.contains(secret.trim()), "the secret is never listed");
    let bot = lines.iter().find(|l| l.ends_with("my bot")).expect("the described token is listed");
    let id = bot.split_whitespace().next().unwrap();
    let (code, out, _) = run(&["token", "revoke", "keeper", id, "--database", &db]);
    assert_eq!(code, 0, "{out}");
    let (_, list, _) = run(&["token", "list", "keeper", "--database", &db]);
    assert_eq!(list.lines().count(), 1, "{list}");
    assert!(!list.contains("my bot"));
    let (code, _, err) = run(&["token", "revoke", "keeper", id, "--database", &db]);
    assert_eq!(code, 1);
    assert!(err.contains("no token"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_account_is_made_an_administrator_and_back() {
    let dir = std::env::temp_dir().join(format!("gx-admin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("a.db").display());
    assert_eq!(run(&["user", "add", "arbiter1", "--password", "keep-it-safe-9", "--database", &db]).0, 0);
    let (code, out, err) = run(&["user", "admin", "arbiter1", "--database", &db]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "arbiter1 is now an administrator");
    let (code, out, _) = run(&["user", "admin", "arbiter1", "--revoke", "--database", &db]);
    assert_eq!((code, out.trim()), (0, "arbiter1 is no longer an administrator"));
    let (code, _, err) = run(&["user", "admin", "nobody", "--database", &db]);
    assert_eq!(code, 2);
    assert!(err.contains("no user named nobody"), "{err}");
}

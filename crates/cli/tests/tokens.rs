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

/// `guoxiang user password`: sets a checked password, ends every session of the account, prints a made one.
#[test]
fn a_password_is_set_from_the_shell_and_ends_the_sessions() {
    use guoxiang_server::auth::{hash_secret, verify_password};
    let dir = std::env::temp_dir().join(format!("gx-password-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("p.db").display());
    assert_eq!(run(&["user", "add", "forgetful", "--password", "keep-it-safe-9", "--database", &db]).0, 0);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let store = || async { guoxiang_store::Store::connect(&db).await.unwrap() };
    let far = i64::MAX / 2;
    rt.block_on(async {
        let s = store().await;
        s.create_session(&hash_secret("one"), "forgetful", 0, far).await.unwrap();
        s.create_session(&hash_secret("two"), "forgetful", 0, far).await.unwrap();
        s.close().await;
    });
    let stored_hash = || {
        rt.block_on(async {
            let s = store().await;
            let h = s.user("forgetful").await.unwrap().unwrap().password_hash.unwrap();
            s.close().await;
            h
        })
    };

    let (code, out, err) = run(&["user", "password", "Forgetful", "--password", "rook lift to h3", "--database", &db]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "set the password of forgetful; 2 sessions ended");
    assert!(verify_password("rook lift to h3", &stored_hash()) && !verify_password("keep-it-safe-9", &stored_hash()));
    rt.block_on(async {
        let s = store().await;
        assert_eq!(s.session_user(&hash_secret("one"), 1, far).await.unwrap(), None);
        assert_eq!(s.session_user(&hash_secret("two"), 1, far).await.unwrap(), None);
        s.close().await;
    });

    // Without --password one is made and printed.
    let (code, out, err) = run(&["user", "password", "forgetful", "--database", &db]);
    assert_eq!(code, 0, "{err}");
    let made = out.lines().find_map(|l| l.strip_prefix("password: ")).expect("the made password is printed");
    assert!(made.len() >= 16 && verify_password(made, &stored_hash()), "{out}");

    // Checked as the site checks a new password; an unknown account is said so.
    let (code, _, err) = run(&["user", "password", "forgetful", "--password", "password1", "--database", &db]);
    assert_eq!(code, 2);
    assert!(err.contains("common"), "{err}");
    assert!(verify_password(made, &stored_hash()), "a refused password changes nothing");
    let (code, _, err) = run(&["user", "password", "nobody", "--password", "rook lift to h3", "--database", &db]);
    assert_eq!(code, 2);
    assert!(err.contains("no user named nobody"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `guoxiang serve --session-idle-days N` takes 1 to 30 days (every session ends after 30 days anyway).
#[test]
fn the_session_idle_limit_is_one_to_thirty_days() {
    for bad in ["0", "31", "week"] {
        let (code, _, err) = run(&["serve", "--session-idle-days", bad, "--database", "sqlite:///nonexistent/x.db"]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--session-idle-days"), "{bad}: {err}");
    }
}

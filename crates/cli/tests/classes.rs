//! `guoxiang class create|add-students|list` on a real database file (issue 42), and the serve flags of classes.

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
fn a_host_makes_a_class_of_students_from_the_shell() {
    let dir = std::env::temp_dir().join(format!("guoxiang-classes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("c.db").display());
    assert_eq!(run(&["user", "add", "MsLi", "--password", "keep-it-safe-9", "--database", &db]).0, 0);
    let (code, out, err) = run(&["class", "create", "msli", "三年级二班", "--json", "--db", &db]);
    assert_eq!(code, 0, "{err}");
    let created: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let (code, out, err) = run(&["class", "add-students", &id, "3", "--json", "--database", &db]);
    assert_eq!(code, 0, "{err}");
    let cards: Vec<serde_json::Value> = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(cards.len(), 3, "{out}");
    for c in &cards {
        let (u, p) = (c["username"].as_str().unwrap(), c["password"].as_str().unwrap());
        assert!(u.is_ascii() && p.len() >= 8, "{c}");
    }
    let (code, out, _) = run(&["class", "list", "--json", "--db", &db]);
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(list[0]["id"], created["id"]);
    assert_eq!(
        (list[0]["name"].as_str(), list[0]["owner"].as_str(), list[0]["students"].as_i64()),
        (Some("三年级二班"), Some("msli"), Some(3))
    );
    let (code, out, _) = run(&["class", "list", "--db", &db]);
    assert_eq!(code, 0);
    assert!(out.contains(&id) && out.contains("3 students"), "{out}");
    // Mistakes name what is wrong.
    let (code, _, err) = run(&["class", "create", "nobody", "A", "--db", &db]);
    assert_ne!(code, 0);
    assert!(err.contains("no user named nobody"), "{err}");
    let (code, _, err) = run(&["class", "add-students", &id, "61", "--db", &db]);
    assert_ne!(code, 0);
    assert!(err.contains("between 1 and 60"), "{err}");
    let (code, _, err) = run(&["class", "add-students", "nope", "2", "--db", &db]);
    assert_ne!(code, 0);
    assert!(err.contains("no class nope"), "{err}");
    let (code, _, err) = run(&["class", "create", "msli", "   ", "--db", &db]);
    assert_ne!(code, 0);
    assert!(err.contains("name"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_class_flags_of_serve_are_checked() {
    for (flag, value) in [("--teachers", "everybody"), ("--login-limit", "0"), ("--signup-limit", "none")] {
        let (code, _, err) = run(&["serve", flag, value, "--addr", "127.0.0.1:0", "--database", "sqlite::memory:"]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag}: {err}");
    }
}

//! `guoxiang serve`'s flags for a host behind a proxy and for its figures (issue 41): a bad value stops the start with
//! a message naming the flag and the value; the figures are closed unless a flag opens them.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Output};

fn serve(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = std::env::temp_dir().join(format!("guoxiang-serve-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("never.db").display());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_guoxiang"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--database", &db]).args(args);
    for var in ["GUOXIANG_TRUSTED_PROXY", "GUOXIANG_METRICS_TOKEN"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied()).output().unwrap()
}

/// The refusal to start: the process failed and said why on stderr.
fn refused(o: &Output) -> String {
    assert!(!o.status.success(), "it started: {}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_bad_trusted_proxy_stops_the_start_naming_the_flag_and_the_value() {
    let e = refused(&serve(&["--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "10.0.0/8"], &[]));
    assert!(e.contains("--trusted-proxy") && e.contains("10.0.0/8"), "{e}");
    // The variable is a comma-separated list, read the same way.
    let e = refused(&serve(&[], &[("GUOXIANG_TRUSTED_PROXY", "127.0.0.1/32, bogus")]));
    assert!(e.contains("--trusted-proxy") && e.contains("bogus"), "{e}");
}

#[test]
fn a_short_metrics_token_stops_the_start() {
    let e = refused(&serve(&["--metrics-token", "short"], &[]));
    assert!(e.contains("--metrics-token") && e.contains("16"), "{e}");
}

fn status(port: u16, path: &str, token: Option<&str>) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}Connection: close\r\n\r\n").unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    r.lines().next().unwrap_or_default().to_owned()
}

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("guoxiang-serve-flags-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("g.db").display())
}

#[test]
fn the_figures_are_closed_unless_a_flag_opens_them() {
    let (port, _server) = common::start(&temp_db("closed"));
    assert!(status(port, "/metrics", None).contains(" 403 "));
    assert!(status(port, "/healthz", None).contains(" 200 "));
    let (port, _server) = common::start_with(&temp_db("public"), &["--metrics-public"]);
    assert!(status(port, "/metrics", None).contains(" 200 "));
    let token = "0123456789abcdef0123";
    let (port, _server) = common::start_with(&temp_db("token"), &["--metrics-token", token]);
    assert!(status(port, "/metrics", None).contains(" 401 "));
    assert!(status(port, "/api/server/stats", Some(token)).contains(" 200 "));
}

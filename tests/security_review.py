"""The security review of issue 41, re-run against the real server: each hole it found and the basics it found sound.

A real `guoxiang serve` on a loopback port with a fresh SQLite file, started as docs/deploy.md says a host behind a
proxy starts it (`--trusted-proxy 127.0.0.1/32`, `--metrics-token`), accounts and tokens made with the CLI, and
every probe made over HTTP (requests) or the WebSocket (websockets). Each probe prints a line; at the end a Markdown
table (what was tried, what the server must do, what it did) and the number of HTTP requests and WebSocket messages
sent — docs/security.md shows that table. Exit status 1 if any probe found a hole.

Requirements: requests, websockets (tests/requirements.txt).

Usage: python3 tests/security_review.py [path/to/guoxiang]   (default: $GUOXIANG_BIN, else target/release/guoxiang)
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import requests
from websockets.sync.client import connect

# The wire protocol's version, as the protocol crate declares it (the server refuses any other in `hello`).
PROTOCOL = int(
    re.search(
        r"pub const PROTOCOL_VERSION: u32 = (\d+);",
        open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "protocol", "src", "lib.rs"),
             encoding="utf-8").read(),
    ).group(1)
)
METRICS_TOKEN = "metrics-" + os.urandom(8).hex()
rows = []
counts = {"http": 0, "ws": 0}


def probe(area, tried, must, ok, got):
    rows.append((area, tried, must, "yes" if ok else "**NO**", got))
    print(("ok:   " if ok else "FAIL: ") + f"{area}: {tried} → {got}", flush=True)


class Site:
    def __init__(self, base):
        self.base = base

    def call(self, method, path, *, session=None, bearer=None, body=None, headers=None):
        h = dict(headers or {})
        if session:
            h["Cookie"] = f"gx_session={session}"
        if bearer:
            h["Authorization"] = f"Bearer {bearer}"
        if body is not None:
            h["Content-Type"] = "application/json"
        counts["http"] += 1
        r = requests.request(method, self.base + path, headers=h, timeout=30,
                             data=None if body is None else json.dumps(body))
        try:
            j = r.json()
        except ValueError:
            j = None
        return r, j

    def register(self, name, password):
        r, j = self.call("POST", "/api/register", body={"username": name, "password": password})
        assert r.status_code == 200, (name, r.status_code, r.text)
        return j["session"]

    def token(self, session, scopes):
        r, j = self.call("POST", "/api/token", session=session, body={"description": "review", "scopes": scopes})
        assert r.status_code == 200, r.text
        return j["token"]


class Ws:
    def __init__(self, port, *, session=None, bearer=None, origin=None):
        headers = {}
        if session:
            headers["Cookie"] = f"gx_session={session}"
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        self.c = connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers, origin=origin, open_timeout=10)
        self.n = 0
        hello = self.ask({"t": "hello", "protocol": PROTOCOL, "lang": "en"})
        assert hello["t"] == "hello", hello

    def ask(self, msg):
        self.n += 1
        msg = {**msg, "id": self.n}
        counts["ws"] += 1
        self.c.send(json.dumps(msg))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            f = json.loads(self.c.recv(timeout=15))
            if f.get("id") == self.n and f["t"] not in ("game_events", "game_snapshot"):
                return f
        raise TimeoutError(msg)

    def close(self):
        self.c.close()


def code_of(r, j):
    return f"{r.status_code} {(j or {}).get('code', '')}".strip()


def scopes_everywhere(site, port, s):
    none = site.token(s["petr"], [])
    pref = site.token(s["root"], ["preference:read"])
    w = Ws(port, bearer=none)
    a = w.ask({"t": "challenge_friend", "time_control": "300+0", "rated": True, "color": "white"})
    probe("scopes", "a token with no scope sends a rated challenge over `/ws`", "refuse (`missing_scope`)",
          a.get("code") == "missing_scope", a.get("code") or a["t"])
    a = w.ask({"t": "create_seek", "time_control": "300+0", "rated": True, "color": "random"})
    probe("scopes", "the same token seeks a game over `/ws`", "refuse", a.get("code") == "missing_scope",
          a.get("code") or a["t"])
    w.close()
    w = Ws(port, bearer=pref)
    a = w.ask({"t": "arbiter", "game_id": "zzzzzzzz", "act": {"t": "add_time", "color": "white", "ms": 60000}})
    probe("scopes", "an administrator's `preference:read` token adds time as arbiter over `/ws`", "refuse",
          a.get("code") == "missing_scope", a.get("code") or a["t"])
    w.close()
    for method, path, body in [("POST", "/api/tournaments", {"name": "x"}), ("PUT", "/api/learn/progress", {}),
                               ("PUT", "/api/review/settings", {})]:
        r, j = site.call(method, path, bearer=pref, body=body)
        probe("scopes", f"`preference:read` token: `{method} {path}`", "403 `missing_scope`",
              r.status_code == 403 and j.get("code") == "missing_scope", code_of(r, j))
    r, j = site.call("POST", "/api/challenge/open", bearer=none, body={})
    probe("scopes", "no-scope token: `POST /api/challenge/open`", "403 `missing_scope`",
          r.status_code == 403 and j.get("code") == "missing_scope", code_of(r, j))
    r, j = site.call("POST", "/api/token", bearer=pref, body={"scopes": ["board:play"]})
    probe("scopes", "a token mints another token", "403", r.status_code == 403, code_of(r, j))
    play = site.token(s["petr"], ["board:play"])
    w = Ws(port, bearer=play)
    a = w.ask({"t": "challenge_friend", "time_control": "300+0", "rated": False, "color": "white"})
    probe("scopes", "a `board:play` token challenges over `/ws`", "allow (as Lichess)",
          a["t"] == "challenge_created", a.get("code") or a["t"])
    w.close()


def conflicts(site, s):
    body = {"name": "Olga's Swiss", "system": "swiss", "mode": "online", "presence_check": False,
            "time_control": "300+3", "rated": False, "rounds": 1}
    r, j = site.call("POST", "/api/tournaments", session=s["olga"], body=body)
    tid = j["id"]
    for who in ("olga", "petr"):
        site.call("POST", f"/api/tournament/{tid}/join", session=s[who])
    r, j = site.call("POST", f"/api/tournament/{tid}/start", session=s["olga"])
    r, j = site.call("POST", f"/api/tournament/{tid}/result", session=s["olga"],
                     body={"round": 1, "board": 1, "result": "1-0"})
    probe("conflicts", "the organiser, playing board 1, sets it 1-0 before a move", "403",
          r.status_code == 403, code_of(r, j))
    r, j = site.call("POST", "/api/tournaments", session=s["olga"], body={**body, "rated": True, "name": "Rated"})
    probe("conflicts", "a plain user creates a rated tournament", "403 (admins only by default)",
          r.status_code == 403, code_of(r, j))
    r, j = site.call("POST", "/api/tournaments", session=s["root"], body={**body, "rated": True, "name": "Rated"})
    probe("conflicts", "an administrator creates a rated tournament", "allow", r.status_code in (200, 201),
          code_of(r, j))


def proxies(site, s):
    # An address's limit counts the accounts that failed from it (issue 42): ten names, each failing once.
    bad = {"username": "Petr", "password": "wrong password 1"}
    codes = []
    for i in range(10):
        body = {"username": f"Petr{i}", "password": "wrong password 1"}
        r, _ = site.call("POST", "/api/login", body=body, headers={"X-Forwarded-For": "203.0.113.5"})
        codes.append(r.status_code)
    r, j = site.call("POST", "/api/login", body={"username": "Olga", "password": "olga-pass-2026"},
                     headers={"X-Forwarded-For": "203.0.113.9"})
    probe("proxies", "ten wrong logins from 203.0.113.5 (through the proxy), then a right one from 203.0.113.9",
          "the right one passes", r.status_code == 200, f"{codes.count(401)}×401, then {r.status_code}")
    r, j = site.call("POST", "/api/login", body=bad, headers={"X-Forwarded-For": "203.0.113.5"})
    probe("proxies", "an eleventh from 203.0.113.5", "429", r.status_code == 429, code_of(r, j))
    r, j = site.call("POST", "/api/login", body=bad, headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.5"})
    probe("proxies", "the same client puts a made-up address first in `X-Forwarded-For`", "still 429",
          r.status_code == 429, code_of(r, j))


def passwords(site, s):
    first = s["vera"]
    r, j = site.call("POST", "/api/login", body={"username": "Vera", "password": "vera-pass-2026"})
    second = j["session"]
    r, j = site.call("POST", "/api/account/password", session=first,
                     body={"current": "vera-pass-2026", "new": "a new one for Vera 7"})
    probe("passwords", "change the password", "200, `Cache-Control: no-store`",
          r.status_code == 200 and "no-store" in r.headers.get("Cache-Control", ""),
          f"{r.status_code}, {r.headers.get('Cache-Control')}")
    r, j = site.call("GET", "/api/me", session=second)
    probe("passwords", "the other session after the change", "401", r.status_code == 401, code_of(r, j))
    r, j = site.call("GET", "/api/me", session=first)
    probe("passwords", "the session that changed it", "still signed in", r.status_code == 200, code_of(r, j))
    r, j = site.call("POST", "/api/login", body={"username": "Vera", "password": "vera-pass-2026"})
    probe("passwords", "the old password", "refused", r.status_code == 401, code_of(r, j))
    r, j = site.call("POST", "/api/register", body={"username": "Wu", "password": "password123"})
    probe("passwords", "sign up with `password123`", "400 (a common password)", r.status_code == 400,
          code_of(r, j))
    for method, path, body in [("POST", "/api/guest", None),
                               ("POST", "/api/login", {"username": "Vera", "password": "a new one for Vera 7"})]:
        r, j = site.call(method, path, body=body)
        probe("passwords", f"`{method} {path}` (its answer holds a session)", "`Cache-Control: no-store`",
              "no-store" in r.headers.get("Cache-Control", ""), r.headers.get("Cache-Control"))
    r, j = site.call("POST", "/api/logout/all", session=first)
    r2, j2 = site.call("GET", "/api/me", session=first)
    probe("passwords", "sign out everywhere", "every session ends", r.status_code == 200 and r2.status_code == 401,
          f"{r.status_code}, then {r2.status_code}")


def free_text(site, s):
    r, j = site.call("POST", "/api/tournaments", session=s["olga"],
                     body={"name": "Club\nnight", "system": "round_robin", "mode": "otb", "time_control": "-",
                           "rated": False})
    tid = (j or {}).get("id")
    if tid is None:
        r, j = site.call("POST", "/api/tournaments", session=s["olga"],
                         body={"name": "Club night", "system": "round_robin", "mode": "otb", "time_control": "-",
                               "rated": False})
        tid = j["id"]
    for name in ["Li\nLei", "Han Meimei", "Wang Fang"]:
        site.call("POST", f"/api/tournament/{tid}/player", session=s["olga"], body={"name": name})
    r, _ = site.call("GET", f"/api/tournament/{tid}/trf")
    lines = r.text.splitlines()
    players = [line for line in lines if line.startswith("001")]
    probe("free text", "a player named `Li\\nLei` (a newline), then the TRF export",
          "no line split: every line a known record", all(line[:3].isdigit() or line[:3].isupper()
                                                          for line in lines if line) and len(players) <= 3,
          f"{len(lines)} lines, {len(players)} player records")


def headers_and_basics(site, port, s):
    r, _ = site.call("GET", "/")
    csp = r.headers.get("Content-Security-Policy", "")
    connect_src = next((d for d in csp.split(";") if d.strip().startswith("connect-src")), "")
    probe("basics", "CSP `connect-src` of the page", "this site only, no bare `ws:`/`wss:`",
          " ws: " not in connect_src + " " and " wss: " not in connect_src + " " and "'self'" in connect_src,
          connect_src.strip())
    r, j = site.call("POST", "/api/logout", session=s["petr"], headers={"Origin": "https://evil.example"})
    probe("basics", "a cross-site `POST /api/logout` with the cookie", "403 `forbidden_origin`",
          r.status_code == 403, code_of(r, j))
    try:
        Ws(port, session=s["petr"], origin="https://evil.example")
        ok, got = False, "opened"
    except Exception as e:  # noqa: BLE001 - a refused handshake is what we want
        ok, got = True, type(e).__name__
    probe("basics", "a WebSocket from another site's page with the cookie", "refused", ok, got)
    r, j = site.call("POST", "/api/register", body={"username": "x' OR '1'='1", "password": "whatever it is 9"})
    probe("basics", "a user name with SQL in it", "400, not 500", r.status_code == 400, code_of(r, j))
    for p in ["/metrics", "/api/server/stats"]:
        r, j = site.call("GET", p)
        r2, _ = site.call("GET", p, bearer=METRICS_TOKEN)
        probe("metrics", f"`GET {p}` without, then with the metrics token", "refused, then 200",
              r.status_code in (401, 403, 404) and r2.status_code == 200, f"{r.status_code}, then {r2.status_code}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GUOXIANG_BIN", "target/release/guoxiang")
    binary = os.path.abspath(path)
    tmp = tempfile.mkdtemp(prefix="guoxiang-security-")
    db = f"sqlite://{tmp}/x.db"
    with socket.socket() as so:
        so.bind(("127.0.0.1", 0))
        port = so.getsockname()[1]
    log = open(os.path.join(tmp, "server.log"), "w+")
    subprocess.run([binary, "user", "add", "Root", "--password", "root-pass-2026", "--admin", "--database", db],
                   check=True, capture_output=True)
    server = subprocess.Popen(
        [binary, "serve", "--addr", f"127.0.0.1:{port}", "--database", db, "--engine-workers", "1",
         "--trusted-proxy", "127.0.0.1/32", "--metrics-token", METRICS_TOKEN],
        stdout=log, stderr=subprocess.STDOUT)
    site = Site(f"http://127.0.0.1:{port}")
    status = 1
    try:
        for _ in range(300):
            try:
                if requests.get(site.base + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.1)
        r, j = site.call("POST", "/api/login", body={"username": "Root", "password": "root-pass-2026"})
        s = {"root": j["session"]}
        for name in ["Olga", "Petr", "Vera"]:
            s[name.lower()] = site.register(name, f"{name.lower()}-pass-2026")
        scopes_everywhere(site, port, s)
        conflicts(site, s)
        passwords(site, s)
        free_text(site, s)
        headers_and_basics(site, port, s)
        proxies(site, s)
        print("\n| area | tried | the server must | held | what it did |\n|---|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        held = sum(1 for r in rows if r[3] == "yes")
        print(f"\n{held} of {len(rows)} probes held; {counts['http']} HTTP requests, {counts['ws']} WebSocket "
              "messages (after the handshakes)")
        status = 0 if held == len(rows) else 1
    finally:
        server.kill()
        server.wait(timeout=10)
        if status != 0:
            log.seek(0)
            print("--- server log (tail) ---\n" + log.read()[-3000:])
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()

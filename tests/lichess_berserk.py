#!/usr/bin/env python3
"""Checks the Lichess-compatible HTTP API with berserk, the Lichess Python client, against the real server binary.

Requirements (pinned in tests/requirements.txt): berserk 0.14.0; python-chess 1.11.2 (optional: if installed, the
exported PGN is read back and the computer's move is checked for legality).

Usage: python3 tests/lichess_berserk.py [path/to/guoxiang]
       (default: $GUOXIANG_BIN, else target/release/guoxiang)

Starts `guoxiang serve` on a free port with a fresh SQLite database (or, with GUOXIANG_SERVER_TEST_DB=postgres, a
fresh schema on the PostgreSQL of $GUOXIANG_TEST_POSTGRES), creates users and API tokens with
`guoxiang user add` / `guoxiang token create`, and then drives the server only through berserk (plus two raw
requests where berserk has no parameter: a move with `offeringDraw=true`, and an anonymous request): the account;
challenges (to a user, accepted on the event stream; declined; cancelled; open; to the AI); a game played on the
board API to fool's mate with a draw offer declined on the way; an aborted game; a takeback in a casual game; a board
seek pairing two users; a bot account playing through the bot API; scopes (403 without `board:play`, 401 without a
token); game export as JSON and PGN; the daily puzzle and a puzzle by id; token test and users' status. Every check prints a line; the first
failure stops the run with exit status 1.
The server is killed at the end either way; everything has a timeout, so a hang fails instead of blocking.
"""

import io
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import berserk
import requests

try:
    import chess
    import chess.pgn
except ImportError:  # python-chess is optional
    chess = None

WAIT = 15  # seconds to wait for any one thing
WATCHDOG = 300  # seconds for the whole run


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)
    print("ok:", what, flush=True)


class Stream:
    """Reads a berserk stream (a generator) in a thread; `wait` returns the first unseen item matching a predicate."""

    END = object()

    def __init__(self, name, gen):
        self.name = name
        self.q = queue.Queue()
        self.seen = []  # items read but not yet taken
        self.ended = False
        self.thread = threading.Thread(target=self._run, args=(gen,), daemon=True)
        self.thread.start()

    def _run(self, gen):
        try:
            for item in gen:
                self.q.put(item)
        except Exception as e:  # noqa: BLE001 - reported to the waiting side
            self.q.put(e)
        self.q.put(Stream.END)

    def wait(self, pred, what, timeout=WAIT):
        for i, item in enumerate(self.seen):
            if pred(item):
                return self.seen.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.ended:
                raise Failed(f"{self.name}: no {what} within {timeout} s (ended: {self.ended}; unmatched: {self.seen})")
            try:
                item = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if item is Stream.END:
                self.ended = True
                continue
            if isinstance(item, Exception):
                raise Failed(f"{self.name}: stream failed: {item!r}")
            if pred(item):
                return item
            self.seen.append(item)

    def wait_end(self, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while not self.ended:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failed(f"{self.name}: did not end ({what}) within {timeout} s")
            try:
                item = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if item is Stream.END:
                self.ended = True
            elif not isinstance(item, Exception):
                self.seen.append(item)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_binary():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GUOXIANG_BIN", "target/release/guoxiang")
    if not os.path.exists(path):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = os.path.join(root, path)
    if not os.path.exists(path):
        print(f"no server binary at {path}: build it (cargo build --release -p guoxiang) or pass its path")
        sys.exit(2)
    return os.path.abspath(path)


def run(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise Failed(f"guoxiang {' '.join(args)} failed: {r.stderr.strip()}")
    return r.stdout.strip()


def is_game(kind, gid):
    return lambda e: e.get("type") == kind and e.get("game", {}).get("gameId") == gid


def is_state(pred):
    return lambda e: e.get("type") == "gameState" and pred(e)


def moves_are(moves):
    return is_state(lambda s: s["moves"] == moves)


class Env:
    def __init__(self, binary, base, tokens):
        self.binary = binary
        self.base = base
        self.tokens = tokens
        self.clients = {name: self.client(tok) for name, tok in tokens.items()}

    def client(self, token):
        return berserk.Client(session=berserk.TokenSession(token), base_url=self.base)

    def auth(self, who):
        return {"Authorization": f"Bearer {self.tokens[who]}"}

    def raw_post(self, who, path):
        return requests.post(self.base + path, headers=self.auth(who), timeout=WAIT)


def expect_error(status, what, f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == status, f"{what}: HTTP {e.status_code} (want {status}): {e.cause}")
        return e
    raise Failed(f"{what}: succeeded, wanted HTTP {status}")


def start_game(env, events, challenger, dest, **params):
    """`challenger` challenges `dest` (both user names), `dest` accepts on its event stream; returns the game id."""
    c = env.clients[challenger].challenges.create(dest, **params)
    cid = c["id"]
    ev = events[dest].wait(lambda e: e.get("type") == "challenge" and e["challenge"]["id"] == cid, "challenge")
    env.clients[dest].challenges.accept(cid)
    start = events[dest].wait(lambda e: e.get("type") == "gameStart", "gameStart")
    gid = start["game"]["gameId"]
    check(gid == cid, f"the game takes the challenge's id ({cid}), as on Lichess")
    events[challenger].wait(is_game("gameStart", gid), "gameStart")
    return gid, c, ev, start


def scenario(env):
    alice, bob, robo = env.clients["Alice"], env.clients["Bob"], env.clients["Robo"]

    # Accounts and scopes.
    acc = alice.account.get()
    check(acc["id"] == "alice" and acc["username"] == "Alice", "account.get: id and username")
    check(isinstance(acc.get("perfs"), dict) and "createdAt" in acc, "account.get: perfs and createdAt")
    # lichess-bot's first call: the token's user and scopes; an unknown token is null.
    tested = alice.oauth.test_tokens(env.tokens["Robo"], "not-a-token")
    robo_token = tested.get(env.tokens["Robo"]) or {}
    check(robo_token.get("userId") == "robo" and "bot:play" in robo_token.get("scopes", "").split(",")
          and tested.get("not-a-token", 1) is None, "oauth.test_tokens: user and scopes, null when unknown")
    statuses = alice.users.get_realtime_statuses("Alice", "Bob", "nobody")
    check([s.get("id") for s in statuses] == ["alice", "bob"] and all(s.get("name") for s in statuses),
          "users.get_realtime_statuses: id and name, unknown users left out")
    r = requests.get(env.base + "/api/account", timeout=WAIT)
    check(r.status_code == 401 and "error" in r.json(), "no token: 401 with an error")
    r = requests.get(env.base + "/api/account", headers={"Authorization": "Bearer nonsense"}, timeout=WAIT)
    check(r.status_code == 401, "invalid token: 401")

    events = {
        "Alice": Stream("alice events", alice.board.stream_incoming_events()),
        "Bob": Stream("bob events", bob.board.stream_incoming_events()),
        "Robo": Stream("robo events", robo.bots.stream_incoming_events()),
    }
    time.sleep(0.3)  # let the streams connect

    # A challenge, seen on the event stream, listed, accepted; then fool's mate on the board API.
    c = alice.challenges.create("Bob", rated=True, clock_limit=300, clock_increment=3, color="white")
    check(c["status"] == "created" and c["destUser"]["id"] == "bob" and c["challenger"]["id"] == "alice",
          "challenges.create: a challenge to bob")
    check(c["timeControl"] == {"type": "clock", "limit": 300, "increment": 3, "show": "5+3"} and c["speed"] == "blitz",
          "challenge: time control 5+3, blitz")
    ev = events["Bob"].wait(lambda e: e.get("type") == "challenge" and e["challenge"]["id"] == c["id"], "challenge")
    check(ev["challenge"]["direction"] == "in" and ev["challenge"]["rated"] is True, "bob's event stream: challenge in")
    late = Stream("bob events 2", bob.board.stream_incoming_events())
    ev = late.wait(lambda e: e.get("type") == "challenge", "challenge")
    check(ev["challenge"]["id"] == c["id"], "a new event stream starts with the pending incoming challenge")
    mine = bob.challenges.get_mine()
    check([x["id"] for x in mine["in"]] == [c["id"]] and mine["out"] == [], "challenges.get_mine: in and out")
    bob.challenges.accept(c["id"])
    start = events["Bob"].wait(lambda e: e.get("type") == "gameStart", "gameStart")
    g = start["game"]
    gid = g["gameId"]
    check(g["color"] == "black" and g["opponent"]["id"] == "alice" and g["isMyTurn"] is False and g["rated"] is True,
          "bob's gameStart: black, opponent alice, not his turn")
    a_start = events["Alice"].wait(is_game("gameStart", gid), "gameStart")["game"]
    check(a_start["color"] == "white" and a_start["isMyTurn"] is True, "alice's gameStart: white, her turn")
    late = Stream("alice events 2", alice.board.stream_incoming_events())
    late.wait(is_game("gameStart", gid), "gameStart")
    check(True, "a new event stream starts with the game in progress")
    playing = alice.games.get_ongoing()
    check([x["gameId"] for x in playing] == [gid], "account/playing lists the game")

    a_game = Stream("alice game", alice.board.stream_game_state(gid))
    b_game = Stream("bob game", bob.board.stream_game_state(gid))
    full = a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    check(full["id"] == gid and full["white"]["id"] == "alice" and full["black"]["id"] == "bob"
          and full["initialFen"] == "startpos" and full["clock"] == {"initial": 300000, "increment": 3000}
          and full["state"]["moves"] == "" and full["state"]["status"] == "started", "gameFull")
    b_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")

    alice.board.make_move(gid, "f2f3")
    for s in (a_game, b_game):
        s.wait(moves_are("f2f3"), "gameState f2f3")
    check(True, "make_move f2f3: both streams have it")
    r = env.raw_post("Bob", f"/api/board/game/{gid}/move/e7e5?offeringDraw=true")
    check(r.status_code == 200 and r.json() == {"ok": True}, "move e7e5 with offeringDraw=true: ok")
    st = a_game.wait(moves_are("f2f3 e7e5"), "gameState e7e5")
    check(st.get("bdraw") is True and not st.get("wdraw"), "gameState: black offers a draw (bdraw)")
    alice.board.handle_draw_offer(gid, False)
    st = b_game.wait(is_state(lambda s: s["moves"] == "f2f3 e7e5" and not s.get("bdraw")), "draw declined")
    check(st["status"] == "started", "handle_draw_offer(False): the offer is gone, the game goes on")
    expect_error(400, "a move out of turn", bob.board.make_move, gid, "d7d5")
    expect_error(400, "an illegal move", alice.board.make_move, gid, "e1e3")
    alice.board.make_move(gid, "g2g4")
    a_game.wait(moves_are("f2f3 e7e5 g2g4"), "gameState g2g4")
    # Anyone may follow the moves (no token), three moves late while the game goes on.
    watcher = Stream("watcher", berserk.Client(base_url=env.base).games.stream_game_moves(gid))
    d = watcher.wait(lambda e: "id" in e, "the game's description")
    check(d["id"] == gid and d["turns"] == 0 and "lastMove" not in d and d["player"] == "white"
          and d["source"] == "friend" and d["players"]["white"]["user"]["id"] == "alice"
          and isinstance(d["players"]["black"]["rating"], int) and d["status"]["name"] == "started",
          "games.stream_game_moves: the description, three moves late (3 played, 0 shown)")
    start_entry = watcher.wait(lambda e: "wc" in e, "the start position")
    check(start_entry["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w" and "lm" not in start_entry
          and start_entry["wc"] == 300, f"stream_game_moves: the start, clocks in seconds ({start_entry})")
    bob.board.make_move(gid, "d8h4")
    shown = [watcher.wait(lambda e: e.get("lm") == m, f"the move {m}")["lm"]
             for m in ("f2f3", "e7e5", "g2g4", "d8h4")]
    final = watcher.wait(lambda e: "id" in e, "the final description")
    check(shown == ["f2f3", "e7e5", "g2g4", "d8h4"] and final["status"]["name"] == "mate"
          and final["winner"] == "black" and final["turns"] == 4 and final["lastMove"] == "d8h4",
          "stream_game_moves: once over, the rest of the moves and the final description")
    watcher.wait_end("after the final description")
    for name, s in (("alice", a_game), ("bob", b_game)):
        st = s.wait(moves_are("f2f3 e7e5 g2g4 d8h4"), "final gameState")
        check(st["status"] == "mate" and st["winner"] == "black", f"{name}'s stream: status mate, winner black")
        s.wait_end("after mate")
    check(True, "the game streams end with the game")
    fin = events["Alice"].wait(is_game("gameFinish", gid), "gameFinish")["game"]
    check(fin["status"]["name"] == "mate" and fin.get("winner") == "black", "alice's gameFinish: mate, black won")
    fool = gid

    # A declined and a cancelled challenge.
    c = alice.challenges.create("Bob", rated=False, clock_limit=600, clock_increment=0)
    events["Bob"].wait(lambda e: e.get("type") == "challenge" and e["challenge"]["id"] == c["id"], "challenge")
    bob.challenges.decline(c["id"], reason="later")
    ev = events["Alice"].wait(lambda e: e.get("type") == "challengeDeclined", "challengeDeclined")
    check(ev["challenge"]["id"] == c["id"] and ev["challenge"]["declineReasonKey"] == "later",
          "challenges.decline: alice gets challengeDeclined (later)")
    c = alice.challenges.create("Bob", rated=False, days=3)
    check(c["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}, "a correspondence challenge (days=3)")
    events["Bob"].wait(lambda e: e.get("type") == "challenge" and e["challenge"]["id"] == c["id"], "challenge")
    alice.challenges.cancel(c["id"])
    ev = events["Bob"].wait(lambda e: e.get("type") == "challengeCanceled", "challengeCanceled")
    check(ev["challenge"]["id"] == c["id"], "challenges.cancel: bob gets challengeCanceled")
    expect_error(404, "accepting a challenge that does not exist", bob.challenges.accept, "nonexist")

    # Abort a fresh game.
    gid, _, _, _ = start_game(env, events, "Alice", "Bob", rated=False, clock_limit=300, clock_increment=0)
    b_game = Stream("bob game 2", bob.board.stream_game_state(gid))
    b_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    alice.board.abort_game(gid)
    st = b_game.wait(is_state(lambda s: s["status"] == "aborted"), "aborted state")
    check(st["moves"] == "", "abort_game: bob's stream says aborted")
    fin = events["Bob"].wait(is_game("gameFinish", gid), "gameFinish")["game"]
    check(fin["status"]["name"] == "aborted", "bob's gameFinish: aborted")

    # A takeback in a casual game, then a resignation.
    gid, _, _, _ = start_game(env, events, "Bob", "Alice", rated=False, clock_limit=600, clock_increment=5,
                              color="black")
    a_game = Stream("alice game 3", alice.board.stream_game_state(gid))
    b_game = Stream("bob game 3", bob.board.stream_game_state(gid))
    full = a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    check(full["white"]["id"] == "alice" and full["rated"] is False, "color=black: the challenged plays white")
    # Bob's stream must be open before the move, or the move arrives inside his gameFull, not as a gameState.
    b_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    alice.board.make_move(gid, "e2e4")
    b_game.wait(moves_are("e2e4"), "e2e4")
    bob.board.make_move(gid, "e7e5")
    a_game.wait(moves_are("e2e4 e7e5"), "e7e5")
    bob.board.offer_takeback(gid)
    st = a_game.wait(is_state(lambda s: s.get("btakeback") is True), "takeback offer")
    check(st["moves"] == "e2e4 e7e5", "offer_takeback: alice sees btakeback")
    alice.board.accept_takeback(gid)
    st = b_game.wait(moves_are("e2e4"), "after the takeback")
    check(not st.get("btakeback"), "accept_takeback: e7e5 is taken back")
    bob.board.make_move(gid, "c7c5")
    a_game.wait(moves_are("e2e4 c7c5"), "c7c5")
    bob.board.resign_game(gid)
    st = a_game.wait(is_state(lambda s: s["status"] != "started"), "end")
    check(st["status"] == "resign" and st["winner"] == "white", "resign_game: status resign, white won")

    # Our extension: claiming a draw by threefold repetition.
    gid, _, _, _ = start_game(env, events, "Alice", "Bob", rated=False, clock_limit=600, clock_increment=0,
                              color="white")
    a_game = Stream("alice game 5", alice.board.stream_game_state(gid))
    a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    played = []
    for i, uci in enumerate(["g1f3", "g8f6", "f3g1", "f6g8"] * 2):
        (alice if i % 2 == 0 else bob).board.make_move(gid, uci)
        played.append(uci)
        a_game.wait(moves_are(" ".join(played)), uci)
        if i == 3:
            r = env.raw_post("Alice", f"/api/board/game/{gid}/claim-draw")
            check(r.status_code == 400 and r.json().get("code") == "no_claim",
                  "claim-draw with the start position seen twice: 400 no_claim, no penalty")
    r = env.raw_post("Alice", f"/api/board/game/{gid}/claim-draw")
    check(r.status_code == 200 and r.json() == {"ok": True}, "claim-draw (extension) after a threefold repetition: ok")
    st = a_game.wait(is_state(lambda s: s["status"] != "started"), "end")
    check(st["status"] == "draw" and "winner" not in st, "the claim ends the game: status draw")

    # An open challenge.
    c = alice.challenges.create_open(clock_limit=180, clock_increment=2)
    check(c["url"].endswith(c["id"]) and c["urlWhite"].endswith("?color=white") and c["destUser"] is None,
          "create_open: a link with urlWhite/urlBlack and no destUser")
    bob.challenges.accept(c["id"])
    start = events["Bob"].wait(lambda e: e.get("type") == "gameStart", "gameStart")
    gid = start["game"]["gameId"]
    check(start["game"]["opponent"]["id"] == "alice", "open challenge accepted: bob plays alice")
    events["Alice"].wait(is_game("gameStart", gid), "gameStart")

    # The opponent's connection: bob's only game stream closes, alice hears opponentGone, then bob is back.
    a_game = Stream("alice game 4", alice.board.stream_game_state(gid))
    a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    r = requests.get(env.base + f"/api/board/game/stream/{gid}", headers=env.auth("Bob"), stream=True, timeout=WAIT)
    check(r.status_code == 200 and b"gameFull" in next(r.iter_lines()), "a raw game stream for bob")
    r.close()
    gone = a_game.wait(lambda e: e.get("type") == "opponentGone" and e["gone"], "opponentGone", timeout=30)
    check(0 < gone["claimWinInSeconds"] <= 60, f"bob's stream closed: alice gets opponentGone {gone}")
    Stream("bob game 4", bob.board.stream_game_state(gid))
    back = a_game.wait(lambda e: e.get("type") == "opponentGone" and not e["gone"], "opponent back")
    check("claimWinInSeconds" not in back, "bob streams the game again: opponentGone gone=false")
    expect_error(400, "claim-victory while the opponent is connected", alice.board.claim_victory, gid)
    bob.board.abort_game(gid)

    # The computer.
    g = alice.challenges.create_ai(level=2, clock_limit=600, clock_increment=0, color="black")
    gid = g["id"]
    check(g["player"] == "black" and g["source"] == "ai" and len(g["fullId"]) == 12, "create_ai: a game as black")
    a_game = Stream("alice vs ai", alice.board.stream_game_state(gid))
    full = a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    check("aiLevel" in full["white"], "gameFull: white is the AI")
    if full["state"]["moves"]:
        first = full["state"]["moves"].split()[0]
    else:
        first = a_game.wait(is_state(lambda s: len(s["moves"].split()) == 1), "the AI's move")["moves"]
    legal = chess is None or chess.Move.from_uci(first) in chess.Board().legal_moves
    check(legal, f"the AI answered with a move ({first})")
    alice.board.resign_game(gid)
    a_game.wait(is_state(lambda s: s["status"] == "resign"), "resigned")

    # Chess960 (casual only): a challenge with variant=chess960, played on the board API from its own start, and
    # the exported PGN read back by python-chess with the same moves.
    expect_error(400, "a rated Chess960 challenge", alice.challenges.create, "Bob", rated=True,
                 clock_limit=300, clock_increment=0, variant="chess960")
    gid, c, _, _ = start_game(env, events, "Alice", "Bob", rated=False, clock_limit=300, clock_increment=0,
                              color="white", variant="chess960")
    check(c["variant"]["key"] == "chess960", "challenge: variant chess960")
    a_game = Stream("alice 960", alice.board.stream_game_state(gid))
    full = a_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    check(full["variant"]["key"] == "chess960" and full["initialFen"] != "startpos", "gameFull: chess960 with its start")
    if chess is not None:
        board = chess.Board(full["initialFen"], chess960=True)
        played = []
        for who in (alice, bob, alice, bob):
            mv = sorted(board.legal_moves, key=lambda m: m.uci())[0]
            who.board.make_move(gid, mv.uci())
            board.push(mv)
            played.append(mv.uci())
            a_game.wait(is_state(lambda s, n=len(played): len(s["moves"].split()) == n), "the 960 move")
        alice.board.resign_game(gid)
        a_game.wait(is_state(lambda s: s["status"] == "resign"), "resigned")
        pgn = alice.games.export(gid, as_pgn=True)
        game = chess.pgn.read_game(io.StringIO(pgn))
        check(game.headers.get("Variant") == "Chess960" and game.board().chess960, "PGN: Variant Chess960")
        check(game.board().fen() == full["initialFen"], "PGN: the start position")
        check([m.uci() for m in game.mainline_moves()] == played, "python-chess reads the same moves")
    else:
        alice.board.resign_game(gid)

    # A board seek pairing two users.
    alice_seek = env.client(env.tokens["Alice"])
    done = queue.Queue()
    threading.Thread(target=lambda: done.put(alice_seek.board.seek(5, 0)), daemon=True).start()
    time.sleep(1.0)
    bob.board.seek(5, 0)
    check(True, "bob's board.seek pairs with alice's at once")
    try:
        done.get(timeout=WAIT)
    except queue.Empty:
        raise Failed("alice's seek did not end when paired") from None
    check(True, "alice's board.seek ends once paired")
    start = events["Bob"].wait(lambda e: e.get("type") == "gameStart", "gameStart")["game"]
    events["Alice"].wait(is_game("gameStart", start["gameId"]), "gameStart")
    check(start["opponent"]["id"] == "alice" and start["speed"] == "blitz", "seek game: bob vs alice, 5+0 blitz")
    check(start["source"] == "lobby", f"seek game: source {start['source']!r} (Lichess: lobby)")
    bob.board.abort_game(start["gameId"])

    # A bot: upgrade, accept a challenge from the bot API, play, and no board API without board:play.
    robo.account.upgrade_to_bot()
    check(robo.account.get().get("title") == "BOT", "account.upgrade_to_bot: the account's title is BOT")
    robo.account.upgrade_to_bot()
    check(True, "account.upgrade_to_bot again: ok")
    online = list(alice.bots.get_online_bots())
    check([b.get("id") for b in online] == ["robo"] and online[0].get("title") == "BOT",
          "bots.get_online_bots: the bot with its event stream open")
    e = expect_error(400, "a rated challenge from a person to a bot (the server does not allow it)",
                     alice.challenges.create, "Robo", rated=True, clock_limit=120, clock_increment=1)
    check("casual" in str(e.cause), f"  ... and says such games are casual: {e.cause}")
    c = alice.challenges.create("Robo", rated=False, clock_limit=120, clock_increment=1, color="black")
    ev = events["Robo"].wait(lambda e: e.get("type") == "challenge" and e["challenge"]["id"] == c["id"], "challenge")
    check(ev["challenge"]["destUser"].get("title") == "BOT" and ev["challenge"]["challenger"].get("title") is None,
          "the challenge shows the bot's title")
    robo.bots.accept_challenge(c["id"])
    gid = events["Robo"].wait(lambda e: e.get("type") == "gameStart", "gameStart")["game"]["gameId"]
    r_game = Stream("robo game", robo.bots.stream_game_state(gid))
    full = r_game.wait(lambda e: e.get("type") == "gameFull", "gameFull")
    check(full["white"]["id"] == "robo" and full["white"].get("title") == "BOT" and full["black"].get("title") is None,
          "bots.stream_game_state: gameFull, the bot with its title")
    robo.bots.make_move(gid, "d2d4")
    r_game.wait(moves_are("d2d4"), "d2d4")
    check(True, "bots.make_move")
    current = list(alice.games.export_ongoing_by_player("Robo"))
    check(len(current) == 1 and current[0]["id"] == gid and current[0]["moves"] == "d4",
          "games.export_ongoing_by_player: the bot's game in progress")
    by_id = alice.users.get_by_id("Robo", "Alice", "nobody")
    check([u["id"] for u in by_id] == ["robo", "alice"] and by_id[0].get("title") == "BOT"
          and "blitz" in by_id[1]["perfs"], "users.get_by_id: the users that exist, as Lichess shows them")
    e = expect_error(403, "a bot:play token on the board API", robo.board.make_move, gid, "e2e4")
    check("Missing scope" in str(e.cause) or "Missing scope" in str(e), "403 says Missing scope")
    expect_error(403, "a board:play-only token on the bot API", env.client(env.tokens["Bob-board"]).bots.make_move,
                 gid, "d7d5")
    alice.board.make_move(gid, "d7d5")
    r_game.wait(moves_are("d2d4 d7d5"), "d7d5")
    robo.bots.resign_game(gid)
    st = r_game.wait(is_state(lambda s: s["status"] != "started"), "end")
    check(st["status"] == "resign" and st["winner"] == "black", "bots.resign_game: black won")

    # Export.
    g = alice.games.export(fool)
    check(g["id"] == fool and g["status"] == "mate" and g["winner"] == "black" and g["moves"] == "f3 e5 g4 Qh4#",
          "games.export (JSON): mate, black won, the moves")
    pgn = alice.games.export(fool, as_pgn=True)
    check('[Result "0-1"]' in pgn and "Qh4#" in pgn, "games.export (PGN)")
    games = list(alice.games.export_by_player("Alice"))
    # Alice finished six games (mate, resignation, the draw claim, the AI, Chess960, the bot); aborted ones are not
    # exported.
    check(fool in [x["id"] for x in games] and len(games) == 6, f"games.export_by_player (JSON): {len(games)} games")
    titled = [p["user"] for x in games for p in x["players"].values() if p.get("user", {}).get("title")]
    check([u["id"] for u in titled] == ["robo"] and titled[0]["title"] == "BOT",
          "exported games: the bot's user has the title BOT, nobody else a title")
    pub = alice.users.get_public_data("Robo")
    check(pub["id"] == "robo" and pub.get("title") == "BOT" and pub["url"].endswith("/@/Robo")
          and set(pub["perfs"]) >= {"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}
          and pub["count"]["all"] >= 1, "users.get_public_data: the bot in Lichess's shape (title, url, every perf, count)")
    # A reviewed game exports with its evaluations ([%eval]) when evals=true; python-chess reads them.
    r = requests.post(f"{env.base}/api/game/{fool}/review", headers=env.auth("Alice"), timeout=WAIT)
    check(r.status_code in (200, 201, 202), f"review of the fool's mate requested ({r.status_code} {r.text[:100]})")
    deadline = time.monotonic() + 4 * WAIT
    while time.monotonic() < deadline:
        state = requests.get(f"{env.base}/api/game/{fool}/review", timeout=WAIT).json()["status"]
        if state in ("done", "failed"):
            break
        time.sleep(0.5)
    check(state == "done", f"the review is done ({state})")
    with_evals = [p for p in alice.games.export_by_player("Alice", as_pgn=True, evals=True, clocks=True, opening=True)
                  if fool in p]
    check(len(with_evals) == 1 and "[%eval" in with_evals[0], "export_by_player evals=True: the reviewed game has [%eval]")
    if chess is not None:
        g = chess.pgn.read_game(io.StringIO(with_evals[0]))
        evals = [n.eval() for n in g.mainline() if n.eval() is not None]
        check(not g.errors and evals and g.end().board().is_checkmate(),
              f"python-chess reads the evals export: {len(evals)} evaluations, checkmate")
    pgns = list(alice.games.export_by_player("Alice", as_pgn=True, clocks=True, opening=True))
    check(len(pgns) == len(games), f"games.export_by_player (PGN): as many games ({len(pgns)} of {len(games)})")
    plain = list(alice.games.export_by_player("Alice", as_pgn=True))
    check(all("%clk" not in p and "[Opening " not in p for p in plain),
          "export_by_player: no clocks or opening unless asked (Lichess's defaults)")
    bare = list(alice.games.export_by_player("Alice", as_pgn=True, tags=False))
    check(all(not p.lstrip().startswith("[") and ("1." in p or "1-0" in p or "0-1" in p) for p in bare),
          "export_by_player tags=False: movetext only")
    heads = list(alice.games.export_by_player("Alice", as_pgn=True, moves=False))
    check(all(p.lstrip().startswith("[Event") and "1." not in p.split("]")[-1] for p in heads),
          "export_by_player moves=False: tags only")
    # By ids: newest first, unknown ids left out.
    ids = [fool, games[0]["id"], "nosuchid"]
    multi = list(alice.games.export_multi(*ids))
    newest_first = [games[0]["id"], fool]  # games[0] is Alice's newest; the fool's mate was her first
    check([g["id"] for g in multi] == newest_first and multi[-1]["moves"] == "f3 e5 g4 Qh4#",
          f"games.export_multi: the known games, newest first ({[g['id'] for g in multi]})")
    multi_pgn = list(alice.games.export_multi(fool, as_pgn=True, clocks=True))
    check(len(multi_pgn) == 1 and "Qh4#" in multi_pgn[0] and "%clk" in multi_pgn[0], "games.export_multi as PGN, clocks")
    r = requests.post(env.base + "/api/games/export/_ids", data=",".join(["x"] * 301), timeout=WAIT)
    check(r.status_code == 400 and "300" in r.json().get("error", ""), f"export/_ids: more than 300 ids is a 400 ({r.text})")
    # Lichess's filters.
    by = lambda **kw: list(alice.games.export_by_player("Alice", **kw))
    rated = by(rated=True)
    check(len(rated) == 1 and all(x["rated"] for x in rated), "export_by_player rated=True: the one rated game")
    casual = by(rated=False)
    check(len(casual) == len(games) - 1, "export_by_player rated=False: the casual ones")
    humans = [x for x in casual if "user" in x["players"]["white"] and "user" in x["players"]["black"]]
    check(humans and all(isinstance(x["players"][c].get("rating"), int) for x in humans for c in ("white", "black")),
          "casual games between two accounts export both players' ratings (as Lichess)")
    check({x["source"] for x in games} <= {"friend", "ai", "lobby", "pool", "position"}
          and any(x["source"] == "ai" for x in games) and any(x["source"] == "friend" for x in games),
          "exports carry Lichess's source: ai for the computer game, friend for challenges")
    check(all(x["speed"] == "blitz" for x in by(perf_type="blitz")) and by(perf_type="blitz"),
          "export_by_player perf_type=blitz")
    ct = alice.users.get_crosstable("Alice", "Bob")
    vs_bob_finished = [x for x in by(vs="Bob")]
    check(ct["nbGames"] == len(vs_bob_finished) and ct["users"]["alice"] + ct["users"]["bob"] == len(vs_bob_finished)
          and ct["users"]["bob"] >= 1, f"users.get_crosstable: Alice–Bob over their finished games ({ct})")
    vs_bob = by(vs="Bob")
    check(vs_bob and all("bob" in (x["players"]["white"].get("user", {}).get("id"),
                                   x["players"]["black"].get("user", {}).get("id")) for x in vs_bob),
          f"export_by_player vs=Bob: {len(vs_bob)} games, all against Bob")
    white = by(color="white")
    check(all(x["players"]["white"].get("user", {}).get("id") == "alice" for x in white)
          and 0 < len(white) < len(games), "export_by_player color=white")
    newest = games[0]["createdAt"]
    since = newest if isinstance(newest, int) else int(newest.timestamp() * 1000)
    check(len(by(since=since)) >= 1 and len(by(until=since - 1)) == len(games) - len(by(since=since)),
          "export_by_player since/until split the games")
    check(len(by(max=2)) == 2 and len(by(max=2, rated=False)) == 2, "export_by_player max counts the games that pass")
    no_clocks = list(alice.games.export_by_player("Alice", as_pgn=True, clocks=False, opening=False))
    check(all("%clk" not in p and "[Opening " not in p for p in no_clocks)
          and any("%clk" in p for p in pgns), "export_by_player clocks=False, opening=False")
    check(all('[UTCDate "' in p and '[UTCTime "' in p for p in pgns), "exported PGNs have UTCDate and UTCTime")
    if chess is not None:
        game = chess.pgn.read_game(io.StringIO(pgn))
        board = game.end().board()
        check(not game.errors and board.is_checkmate() and game.headers["Result"] == "0-1",
              "python-chess reads the PGN back: checkmate, 0-1")
        for p in pgns:
            game = chess.pgn.read_game(io.StringIO(p))
            if game is None or game.errors:
                raise Failed(f"python-chess cannot read an exported game: {p[:200]}")
        check(True, "python-chess reads every game of export_by_player")
    acc = alice.account.get()
    check(acc["perfs"].get("blitz", {}).get("games") == 1, "account.get: the rated blitz game counts in perfs")
    history = alice.users.get_rating_history("Alice")
    blitz_history = [h for h in history if h["name"] == "Blitz"]
    check(len(history) == 6 and len(blitz_history) == 1 and len(blitz_history[0]["points"]) == 1
          and len(blitz_history[0]["points"][0]) == 4
          and blitz_history[0]["points"][0][3] == acc["perfs"]["blitz"]["rating"],
          "users.get_rating_history: Lichess's shape, the blitz point [y, m, d, rating]")
    perf_keys = {"games", "rating", "rd", "prog", "prov"}
    check(all(set(acc["perfs"].get(s, {})) >= perf_keys
              for s in ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence")),
          "account.get: perfs for every speed with games, rating, rd, prog, prov")
    blitz = acc["perfs"]["blitz"]
    check(blitz["prog"] == blitz["rating"] - 1500, f"account.get: prog is the blitz rating's change ({blitz})")
    count = acc["count"]
    check(set(count) >= {"all", "rated", "ai", "draw", "drawH", "loss", "lossH", "win", "winH", "playing"}
          and count["rated"] == 1 and count["rated"] <= count["all"], f"account.get: count as lichess ({count})")

    # acceptByToken: Bob's own token accepts Alice's challenge at once; the game starts under the challenge's id.
    c = alice.challenges.create_with_accept("Bob", False, env.tokens["Bob"], clock_limit=300, clock_increment=0,
                                            color="white")
    start = events["Bob"].wait(is_game("gameStart", c["id"]), "gameStart")
    check(c["status"] == "accepted" and start["game"]["gameId"] == c["id"],
          "challenges.create_with_accept (acceptByToken): accepted, the game started")
    bob.board.abort_game(c["id"])
    expect_error(400, "create_with_accept with someone else's token", alice.challenges.create_with_accept, "Bob",
                 False, env.tokens["Robo"], clock_limit=300, clock_increment=0)

    # Puzzles: the server started empty, so it holds its default set; the daily puzzle and one by id, as lichess
    # shapes them. The solution must replay from the puzzle's FEN after the setup move (game.pgn's one SAN move).
    daily = alice.puzzles.get_daily()
    pz = daily["puzzle"]
    check(all(k in pz for k in ("id", "rating", "plays", "initialPly", "solution", "themes"))
          and all(k in daily["game"] for k in ("id", "perf", "rated", "players", "pgn")),
          "puzzles.get_daily: lichess's keys")
    again = alice.puzzles.get(pz["id"])
    check(again["puzzle"]["id"] == pz["id"] and again["puzzle"]["solution"] == pz["solution"],
          "puzzles.get: the same puzzle by its id")
    check(alice.puzzles.get_daily()["puzzle"]["id"] == pz["id"], "puzzles.get_daily: the same puzzle all day")
    if chess is not None:
        board = chess.Board(pz["fen"])
        board.push_san(daily["game"]["pgn"])
        for uci in pz["solution"]:
            board.push_uci(uci)
        check(board.is_valid(), "the daily puzzle's setup move and solution replay with python-chess")
    expect_error(404, "puzzles.get of an unknown id", alice.puzzles.get, "nosuchpuzzle")
    nxt = alice.puzzles.get_next()
    check(all(k in nxt["puzzle"] for k in ("id", "rating", "solution", "themes")) and "pgn" in nxt["game"],
          "puzzles.get_next: a puzzle in lichess's shape")
    hard = alice.puzzles.get_next(angle="fork", difficulty="hardest")
    check("fork" in hard["puzzle"]["themes"], f"puzzles.get_next(angle=fork, difficulty=hardest): {hard['puzzle']['themes']}")
    expect_error(400, "puzzles.get_next with an unknown difficulty", alice.puzzles.get_next, difficulty="impossible")


def fresh_database(tmp):
    """A fresh SQLite file in `tmp`, or with GUOXIANG_SERVER_TEST_DB=postgres a new schema on the PostgreSQL that
    $GUOXIANG_TEST_POSTGRES names (`eval "$(bash .ci/postgres.sh)"` starts one)."""
    if os.environ.get("GUOXIANG_SERVER_TEST_DB") != "postgres":
        return f"sqlite://{tmp}/x.db"
    base = os.environ.get("GUOXIANG_TEST_POSTGRES")
    if not base:
        raise SystemExit("GUOXIANG_SERVER_TEST_DB=postgres needs GUOXIANG_TEST_POSTGRES (eval \"$(bash .ci/postgres.sh)\")")
    schema = f"berserk_{os.getpid()}_{time.time_ns() % 1_000_000_007}"
    subprocess.run(["psql", base, "-qc", f"CREATE SCHEMA {schema}"], check=True, timeout=60)
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-c%20search_path%3D{schema}"


def main():
    binary = find_binary()
    tmp = tempfile.mkdtemp(prefix="guoxiang-lichess-")
    db = fresh_database(tmp)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = None
    log = open(os.path.join(tmp, "server.log"), "w+")

    def kill():
        if server is not None and server.poll() is None:
            server.kill()
            server.wait(timeout=10)

    def watchdog():
        print(f"FAIL: the whole run took more than {WATCHDOG} s", flush=True)
        kill()
        os._exit(1)

    timer = threading.Timer(WATCHDOG, watchdog)
    timer.daemon = True
    timer.start()
    status = 1
    try:
        tokens = {}
        for name in ["Alice", "Bob", "Robo"]:
            run(binary, "user", "add", name, "--password", f"{name.lower()}-password", "--database", db)
        scopes = {
            # learn:write: Alice also asks for a review of her game (our own API); puzzle:write: her puzzles (as Lichess).
            "Alice": "board:play,challenge:read,challenge:write,learn:write,puzzle:write",
            "Bob": "board:play,challenge:read,challenge:write",
            "Robo": "bot:play",
            "Bob-board": "board:play",
        }
        for who, s in scopes.items():
            tokens[who] = run(binary, "token", "create", who.split("-")[0], "--scopes", s, "--database", db)
        server = subprocess.Popen(
            [binary, "serve", "--addr", f"127.0.0.1:{port}", "--database", db, "--engine-workers", "1"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise Failed("the server did not start")
            time.sleep(0.1)
        print(f"server {binary} on {base} ({db.split(':')[0]}), berserk {berserk.__version__}", flush=True)
        scenario(Env(binary, base, tokens))
        # The event streams are still open: a graceful shutdown must end them rather than wait for them.
        server.terminate()
        try:
            server.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            raise Failed("SIGTERM with event streams open: the server did not exit") from None
        check(server.returncode == 0, f"SIGTERM with event streams open: the server exits (status {server.returncode})")
        print("all Lichess API checks passed", flush=True)
        status = 0
    except Failed as e:
        print("FAIL:", e, flush=True)
    except Exception:  # noqa: BLE001 - any error is a failure
        print("FAIL: unexpected error", flush=True)
        traceback.print_exc()
    finally:
        kill()
        timer.cancel()
        if status != 0:
            log.seek(0)
            tail = log.read()[-4000:]
            print("--- server log (tail) ---\n" + tail, flush=True)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()

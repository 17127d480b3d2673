#!/usr/bin/env python3
"""Replays lichess-bot's calls against the real server, without lichess-bot and without a network.

lichess-bot (github.com/lichess-bot-devs/lichess-bot, checked against version 2026.8.2.1) is the usual way to run a
chess engine as a Lichess bot. Issue 16 asks that it run unmodified against guoxiang. CI cannot fetch it, so this
script makes the same requests in the same order, with its paths, parameters, bodies and headers (the Authorization
and User-Agent headers of its requests session, a raw token as the body of the token test, form bodies for decline
and chat, `offeringDraw=false|true` on moves, a JSON body for the challenges its matchmaking creates, `nb=512` for
the online bots), and checks every answer for the fields and types lichess-bot reads, as lichess's API
documentation describes them (lichess-org/api, doc/specs). Comments name the lichess-bot function that reads each
field.

Requirements: requests and python-chess (tests/requirements.txt).

Usage: python3 tests/lichess_bot_calls.py [path/to/guoxiang]
       (default: $GUOXIANG_BIN, else target/release/guoxiang)
       LB_CALLS_KEEP_GOING=1 reports every failed check instead of stopping at the first (still exit status 1).

The story: the bot account starts as lichess-bot does (token test, account, upgrade, ongoing games, event stream);
a human challenges it (colour random) and the bot accepts and plays the game to checkmate on the bot API against the
human on the board API; a correspondence challenge follows at once (one game at a time, as `concurrency: 1`), with
a takeback request the bot refuses and a resignation; a challenge the bot declines; then a second bot does what
lichess-bot's matchmaking does (online bots, the opponent's public data, a challenge with a JSON body), and its
challenges are declined, cancelled, accepted and played to a draw agreed as lichess-bot agrees to draws (a move
with offeringDraw=true while the opponent's offer is pending), and accepted and aborted; last the online check and
the profile refresh. Every check prints `ok: …`; the first failure stops the run with exit status 1.
A watchdog and a timeout on every request make a hang a failure. The server runs with `--rated-bot-games`, as
Lichess lets bots and people play rated games (tests/lichess_berserk.py checks the default, which refuses them).
"""

import io
import json
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
from urllib.parse import urljoin

import chess
import chess.pgn
import requests

LICHESS_BOT_VERSION = "2026.8.2.1"
WAIT = 15  # seconds to wait for any one thing
STREAM_READ_TIMEOUT = 15  # lichess-bot opens both streams with timeout=15 (Lichess.get_event_stream/get_game_stream)
WATCHDOG = 180  # seconds for the whole run
KEEP_GOING = os.environ.get("LB_CALLS_KEEP_GOING") == "1"
failures = []


class Failed(Exception):
    pass


def check(cond, what):
    if cond:
        print("ok:", what, flush=True)
        return True
    if KEEP_GOING:
        print("FAIL:", what, flush=True)
        failures.append(what)
        return False
    raise Failed(what)


# ---- shapes -------------------------------------------------------------------------------------------------------

INT, STR, BOOL, NULL, DICT, LIST = "integer", "string", "boolean", "null", "object", "array"


def type_ok(value, kind):
    return {
        INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
        STR: lambda v: isinstance(v, str),
        BOOL: lambda v: isinstance(v, bool),
        NULL: lambda v: v is None,
        DICT: lambda v: isinstance(v, dict),
        LIST: lambda v: isinstance(v, list),
    }[kind](value)


def problems(obj, spec, where=""):
    """Differences between `obj` and `spec`: {key: kind | (kind, …) | nested spec}; a key ending in `?` may be
    absent. Returns a list of strings such as `challenge.finalColor: missing`."""
    out = []
    if not isinstance(obj, dict):
        return [f"{where or 'value'}: not an object ({obj!r:.80})"]
    for key, kind in spec.items():
        optional = key.endswith("?")
        name = key.rstrip("?")
        path = f"{where}.{name}" if where else name
        if name not in obj:
            if not optional:
                out.append(f"{path}: missing")
            continue
        value = obj[name]
        if isinstance(kind, dict):
            out += problems(value, kind, path)
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            if not any(type_ok(value, k) for k in kinds):
                out.append(f"{path}: {value!r:.60} is not {' or '.join(kinds)}")
    return out


def check_shape(obj, spec, what):
    found = problems(obj, spec)
    return check(not found, what + ("" if not found else f" — {'; '.join(found)}"))


# What lichess-bot reads, per object (lichess-org/api doc/specs/schemas in brackets).
# model.Challenge.__init__ [ChallengeJson]: id, rated, variant.key, perf.name, speed, timeControl (limit, increment,
# daysPerTurn via .get), challenger and destUser through model.Player (name, title, rating, provisional, aiLevel via
# .get), initialFen via .get, color, and finalColor whenever color is "random" (a KeyError there ends lichess-bot).
PLAYER_IN_CHALLENGE = {"id": STR, "name": STR, "title?": (STR, NULL), "rating?": INT, "provisional?": BOOL,
                       "online?": BOOL}
CHALLENGE = {"id": STR, "url": STR, "status": STR, "challenger": PLAYER_IN_CHALLENGE, "destUser": PLAYER_IN_CHALLENGE,
             "variant": {"key": STR, "name": STR}, "rated": BOOL, "speed": STR, "timeControl": {"type": STR},
             "color": STR, "finalColor": STR, "perf": {"icon": STR, "name": STR}, "direction?": STR}
# lichess_bot_main / start_game / enough_time_to_queue [GameStartEvent, GameEventInfo]: game.id, game.opponent.username
# (via .get), and for correspondence games found at start-up game.isMyTurn and game.secondsLeft.
GAME_START = {"type": STR, "game": {"id": STR, "gameId": STR, "fullId": STR, "color": STR, "isMyTurn": BOOL,
                                    "secondsLeft?": INT, "speed": STR, "rated": BOOL, "hasMoved": BOOL,
                                    "opponent": {"id": (STR, NULL), "username": STR}, "fen": STR,
                                    "variant": {"key": STR, "name": STR}, "status": {"id": INT, "name": STR}}}
# model.Game.__init__ [GameFullEvent]: id, speed, clock.initial/.increment (ms, via .get), perf.name, variant.name,
# rated, white and black through model.Player, initialFen, state, createdAt (ms since the epoch, a number).
PLAYER_IN_GAME = {"id": STR, "name": STR, "title?": (STR, NULL), "rating?": INT, "provisional?": BOOL}
# play_game [GameStateEvent]: moves, status, winner (.get), wtime/btime/winc/binc read with [] after every
# gameState (a missing one ends the game with a KeyError), wtakeback/btakeback via .get.
GAME_STATE = {"type": STR, "moves": STR, "wtime": INT, "btime": INT, "winc": INT, "binc": INT, "status": STR,
              "winner?": STR, "wdraw?": BOOL, "bdraw?": BOOL, "wtakeback?": BOOL, "btakeback?": BOOL}
GAME_FULL = {"type": STR, "id": STR, "variant": {"key": STR, "name": STR}, "speed": STR, "perf": {"name": STR},
             "rated": BOOL, "createdAt": INT, "white": PLAYER_IN_GAME, "black": PLAYER_IN_GAME, "initialFen": STR,
             "state": GAME_STATE}
# Matchmaking.perf / choose_opponent / Challenge.is_supported_rating [Perfs, PerfType]: perfs.<speed>.rating and
# .games.
PERF = {"games": INT, "rating": INT, "rd": INT, "prog": INT, "prov?": BOOL}
PERFS = {s: PERF for s in ("bullet", "blitz", "rapid", "classical", "correspondence")}
# start_lichess_bot / Lichess.get_profile [UserExtended]: username, id, title ("BOT" once upgraded), perfs.
ACCOUNT = {"id": STR, "username": STR, "perfs": PERFS, "createdAt": INT, "url": STR, "title?": (STR, NULL)}


# ---- the lichess-bot side -----------------------------------------------------------------------------------------

class LichessBot:
    """The requests lichess-bot makes, as lib/lichess.py makes them: one requests.Session with the token and a
    User-Agent `lichess-bot/VERSION user:NAME` (`?` until the profile is read), paths joined to the base URL with
    urljoin, bodies and parameters as it sends them."""

    def __init__(self, base, token):
        self.base = base + "/"
        self.token = token
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}"})
        self.set_user_agent("?")
        self.log = []  # (method, path, status) in order

    def set_user_agent(self, name):
        self.session.headers.update({"User-Agent": f"lichess-bot/{LICHESS_BOT_VERSION} user:{name}"})

    def url(self, path):
        return urljoin(self.base, path)

    def get(self, path, params=None, stream=False):
        r = self.session.get(self.url(path), params=params, stream=stream,
                             timeout=STREAM_READ_TIMEOUT if stream else WAIT)
        self.log.append(("GET", path, r.status_code))
        return r

    def post(self, path, data=None, headers=None, params=None, payload=None):
        r = self.session.post(self.url(path), data=data, headers=headers, params=params, json=payload, timeout=WAIT)
        self.log.append(("POST", path, r.status_code))
        return r

    # Lichess.__init__: the raw token as the body (requests sends a str body with no Content-Type).
    def token_test(self):
        return self.post("/api/token/test", data=self.token)

    def get_profile(self):
        r = self.get("/api/account")
        if r.status_code == 200:
            self.set_user_agent(r.json().get("username", "?"))
        return r

    def upgrade(self):
        return self.post("/api/bot/account/upgrade")

    def playing(self):
        return self.get("/api/account/playing")

    def event_stream(self):
        return self.get("/api/stream/event", stream=True)

    def game_stream(self, gid):
        return self.get(f"/api/bot/game/stream/{gid}", stream=True)

    def accept(self, cid):
        return self.post(f"/api/challenge/{cid}/accept")

    # Lichess.decline_challenge: a form body written by hand.
    def decline(self, cid, reason):
        return self.post(f"/api/challenge/{cid}/decline", data=f"reason={reason}",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})

    # Lichess.make_move: offeringDraw as a query parameter, "true" or "false".
    def move(self, gid, uci, draw=False):
        return self.post(f"/api/bot/game/{gid}/move/{uci}", params={"offeringDraw": str(draw).lower()})

    # Lichess.chat: a form body with room and text.
    def chat(self, gid, room, text):
        return self.post(f"/api/bot/game/{gid}/chat", data={"room": room, "text": text})

    def takeback(self, gid, yes):
        return self.post(f"/api/bot/game/{gid}/takeback/{'yes' if yes else 'no'}")

    def abort(self, gid):
        return self.post(f"/api/bot/game/{gid}/abort")

    def resign(self, gid):
        return self.post(f"/api/bot/game/{gid}/resign")

    def export(self, gid):
        return self.get(f"/game/export/{gid}")

    def online_bots(self):
        return self.get("/api/bot/online", params={"nb": "512"})

    def public_data(self, name):
        return self.get(f"/api/user/{name}")

    # Matchmaking.create_challenge -> Lichess.challenge: a JSON body.
    def challenge(self, name, payload):
        return self.post(f"/api/challenge/{name}", payload=payload)

    def cancel(self, cid):
        return self.post(f"/api/challenge/{cid}/cancel")

    def is_online(self, user_id):
        return self.get("/api/users/status", params={"ids": user_id})


class Stream:
    """Reads an NDJSON stream in a thread as lichess-bot does (iter_lines; an empty line is a ping)."""

    END = object()

    def __init__(self, name, response):
        self.name = name
        self.response = response
        self.q = queue.Queue()
        self.seen = []
        self.ended = False
        self.pings = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        try:
            for line in self.response.iter_lines():
                self.q.put(json.loads(line.decode("utf-8")) if line else {"type": "ping"})
        except Exception as e:  # noqa: BLE001 - handed to the waiting side
            self.q.put(e)
        self.q.put(Stream.END)

    def _next(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            return self.q.get(timeout=left)
        except queue.Empty:
            return None

    def wait(self, pred, what, timeout=WAIT):
        for i, item in enumerate(self.seen):
            if pred(item):
                return self.seen.pop(i)
        deadline = time.monotonic() + timeout
        while not self.ended:
            item = self._next(deadline)
            if item is None:
                break
            if item is Stream.END:
                self.ended = True
                break
            if isinstance(item, Exception):
                raise Failed(f"{self.name}: the stream failed: {item!r}")
            if item.get("type") == "ping":
                self.pings += 1
                if pred(item):
                    return item
                continue
            if pred(item):
                return item
            self.seen.append(item)
        raise Failed(f"{self.name}: no {what} within {timeout} s (ended: {self.ended}; unmatched: {self.seen})")

    def wait_end(self, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while not self.ended:
            item = self._next(deadline)
            if item is None:
                raise Failed(f"{self.name}: did not end ({what}) within {timeout} s")
            if item is Stream.END:
                self.ended = True
            elif isinstance(item, dict) and item.get("type") != "ping":
                self.seen.append(item)

    def close(self):
        self.response.close()


def event_of(kind, cid):
    def pred(e):
        if e.get("type") != kind:
            return False
        obj = e.get("challenge") if kind.startswith("challenge") else e.get("game")
        return isinstance(obj, dict) and (obj.get("id") == cid or obj.get("gameId") == cid)
    return pred


def state_where(pred):
    return lambda e: e.get("type") == "gameState" and pred(e)


# ---- the human side (board API) -----------------------------------------------------------------------------------

class Human:
    def __init__(self, base, token):
        self.base = base
        self.h = {"Authorization": f"Bearer {token}"}

    def post(self, path, **data):
        return requests.post(self.base + path, headers=self.h, data=data, timeout=WAIT)

    def stream(self, path):
        return requests.get(self.base + path, headers=self.h, stream=True, timeout=STREAM_READ_TIMEOUT)

    def challenge(self, name, **params):
        r = self.post(f"/api/challenge/{name}", **params)
        if r.status_code != 200:
            raise Failed(f"the human's challenge {params}: HTTP {r.status_code} {r.text}")
        return r.json()

    def move(self, gid, uci):
        r = self.post(f"/api/board/game/{gid}/move/{uci}")
        if r.status_code != 200:
            raise Failed(f"the human's move {uci}: HTTP {r.status_code} {r.text}")


def ok_json(r, what):
    good = r.status_code == 200 and r.headers.get("content-type", "").startswith("application/json")
    good = good and r.json() == {"ok": True}
    return check(good, f"{what}: 200 {{\"ok\":true}}" + ("" if good else f" (got {r.status_code} {r.text[:200]})"))


def json_of(r, what):
    if r.status_code != 200:
        raise Failed(f"{what}: HTTP {r.status_code} {r.text[:300]}")
    try:
        return r.json()
    except ValueError:
        raise Failed(f"{what}: not JSON: {r.text[:300]}") from None


# ---- the scenario -------------------------------------------------------------------------------------------------

def start_like_lichess_bot(bot, name, user_id):
    """lichess_bot.start_lichess_bot with `-u`, then lichess_bot_main up to the event stream."""
    r = bot.token_test()
    tested = json_of(r, "POST /api/token/test")
    info = tested.get(bot.token) if isinstance(tested, dict) else None
    # Lichess.__init__: response[token]["scopes"] must be a comma-separated string with bot:play.
    good = isinstance(info, dict) and isinstance(info.get("scopes"), str) and "bot:play" in info["scopes"].split(",")
    check(good, f"{name}: token test keyed by the raw token, scopes has bot:play" + ("" if good else f" ({tested})"))
    check_shape(info, {"userId": STR, "scopes": STR, "expires": (INT, NULL)}, f"{name}: token test: userId, expires")
    profile = json_of(bot.get_profile(), "GET /api/account")
    check_shape(profile, ACCOUNT, f"{name}: GET /api/account has what lichess-bot and its matchmaking read")
    check(profile["username"] == name and profile["id"] == user_id and profile.get("title") != "BOT",
          f"{name}: username {name}, not yet a bot")
    ok_json(bot.upgrade(), f"{name}: POST /api/bot/account/upgrade")
    profile = json_of(bot.get_profile(), "GET /api/account")
    # start_lichess_bot: `user_profile.get("title") == "BOT"` decides whether it starts at all.
    check(profile.get("title") == "BOT", f"{name}: after the upgrade, title BOT")
    playing = json_of(bot.playing(), "GET /api/account/playing")
    # lichess_bot_main / get_ongoing_games: response["nowPlaying"], a list.
    check(isinstance(playing.get("nowPlaying"), list) and playing["nowPlaying"] == [],
          f"{name}: GET /api/account/playing: nowPlaying []")
    r = bot.event_stream()
    check(r.status_code == 200, f"{name}: GET /api/stream/event: 200")
    return profile, Stream(f"{name} events", r)


def accept_like_lichess_bot(bot, events, cid, name):
    """handle_challenge then accept_challenges: the challenge event, the ongoing games, the accept, gameStart."""
    ev = events.wait(event_of("challenge", cid), f"challenge {cid}")
    ch = ev["challenge"]
    check_shape(ch, CHALLENGE, f"{name}: the challenge event has what model.Challenge reads")
    if ch.get("color") == "random":
        check(ch.get("finalColor") in ("white", "black"),
              f"{name}: color random comes with finalColor white/black (model.Challenge reads it with [])")
    playing = json_of(bot.playing(), "GET /api/account/playing")
    check(isinstance(playing.get("nowPlaying"), list), f"{name}: GET /api/account/playing before accepting")
    ok_json(bot.accept(cid), f"{name}: POST /api/challenge/{{id}}/accept")
    start = events.wait(event_of("gameStart", cid), f"gameStart {cid}")
    check_shape(start, GAME_START, f"{name}: gameStart has what lichess_bot_main and start_game read")
    # lichess-bot counts the game under the challenge's id when accepting and frees it under gameFull's id when
    # the game ends; with concurrency 1 these must be one id.
    check(start["game"]["id"] == cid and start["game"]["gameId"] == cid,
          f"{name}: gameStart game.id and gameId are the challenge's id {cid}")
    return ch, start["game"]


def open_game(bot, gid, name, me, opponent):
    """play_game: the game stream's first line is gameFull, read into model.Game."""
    r = bot.game_stream(gid)
    check(r.status_code == 200, f"{name}: GET /api/bot/game/stream/{{id}}: 200")
    s = Stream(f"{name} game {gid}", r)
    full = s.wait(lambda e: True, "first line")
    check(full.get("type") == "gameFull", f"{name}: the game stream starts with gameFull")
    check_shape(full, GAME_FULL, f"{name}: gameFull has what model.Game reads")
    names = {full["white"].get("name"), full["black"].get("name")}
    check(full["id"] == gid and names == {me, opponent}, f"{name}: gameFull id {gid}, players {me} and {opponent}")
    me_player = full["white"] if full["white"].get("name") == me else full["black"]
    check(me_player.get("title") == "BOT", f"{name}: gameFull shows the bot's title BOT")
    return s, full


def bot_greets(bot, gid, name):
    # play_game -> say_hello: two messages, the player room and the spectator room.
    ok_json(bot.chat(gid, "player", f"Hi! I'm {name}. Good luck! Type !help for a list of commands I can respond to."),
            f"{name}: hello in the player chat")
    ok_json(bot.chat(gid, "spectator", f"Hi! I'm {name}. Type !help for a list of commands I can respond to."),
            f"{name}: hello in the spectator chat")


def bot_says_goodbye(bot, gid, name):
    # play_game, once the game is over: the goodbye messages, after the end.
    ok_json(bot.chat(gid, "player", "Good game!"), f"{name}: goodbye in the player chat after the end")
    ok_json(bot.chat(gid, "spectator", "Thanks for watching!"), f"{name}: goodbye in the spectator chat")


def scenario(base, tokens):
    human = Human(base, tokens["Hugo"])
    bot = LichessBot(base, tokens["LbBot"])
    human_events = Stream("Hugo events", human.stream("/api/stream/event"))

    profile, events = start_like_lichess_bot(bot, "LbBot", "lbbot")
    # watch_control_stream reads with a 15 s timeout; an idle stream must send something (an empty line) sooner.
    events.wait(lambda e: e.get("type") == "ping", "keep-alive line", timeout=STREAM_READ_TIMEOUT)
    check(True, "LbBot: an idle event stream sends an empty line within lichess-bot's 15 s read timeout")

    # 1. A human's rated 1+1 challenge with colour random; the bot plays it to checkmate.
    c = human.challenge("LbBot", rated="true", **{"clock.limit": 60, "clock.increment": 1})
    cid = c["id"]
    ch, game = accept_like_lichess_bot(bot, events, cid, "LbBot")
    check(ch["speed"] == "bullet" and ch["rated"] is True and ch["timeControl"].get("limit") == 60
          and ch["timeControl"].get("increment") == 1 and ch["challenger"]["name"] == "Hugo"
          and ch["challenger"].get("title") is None and ch["perf"]["name"] == "Bullet",
          "challenge 1: bullet 1+1 rated from Hugo (no title), perf Bullet")
    check(game["opponent"]["username"] == "Hugo" and game["speed"] == "bullet", "gameStart: opponent Hugo, bullet")
    human_events.wait(event_of("gameStart", cid), "Hugo's gameStart")
    gs, full = open_game(bot, cid, "LbBot", "LbBot", "Hugo")
    check(full["clock"] == {"initial": 60000, "increment": 1000} and full["speed"] == "bullet" and full["rated"] is True
          and full["initialFen"] == "startpos" and full["state"]["moves"] == "" and full["state"]["status"] == "started",
          "gameFull: clock in ms, bullet, rated, startpos, no moves yet")
    hs = Stream("Hugo game 1", human.stream(f"/api/board/game/stream/{cid}"))
    hs.wait(lambda e: e.get("type") == "gameFull", "Hugo's gameFull")
    bot_white = full["white"]["name"] == "LbBot"
    if ch.get("finalColor") in ("white", "black"):
        # Lichess draws the colour when the challenge is made; finalColor is the challenger's side in the game.
        check(ch["finalColor"] == ("black" if bot_white else "white"),
              f"the game gives the challenger the challenge's finalColor ({ch['finalColor']})")
    check(game["color"] == ("white" if bot_white else "black") and game["isMyTurn"] is bot_white,
          "gameStart: the bot's colour and isMyTurn agree with gameFull")
    if bot_white:  # the bot walks into fool's mate: f3 e5 g4 Qh4#
        plan = [("bot", "f2f3"), ("human", "e7e5"), ("bot", "g2g4"), ("human", "d8h4")]
        winner = "black"
    else:  # the bot mates: f3 e5 g4 Qh4#
        plan = [("human", "f2f3"), ("bot", "e7e5"), ("human", "g2g4"), ("bot", "d8h4")]
        winner = "black"
    played = []
    greeted = False
    for i, (who, uci) in enumerate(plan):
        if who == "bot":
            if not greeted:
                bot_greets(bot, cid, "LbBot")
                greeted = True
            # engine_wrapper.play_move -> Lichess.make_move; the engine offers a draw with its third move here.
            r = bot.move(cid, uci, draw=(i == 2))
            ok_json(r, f"bot move {uci} with offeringDraw={'true' if i == 2 else 'false'}")
        else:
            human.move(cid, uci)
        played.append(uci)
        st = gs.wait(state_where(lambda s, n=" ".join(played): s.get("moves") == n), f"gameState {' '.join(played)}")
        check_shape(st, GAME_STATE, f"gameState after {uci} has what play_game reads")
        if i == 2 and who == "bot":
            mine = "wdraw" if bot_white else "bdraw"
            check(st.get(mine) is True, f"gameState: the bot's draw offer is {mine}")
    check(st["status"] == "mate" and st.get("winner") == winner, f"the last gameState: mate, winner {winner}")
    gs.wait_end("after mate")
    check(True, "the bot's game stream ends after the final gameState (play_game leaves on StopIteration)")
    bot_says_goodbye(bot, cid, "LbBot")
    fin = events.wait(event_of("gameFinish", cid), "gameFinish")
    check(fin["game"].get("id") == cid, "gameFinish on the bot's event stream")
    # pgn_game_record (with pgn_directory set): GET /game/export/{id} with requests' default Accept */*, as PGN.
    r = bot.export(cid)
    pgn = chess.pgn.read_game(io.StringIO(r.text)) if r.status_code == 200 else None
    check(pgn is not None and not pgn.errors and pgn.headers.get("Result") == "0-1"
          and [m.uci() for m in pgn.mainline_moves()] == played,
          f"GET /game/export/{{id}}: PGN python-chess reads, 0-1, the moves ({r.status_code})")

    # 2. At once a correspondence challenge (concurrency 1: the first game is done): the bot plays a move,
    # refuses a takeback, and the human resigns.
    c = human.challenge("LbBot", rated="false", days="1", color="white")
    cid2 = c["id"]
    ch, game = accept_like_lichess_bot(bot, events, cid2, "LbBot")
    check(ch["speed"] == "correspondence" and ch["timeControl"].get("type") == "correspondence"
          and ch["timeControl"].get("daysPerTurn") == 1 and ch["color"] == "white",
          "challenge 2: correspondence, daysPerTurn 1, the challenger white")
    human_events.wait(event_of("gameStart", cid2), "Hugo's gameStart")
    gs, full = open_game(bot, cid2, "LbBot", "LbBot", "Hugo")
    check(full["speed"] == "correspondence" and full.get("daysPerTurn") == 1 and full["black"]["name"] == "LbBot",
          "gameFull: correspondence, daysPerTurn 1, the bot black")
    human.move(cid2, "e2e4")
    st = gs.wait(state_where(lambda s: s.get("moves") == "e2e4"), "e2e4")
    check_shape(st, GAME_STATE, "a correspondence gameState still has wtime, btime, winc, binc")
    bot_greets(bot, cid2, "LbBot")
    ok_json(bot.move(cid2, "e7e5"), "bot move e7e5 in the correspondence game")
    gs.wait(state_where(lambda s: s.get("moves") == "e2e4 e7e5"), "e7e5")
    # lichess_bot_main at start-up and game_is_active read nowPlaying[].gameId, .speed, .opponent.username, and
    # enough_time_to_queue .isMyTurn and .secondsLeft.
    now = json_of(bot.playing(), "GET /api/account/playing")["nowPlaying"]
    entry = next((g for g in now if g.get("gameId") == cid2), None)
    check(entry is not None and not problems(entry, GAME_START["game"]) and entry["speed"] == "correspondence"
          and entry["opponent"]["username"] == "Hugo" and entry["isMyTurn"] is False,
          "GET /api/account/playing lists the correspondence game as lichess-bot reads it"
          + ("" if entry and not problems(entry, GAME_START["game"])
             else f" ({problems(entry, GAME_START['game']) if entry else now})"))
    r = human.post(f"/api/board/game/{cid2}/takeback/yes")
    check(r.status_code == 200, f"the human asks for a takeback ({r.status_code} {r.text})")
    st = gs.wait(state_where(lambda s: s.get("wtakeback") is True), "wtakeback")
    # play_game: `wtakeback` (the bot is black) and not the bot's move -> accept_takeback(False): takeback/no.
    ok_json(bot.takeback(cid2, False), "POST /api/bot/game/{id}/takeback/no")
    st = gs.wait(state_where(lambda s: not s.get("wtakeback")), "takeback refused")
    check(st["moves"] == "e2e4 e7e5", "the takeback is refused, the moves stay")
    r = human.post(f"/api/board/game/{cid2}/resign")
    st = gs.wait(state_where(lambda s: s.get("status") != "started"), "the end")
    check(st["status"] == "resign" and st.get("winner") == "black", "the human resigns: resign, black won")
    gs.wait_end("after the resignation")
    bot_says_goodbye(bot, cid2, "LbBot")

    # 3. A challenge lichess-bot declines (ultraBullet is not in its time_controls): reason=timeControl.
    c = human.challenge("LbBot", rated="false", color="black", **{"clock.limit": 15, "clock.increment": 0})
    cid3 = c["id"]
    ev = events.wait(event_of("challenge", cid3), "challenge 3")
    check(ev["challenge"]["speed"] == "ultraBullet", "challenge 3: ultraBullet")
    json_of(bot.playing(), "GET /api/account/playing")
    r = bot.decline(cid3, "timeControl")
    check(r.status_code == 200, f"POST /api/challenge/{{id}}/decline with the form body reason=timeControl ({r.text})")
    ev = human_events.wait(event_of("challengeDeclined", cid3), "challengeDeclined")
    check(ev["challenge"].get("declineReasonKey") == "timecontrol" and isinstance(ev["challenge"].get("declineReason"), str),
          "the challenger gets challengeDeclined: declineReasonKey timecontrol (Lichess's lower-case key), declineReason")

    # 4. A second bot with matchmaking (Matchmaking.challenge / choose_opponent / create_challenge).
    mm = LichessBot(base, tokens["LbMatch"])
    mm_profile, mm_events = start_like_lichess_bot(mm, "LbMatch", "lbmatch")
    r = mm.online_bots()
    check(r.status_code == 200, f"GET /api/bot/online?nb=512: 200 (lichess allows nb up to 512) ({r.text[:120]})")
    # get_online_bots: the text split on newlines, every non-empty line JSON.
    bots = [json.loads(line) for line in r.text.split("\n") if line]
    by_name = {b.get("username"): b for b in bots}
    check(set(by_name) == {"LbBot", "LbMatch"}, f"online bots: LbBot and LbMatch ({sorted(by_name)})")
    lb = by_name.get("LbBot", {})
    # choose_opponent.is_suitable_opponent: username, perfs[game_type].games > 0, perfs[game_type].rating.
    check(not problems(lb, {"id": STR, "username": STR, "title": STR, "perfs": {"bullet": PERF}})
          and lb["perfs"]["bullet"]["games"] >= 1,
          f"online bots: LbBot with perfs.bullet.games ≥ 1 (its rated bullet game) and a rating "
          f"({problems(lb, {'perfs': {'bullet': PERF}})})")
    r = mm.public_data("LbBot")
    data = json_of(r, "GET /api/user/LbBot")
    # choose_opponent: bot_profile.get("blocking").
    check(data.get("username") == "LbBot" and isinstance(data.get("blocking", False), bool),
          "GET /api/user/{name}: the public data, blocking absent or a boolean")
    # lichess-bot reads nothing else here; lichess's UserExtended requires url, and playing is a game's URL.
    check_shape(data, {"id": STR, "username": STR, "url": STR, "playing?": STR, "title?": STR},
                "GET /api/user/{name}: url, and playing (when there) a URL string, as lichess documents")
    payload = {"rated": False, "variant": "standard", "clock.limit": 60, "clock.increment": 1}
    r = mm.challenge("LbBot", payload)
    made = json_of(r, "POST /api/challenge/LbBot with a JSON body")
    check(isinstance(made.get("id"), str) and made.get("rated") is False and made.get("timeControl", {}).get("limit") == 60,
          "matchmaking's JSON challenge: an id, casual, 1+1")
    mid = made["id"]
    # lichess_bot_main reads the bot's own outgoing challenge too (model.Challenge, then from_self).
    own = mm_events.wait(event_of("challenge", mid), "LbMatch's own challenge event")
    check(own["challenge"].get("direction") == "out" and own["challenge"]["challenger"].get("title") == "BOT",
          "LbMatch sees its own challenge (direction out, challenger title BOT)")
    if own["challenge"].get("color") == "random":
        check(own["challenge"].get("finalColor") in ("white", "black"),
              "LbMatch's own challenge event: color random comes with finalColor")
    ev = events.wait(event_of("challenge", mid), "the matchmaking challenge")
    check_shape(ev["challenge"], CHALLENGE, "LbBot: the bot's challenge has what model.Challenge reads")
    check(ev["challenge"]["challenger"].get("title") == "BOT", "LbBot: the challenger has the title BOT")
    # The bot declines it: "later" (too many recent games with this bot).
    json_of(bot.playing(), "GET /api/account/playing")
    check(bot.decline(mid, "later").status_code == 200, "LbBot declines: reason=later")
    ev = mm_events.wait(event_of("challengeDeclined", mid), "challengeDeclined")
    # Matchmaking.declined_challenge: event.challenge.declineReason and .declineReasonKey (lower-cased there).
    check(ev["challenge"].get("declineReasonKey") == "later" and isinstance(ev["challenge"].get("declineReason"), str)
          and not problems(ev["challenge"], CHALLENGE),
          f"LbMatch gets challengeDeclined with declineReason, declineReasonKey later, and the challenge's fields "
          f"({problems(ev['challenge'], CHALLENGE)})")

    # Another one, left unanswered, cancelled by should_create_challenge after its delay.
    made = json_of(mm.challenge("LbBot", payload), "POST /api/challenge/LbBot")
    mid = made["id"]
    events.wait(event_of("challenge", mid), "the second matchmaking challenge")
    json_of(bot.playing(), "GET /api/account/playing")
    r = mm.cancel(mid)
    check(r.status_code == 200, f"POST /api/challenge/{{id}}/cancel: 200 ({r.text})")
    ev = events.wait(event_of("challengeCanceled", mid), "challengeCanceled")
    check(ev["challenge"].get("id") == mid, "LbBot gets challengeCanceled with challenge.id (lichess_bot_main)")

    # A third, accepted and played between the two bots until one resigns.
    made = json_of(mm.challenge("LbBot", payload), "POST /api/challenge/LbBot")
    mid = made["id"]
    _, game = accept_like_lichess_bot(bot, events, mid, "LbBot")
    check(game["opponent"]["username"] == "LbMatch", "gameStart: the opponent is LbMatch")
    mm_start = mm_events.wait(event_of("gameStart", mid), "LbMatch's gameStart")
    check(mm_start["game"]["id"] == mid, "LbMatch's gameStart has the challenge's id (Matchmaking.accepted_challenge)")
    s1, full = open_game(bot, mid, "LbBot", "LbBot", "LbMatch")
    s2, _ = open_game(mm, mid, "LbMatch", "LbMatch", "LbBot")
    check(full["white"].get("title") == "BOT" and full["black"].get("title") == "BOT", "bot vs bot: both titled BOT")
    white, black = (bot, mm) if full["white"]["name"] == "LbBot" else (mm, bot)
    board = chess.Board()
    # White offers a draw with its second move; black, whose engine agrees, answers as lichess-bot does: with its
    # move and offeringDraw=true (engine_wrapper.offer_draw_or_resign -> Lichess.make_move; lichess-bot has no
    # other way to agree). Lichess documents offeringDraw as "Whether to offer (or agree to) a draw"; lila agrees to
    # the pending offer first, so the game ends drawn and the move is not played.
    for i, who in enumerate((white, black, white, black)):
        mv = sorted(board.legal_moves, key=lambda m: m.uci())[0]
        ok_json(who.move(mid, mv.uci(), draw=i >= 2), f"bot move {mv.uci()}, offeringDraw={str(i >= 2).lower()}")
        if i < 3:
            board.push(mv)
        moves = " ".join(m.uci() for m in board.move_stack)
        for s in (s1, s2):
            st = s.wait(state_where(lambda e, m=moves: e.get("moves") == m), f"gameState {moves}")
        if i == 2:
            check(st.get("wdraw") is True, "white's move with offeringDraw=true: wdraw")
    check(st["status"] == "draw" and "winner" not in st,
          f"black's move with offeringDraw=true agrees to white's pending offer: a draw (got {st['status']}, "
          f"wdraw {st.get('wdraw')}, bdraw {st.get('bdraw')})")
    agreed = st["status"] != "started"
    if not agreed:  # not agreed: end it so the rest can run
        ok_json(white.resign(mid), "POST /api/bot/game/{id}/resign")
    for s in (s1, s2):
        if not agreed:
            s.wait(state_where(lambda e: e.get("status") != "started"), "the end")
        s.wait_end("after the end")
    check(True, "both bots' game streams end")

    # A fourth, accepted and then aborted for lack of activity (should_exit_game -> Lichess.abort).
    made = json_of(mm.challenge("LbBot", payload), "POST /api/challenge/LbBot")
    mid = made["id"]
    accept_like_lichess_bot(bot, events, mid, "LbBot")
    s1, full = open_game(bot, mid, "LbBot", "LbBot", "LbMatch")
    ok_json(bot.abort(mid), "POST /api/bot/game/{id}/abort")
    st = s1.wait(state_where(lambda e: e.get("status") != "started"), "aborted")
    check(st["status"] == "aborted" and "winner" not in st, "aborted, no winner")
    s1.wait_end("after the abort")

    # A challenge to a name that does not exist: handle_challenge reads the answer as JSON whatever the status.
    r = mm.challenge("nosuchbot", payload)
    check(r.status_code in (400, 404) and isinstance(r.json().get("error"), str) and "id" not in r.json(),
          f"a challenge to an unknown user: {r.status_code} with a JSON error and no id")

    # check_online_status: users/status?ids=<id>, [0].online must be true or lichess-bot restarts itself.
    st = json_of(bot.is_online("lbbot"), "GET /api/users/status")
    check(isinstance(st, list) and st and st[0].get("id") == "lbbot" and st[0].get("online") is True,
          "GET /api/users/status?ids=lbbot: online true while its event stream is open")
    # Matchmaking.update_user_profile: the profile again, with the ratings of the games played.
    profile = json_of(bot.get_profile(), "GET /api/account")
    check_shape(profile, ACCOUNT, "GET /api/account again: perfs")
    check(profile["perfs"]["bullet"]["games"] == 1, "the rated bullet game counts in perfs.bullet.games; casual ones don't")

    events.close()
    mm_events.close()
    human_events.close()
    return bot.log + mm.log


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


def main():
    binary = find_binary()
    tmp = tempfile.mkdtemp(prefix="guoxiang-lichess-bot-")
    db = f"sqlite://{tmp}/x.db"
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
    started = time.monotonic()
    try:
        scopes = {"Hugo": "board:play,challenge:read,challenge:write", "LbBot": "bot:play", "LbMatch": "bot:play"}
        tokens = {}
        for name, s in scopes.items():
            run(binary, "user", "add", name, "--password", f"{name.lower()}-password", "--database", db)
            tokens[name] = run(binary, "token", "create", name, "--scopes", s, "--database", db)
        server = subprocess.Popen(
            # --rated-bot-games: Lichess lets a bot and a person play rated; guoxiang only when the host allows it.
            [binary, "serve", "--addr", f"127.0.0.1:{port}", "--database", db, "--engine-workers", "1",
             "--rated-bot-games"],
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
        print(f"server {binary} on {base}; replaying lichess-bot {LICHESS_BOT_VERSION}'s calls", flush=True)
        calls = scenario(base, tokens)
        bad = [c for c in calls if c[2] >= 400 and "nosuchbot" not in c[1]]
        check(not bad, f"no lichess-bot call answered 4xx/5xx ({bad})")
        if failures:
            print(f"FAIL: {len(failures)} checks failed:", *failures, sep="\n  ", flush=True)
        else:
            print(f"all lichess-bot call checks passed ({len(calls)} calls, {time.monotonic() - started:.0f} s)",
                  flush=True)
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
            print("--- server log (tail) ---\n" + log.read()[-4000:], flush=True)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()

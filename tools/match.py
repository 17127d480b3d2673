#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# guoxiang (国象) — match tool: engine-vs-engine games, gauntlets and SPRT.
"""Play games between UCI / xboard engines; report W/D/L, Elo ± 95 % error, LOS, and optionally run an SPRT.

Engines
  --engine KEY=VALUE [KEY=VALUE ...]     (repeat once per engine; quote values with spaces)
      name=NAME          display name (default: first word of cmd)
      cmd=COMMAND        command line, split like a shell would (required)
      proto=uci|xboard   protocol (default uci)
      dir=PATH           working directory for the engine process
      depth=N, nodes=N   search each move to this depth / for this many nodes (uci: go depth / go nodes) instead
                         of on the clock; such an engine is off the clock (a move over 120 s still loses).
      option.NAME=VALUE  engine option, sent with setoption (uci) / option (xboard). Threads is 1 unless
                         given (Glaurung 2.2, for one, defaults to 2). An underscore in NAME
                         stands for a space when the engine has no option spelled with the underscore,
                         so option.Skill_Level=5 sets "Skill Level". "option.Skill Level=5" (quoted) works too.
  Example:
      --engine name=gx cmd="target/release/guoxiang uci" option.Skill_Level=5 option.Hash=32
      --engine name=fairymax cmd=/usr/games/fairymax proto=xboard

Pairings
  two engines:             a match, engine 1 against engine 2
  three or more engines:   a round robin, or with --gauntlet engine 1 against each of the others
  Results are always from the point of view of the first engine of a pairing.

Games and openings
  --games N is the number of games per pairing (rounded up to an even number): each opening is played twice,
  colours reversed. --book FILE reads one position per line: a full FEN, or EPD (4 fields and optional
  operations such as "id"); empty lines and lines starting with # are skipped. Openings are drawn at random
  (--seed) or in file order (--book-order sequential). Without a book (or if the file is missing, which is
  reported), every game starts from the initial position.

Time control
  --tc BASE+INC  in seconds (e.g. 10+0.1, 2+0.05, 60). The tool keeps the clocks; the engines get wtime/btime/
  winc/binc (uci) or level/time/otim (xboard). A move that takes longer than the time left plus --timemargin
  (ms, default 100) loses on time. --movetime SEC gives a fixed time per move instead (loss if a move takes
  more than SEC + margin). A stuck engine is killed after its deadline plus 5 s and loses on time.

Game end
  An engine that cannot be started or configured stops the run (the game is not counted).
  Checkmate, stalemate, insufficient material, threefold repetition and the fifty-move rule (claimed
  automatically), or a resignation by an xboard engine. Faults lose the game for the offender and are noted
  in the PGN (Termination tag plus a comment) and in the per-game line: an illegal or null move
  ("rules infraction"), a crash or protocol error ("abandoned"), overstepping the clock ("time forfeit").
  Adjudication is off by default: --resign MOVES CP (e.g. --resign 3 1000) ends the game when, for MOVES
  consecutive moves each, the losing engine reports a score <= -CP and the winning engine >= +CP;
  --draw MOVENUMBER MOVES CP (e.g. --draw 40 8 10) adjudicates a draw when, after move MOVENUMBER, both engines
  have reported scores within ±CP for MOVES consecutive moves each; --maxmoves N adjudicates a draw after N full
  moves.

Statistics (see --selftest)
  Elo = -400 log10(1/s - 1) for the score fraction s. The 95 % error bar is from the TRINOMIAL variance (each
  game a W/D/L sample, treated as independent; the interval is found on s and mapped to Elo, as cutechess-cli
  does); the PENTANOMIAL error bar (game pairs on the same opening as samples: pair scores 0, .5, 1, 1.5, 2) is
  printed alongside once pairs are complete. LOS = Phi((W - L) / sqrt(W + L)), draws ignored.
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 runs a GSPRT (generalized SPRT) on LOGISTIC Elo (the ordinary
  Elo above, not normalized Elo). The LLR is the exact multinomial one (as fishtest's LLRcalc computes it):
      LLR = n · sum_j p̂_j log(p1_j / p0_j),
  p̂ the observed frequencies, p0/p1 the maximum-likelihood distributions whose mean score is the expected
  score at elo0/elo1 (empty categories count 1e-3). It is computed on the PENTANOMIAL counts of complete
  game pairs (n pairs) and, before the first pair completes, on the trinomial counts. (The normal
  approximation LLR = n (s1-s0)(2s-s0-s1)/(2 var) is in the self-test for comparison.) Bounds: lower
  ln(beta/(1-alpha)), upper ln((1-beta)/alpha). The run stops when the LLR crosses a bound (H1: engine 1 is
  elo1 stronger; H0: elo0) or after --games games; games in progress are finished and counted.
  Exactly two engines.

Output
  a line per finished game and a running score; a final table; --pgn FILE gets every game as it finishes
  (tags FEN/SetUp, TimeControl, Termination, PlyCount; each move commented with score/depth and time used).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import logging
import math
import os
import random
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.exit("match.py needs python-chess: python3 -m pip install chess==1.11.2")

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal distribution


# ----------------------------------------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------------------------------------

def elo_from_score(s: float) -> float:
    """Logistic Elo difference for a score fraction s in (0, 1)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def trinomial(w: int, d: int, l: int) -> Tuple[int, float, float]:
    """(games, mean score, variance of one game's score)."""
    n = w + d + l
    if n == 0:
        return 0, 0.5, 0.0
    s = (w + 0.5 * d) / n
    var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    return n, s, var


def pentanomial(p: List[int]) -> Tuple[int, float, float]:
    """p = counts of pair scores [0, 0.5, 1, 1.5, 2] (LL, LD, DD or WL, WD, WW).
    Returns (pairs, mean score per game, variance of the per-game mean score of one pair)."""
    n = sum(p)
    if n == 0:
        return 0, 0.5, 0.0
    vals = [0.0, 0.25, 0.5, 0.75, 1.0]
    s = sum(c * v for c, v in zip(p, vals)) / n
    var = sum(c * (v - s) ** 2 for c, v in zip(p, vals)) / n
    return n, s, var


def elo_with_error(n: int, s: float, var: float) -> Tuple[float, float]:
    """Elo and half-width of its 95 % interval, the interval being s ± z·sqrt(var/n) mapped to Elo."""
    elo = elo_from_score(s)
    if n == 0 or not math.isfinite(elo):
        return elo, math.inf
    half = Z95 * math.sqrt(var / n)
    lo, hi = s - half, s + half
    if lo <= 0.0 or hi >= 1.0:
        return elo, math.inf
    return elo, (elo_from_score(hi) - elo_from_score(lo)) / 2.0


def los(w: int, l: int) -> float:
    """Likelihood of superiority, Phi((W-L)/sqrt(W+L)); 0.5 when W = L = 0."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def gsprt_llr(n: int, s: float, var: float, elo0: float, elo1: float) -> float:
    """Normal approximation of the generalized LLR for H1: elo = elo1 against H0: elo = elo0 (logistic Elo)."""
    if n == 0 or var <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)


def _mle(vals: List[float], probs: List[float], s: float) -> Optional[List[float]]:
    """The distribution on vals closest to probs (maximum likelihood) whose mean is s:
    p_j = probs_j / (1 + lam (vals_j - s)), lam found by bisection (Van den Bergh's method, as in fishtest)."""
    d = [v - s for v in vals]
    if max(d) <= 0.0 or min(d) >= 0.0:
        return None
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    for _ in range(200):
        lam = (lo + hi) / 2.0
        f = sum(p * dj / (1.0 + lam * dj) for p, dj in zip(probs, d))
        if f > 0.0:
            lo = lam
        else:
            hi = lam
    lam = (lo + hi) / 2.0
    return [p / (1.0 + lam * dj) for p, dj in zip(probs, d)]


def gsprt_llr_exact(counts: List[float], elo0: float, elo1: float) -> float:
    """Generalized LLR of H1 (elo1) against H0 (elo0), logistic Elo, for trinomial counts [L, D, W] or
    pentanomial counts [0, .5, 1, 1.5, 2]: n · sum p̂ log(p1/p0), p0/p1 the MLE distributions with
    mean score s0/s1. Empty categories count 1e-3 (fishtest's regularization)."""
    counts = [max(c, 1e-3) for c in counts]
    n = sum(counts)
    k = len(counts)
    vals = [j / (k - 1) for j in range(k)]
    probs = [c / n for c in counts]
    p0 = _mle(vals, probs, score_from_elo(elo0))
    p1 = _mle(vals, probs, score_from_elo(elo1))
    if p0 is None or p1 is None:
        return 0.0
    return n * sum(p * math.log(a / b) for p, a, b in zip(probs, p1, p0))


def fmt_elo(e: float, err: float) -> str:
    def one(x: float) -> str:
        x = 0.0 if abs(x) < 0.05 else x  # no "-0.0"
        return ("+inf" if x > 0 else "-inf") if not math.isfinite(x) else f"{x:+.1f}"
    return f"{one(e)} ± {'inf' if not math.isfinite(err) else f'{err:.1f}'}"


def selftest() -> int:
    """Checks the statistics against values worked out by hand or taken from published tables."""
    fails = 0

    def check(what: str, got: float, want: float, tol: float) -> None:
        nonlocal fails
        ok = abs(got - want) <= tol
        fails += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {what}: got {got:.6f}, expected {want:.6f} (tolerance {tol})")

    print("self-test of the statistics:")
    # Elo of a score fraction: -400 log10(1/s - 1). Chessprogramming wiki "Match Statistics" / FIDE tables:
    # 60 % -> +70.4 Elo (FIDE's table gives 72 for p = .60 under the normal model; the logistic value is 70.44),
    # 75 % -> 400 log10(3) = +190.85, 90 % -> 400 log10(9) = +381.70, 50 % -> 0.
    check("Elo(0.60)", elo_from_score(0.60), 70.437, 0.001)
    check("Elo(0.75)", elo_from_score(0.75), 190.849, 0.001)
    check("Elo(0.90)", elo_from_score(0.90), 381.697, 0.001)
    check("Elo(0.50)", elo_from_score(0.50), 0.0, 1e-9)
    check("Elo(0.25) = -Elo(0.75)", elo_from_score(0.25), -190.849, 0.001)
    check("score(Elo 70.437)", score_from_elo(70.437), 0.60, 1e-5)
    # Trinomial error bar, worked by hand: W=30 D=40 L=30 (n=100): s=0.5, var=(30·.25+30·.25)/100=0.15,
    # half-width = 1.95996·sqrt(0.15/100) = 0.075907, Elo(0.575907) = 400·log10(0.575907/0.424093) = 53.15.
    n, s, var = trinomial(30, 40, 30)
    check("trinomial var (30,40,30)", var, 0.15, 1e-12)
    check("Elo error (30,40,30)", elo_with_error(n, s, var)[1], 53.15, 0.05)
    # W=60 D=0 L=40: s=0.6, var=(60·0.16+40·0.36)/100=0.24, half=1.95996·sqrt(0.0024)=0.096018
    # -> s in [0.503982, 0.696018] -> Elo +2.77 .. +143.91 -> ±70.57 (hand computation).
    n, s, var = trinomial(60, 0, 40)
    check("Elo (60,0,40)", elo_with_error(n, s, var)[0], 70.437, 0.001)
    check("Elo error (60,0,40)", elo_with_error(n, s, var)[1], 70.57, 0.01)
    # Pentanomial: 10 pairs all 1-1 (WL or DD) -> s=0.5, var=0: no error; pairs [1,0,0,0,1] -> var=0.25.
    check("pentanomial var [0,0,10,0,0]", pentanomial([0, 0, 10, 0, 0])[2], 0.0, 1e-12)
    check("pentanomial var [1,0,0,0,1]", pentanomial([1, 0, 0, 0, 1])[2], 0.25, 1e-12)
    # LOS = Phi((W-L)/sqrt(W+L)) (chessprogramming wiki "Match Statistics"): W=L -> 0.5;
    # W=10 L=5 -> Phi(5/sqrt(15)) = Phi(1.29099) = 0.90165 (standard normal table).
    check("LOS(5,5)", los(5, 5), 0.5, 1e-12)
    check("LOS(10,5)", los(10, 5), 0.90165, 1e-4)
    # SPRT bounds (Wald): alpha=beta=0.05 -> ±ln 19 = ±2.944 (the "(-2.94, 2.94)" of fishtest/cutechess-cli).
    lo, hi = sprt_bounds(0.05, 0.05)
    check("SPRT lower bound", lo, -2.944439, 1e-6)
    check("SPRT upper bound", hi, 2.944439, 1e-6)
    # GSPRT LLR, worked by hand for (30,40,30) with elo0=0, elo1=5: s0=0.5, s1=score(5)=0.5071951,
    # LLR = 100·0.0071951·(1 - 0.5 - 0.5071951)/(2·0.15) = -0.017256.
    n, s, var = trinomial(30, 40, 30)
    check("GSPRT LLR (30,40,30) [0,5]", gsprt_llr(n, s, var, 0.0, 5.0), -0.017256, 2e-6)
    # A clear superiority: 1000 games at 55 % (W=400 D=300 L=300; var=(400·.2025+300·.0025+300·.3025)/1000
    # = 0.1725) for [0,5]: s1-s0=0.0071951, 2s-s0-s1=0.0928049, LLR = 1000·0.0071951·0.0928049/0.345 = 1.9355.
    n, s, var = trinomial(400, 300, 300)
    check("GSPRT LLR (400,300,300) [0,5]", gsprt_llr(n, s, var, 0.0, 5.0), 1.9355, 2e-4)
    # The exact (MLE) GSPRT LLR used by --sprt agrees with the normal approximation on large samples (within
    # 2 %: 1.909 against 1.935 here) ...
    check("exact GSPRT LLR (400,300,300) [0,5]", gsprt_llr_exact([300, 300, 400], 0.0, 5.0), 1.9355, 0.04)
    check("exact GSPRT LLR (30,40,30) [0,5]", gsprt_llr_exact([30, 40, 30], 0.0, 5.0), -0.017256, 2e-4)
    # ... and stays small on tiny ones where the approximation breaks down (one lost game; one lost pair).
    # Expected values: log-likelihood ratios of a handful of games are of order 0.1 (a loss is at most
    # log(L1/L0) for the loss probabilities under the two hypotheses); check only |LLR| < 0.2.
    check("|exact LLR| one loss [0,5]", abs(gsprt_llr_exact([1, 0, 0], 0.0, 5.0)) < 0.2, 1.0, 0.0)
    check("|exact LLR| one lost pair [0,5]", abs(gsprt_llr_exact([1, 0, 0, 0, 0], 0.0, 5.0)) < 0.2, 1.0, 0.0)
    # Pentanomial with all categories: must have the sign of the score (55 % per pair -> positive).
    check("exact LLR sign, pentanomial 55%", gsprt_llr_exact([10, 40, 80, 50, 20], 0.0, 5.0) > 0, 1.0, 0.0)
    print("self-test:", "PASSED" if fails == 0 else f"{fails} FAILED")
    return 0 if fails == 0 else 1


# ----------------------------------------------------------------------------------------------------------
# Engines and games
# ----------------------------------------------------------------------------------------------------------

@dataclass
class EngineSpec:
    name: str
    cmd: List[str]
    proto: str = "uci"
    dir: Optional[str] = None
    options: Dict[str, str] = field(default_factory=dict)
    depth: Optional[int] = None
    nodes: Optional[int] = None


def parse_engine(tokens: List[str]) -> EngineSpec:
    kv: Dict[str, str] = {}
    options: Dict[str, str] = {}
    for tok in tokens:
        if "=" not in tok:
            raise SystemExit(f"--engine: expected KEY=VALUE, got {tok!r}")
        key, value = tok.split("=", 1)
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in ("name", "cmd", "proto", "dir", "depth", "nodes"):
            kv[key] = value
        else:
            raise SystemExit(f"--engine: unknown key {key!r} (name, cmd, proto, dir, depth, nodes, option.NAME)")
    if "cmd" not in kv:
        raise SystemExit("--engine: cmd=... is required")
    cmd = shlex.split(kv["cmd"])
    proto = kv.get("proto", "uci").lower()
    if proto not in ("uci", "xboard"):
        raise SystemExit(f"--engine: proto must be uci or xboard, not {proto!r}")
    name = kv.get("name") or os.path.basename(cmd[0])
    limits: Dict[str, Optional[int]] = {}
    for key in ("depth", "nodes"):
        limits[key] = None
        if key in kv:
            try:
                limits[key] = int(kv[key])
            except ValueError:
                raise SystemExit(f"--engine: {key}={kv[key]!r} is not a whole number") from None
            if limits[key] < 1:
                raise SystemExit(f"--engine: {key}= must be at least 1, not {limits[key]}")
    return EngineSpec(name, cmd, proto, kv.get("dir"), options, limits["depth"], limits["nodes"])


# A depth- or node-limited engine loses on time only if one move takes longer than this.
FIXED_LIMIT_SECONDS = 120.0

_live_engines: set = set()
_live_lock = threading.Lock()
_told_threads: set = set()


def open_engine(spec: EngineSpec, debug: bool) -> chess.engine.SimpleEngine:
    stderr = None if debug else subprocess.DEVNULL
    kwargs = {"stderr": stderr}
    if spec.dir:
        kwargs["cwd"] = spec.dir
    opener = chess.engine.SimpleEngine.popen_uci if spec.proto == "uci" else chess.engine.SimpleEngine.popen_xboard
    eng = opener(spec.cmd, **kwargs)
    with _live_lock:
        _live_engines.add(eng)
    config = {}
    for name, value in spec.options.items():
        real = name
        if name not in eng.options and name.replace("_", " ") in eng.options:
            real = name.replace("_", " ")
        if real not in eng.options:
            close_engine(eng)
            raise chess.engine.EngineError(
                f"{spec.name}: no option {name!r} (has: {', '.join(sorted(eng.options))})")
        config[real] = value
    # Games are one thread a side unless asked otherwise: some engines (Glaurung 2.2) default to more.
    if "Threads" in eng.options and "Threads" not in config:
        default = eng.options["Threads"].default
        with _live_lock:  # engines are opened once per game; say it once per engine
            tell = default != 1 and spec.name not in _told_threads
            _told_threads.add(spec.name)
        if tell:
            print(f"{spec.name}: Threads set to 1 (its default is {default}); give option.Threads=N to change it",
                  file=sys.stderr)
        config["Threads"] = 1
    if config:
        eng.configure(config)
    return eng


def close_engine(eng: chess.engine.SimpleEngine) -> None:
    with _live_lock:
        _live_engines.discard(eng)
    try:
        eng.quit()
    except Exception:
        try:
            eng.close()
        except Exception:
            pass


def kill_engine(eng: chess.engine.SimpleEngine) -> None:
    try:
        eng.protocol.loop.call_soon_threadsafe(eng.transport.kill)
    except Exception:
        pass


class StartupError(RuntimeError):
    """An engine could not be started or configured: the run stops, the game is not counted."""


@dataclass
class TimeControl:
    base: Optional[float] = None
    inc: float = 0.0
    movetime: Optional[float] = None
    margin: float = 0.1

    def pgn(self) -> str:
        if self.movetime is not None:
            return f"1/{self.movetime:g}"
        return f"{self.base:g}+{self.inc:g}" if self.inc else f"{self.base:g}"


@dataclass
class GameResult:
    result: str                   # "1-0", "0-1", "1/2-1/2"
    termination: str              # PGN Termination tag value
    reason: str                   # human-readable
    offender: Optional[str]       # engine name for faults (illegal move, crash, time)
    fault: Optional[str]          # "illegal move" | "crash" | "time" | None
    plies: int
    pgn: str


def play_game(white: EngineSpec, black: EngineSpec, fen: Optional[str], tc: TimeControl, args,
              round_no: str) -> GameResult:
    board = chess.Board(fen) if fen else chess.Board()
    game = chess.pgn.Game()
    game.headers["Event"] = args.event
    game.headers["Site"] = os.uname().nodename
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = round_no
    game.headers["White"] = white.name
    game.headers["Black"] = black.name
    if fen:
        game.setup(board)
    game.headers["TimeControl"] = tc.pgn()
    node = game
    specs = {chess.WHITE: white, chess.BLACK: black}
    engines: Dict[bool, chess.engine.SimpleEngine] = {}
    clocks = {chess.WHITE: tc.base or 0.0, chess.BLACK: tc.base or 0.0}
    lose_streak = {chess.WHITE: 0, chess.BLACK: 0}
    win_streak = {chess.WHITE: 0, chess.BLACK: 0}
    draw_streak = {chess.WHITE: 0, chess.BLACK: 0}
    gid = object()

    def finish(result: str, termination: str, reason: str, offender=None, fault=None) -> GameResult:
        game.headers["Result"] = result
        game.headers["Termination"] = termination
        game.headers["PlyCount"] = str(len(board.move_stack))
        node.comment = (node.comment + " " if node.comment else "") + reason
        exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
        return GameResult(result, termination, reason, offender, fault, len(board.move_stack), game.accept(exporter))

    def loss_for(side: bool) -> str:
        return "0-1" if side == chess.WHITE else "1-0"

    try:
        for side in (chess.WHITE, chess.BLACK):
            try:
                engines[side] = open_engine(specs[side], args.debug)
            except Exception as err:  # a set-up problem (command, option, protocol): stop the run
                raise StartupError(f"{specs[side].name} failed to start: {err!r}") from err
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                why = outcome.termination.name.lower().replace("_", " ")
                if outcome.winner is not None:
                    why = f"{'White' if outcome.winner else 'Black'} mates"
                return finish(outcome.result(), "normal", why)
            if args.maxmoves and board.fullmove_number > args.maxmoves:
                return finish("1/2-1/2", "adjudication", f"draw by adjudication after {args.maxmoves} moves")
            side = board.turn
            spec, eng = specs[side], engines[side]
            fixed = spec.depth is not None or spec.nodes is not None
            if fixed:
                # A depth- or node-limited engine is off the clock (it gets `go depth N` / `go nodes N`).
                limit = chess.engine.Limit(depth=spec.depth, nodes=spec.nodes)
                allowed = FIXED_LIMIT_SECONDS
            elif tc.movetime is not None:
                limit = chess.engine.Limit(time=tc.movetime)
                allowed = tc.movetime + tc.margin
            else:
                limit = chess.engine.Limit(white_clock=max(clocks[chess.WHITE], 0.001),
                                           black_clock=max(clocks[chess.BLACK], 0.001),
                                           white_inc=tc.inc, black_inc=tc.inc)
                allowed = clocks[side] + tc.margin
            watchdog = threading.Timer(allowed + 5.0, kill_engine, (eng,))
            watchdog.daemon = True
            t0 = time.monotonic()
            watchdog.start()
            try:
                res = eng.play(board, limit, info=chess.engine.INFO_SCORE, game=gid)
            except chess.engine.EngineTerminatedError as err:
                elapsed = time.monotonic() - t0
                if elapsed > allowed:
                    return finish(loss_for(side), "time forfeit",
                                  f"{spec.name} loses on time (no move after {elapsed:.2f}s; killed)",
                                  spec.name, "time")
                return finish(loss_for(side), "abandoned", f"{spec.name} crashed ({err or 'terminated'})",
                              spec.name, "crash")
            except chess.engine.EngineError as err:
                msg = str(err)
                if "illegal" in msg.lower() or "invalid" in msg.lower() or "expected" in msg.lower():
                    return finish(loss_for(side), "rules infraction", f"{spec.name} plays an illegal move: {msg}",
                                  spec.name, "illegal move")
                return finish(loss_for(side), "abandoned", f"{spec.name}: protocol error: {msg}",
                              spec.name, "crash")
            finally:
                watchdog.cancel()
            elapsed = time.monotonic() - t0
            if res.resigned:
                return finish(loss_for(side), "normal", f"{spec.name} resigns")
            move = res.move
            if move is None or move not in board.legal_moves:
                return finish(loss_for(side), "rules infraction",
                              f"{spec.name} plays an illegal move: {move.uci() if move else 'none'}",
                              spec.name, "illegal move")
            if elapsed > allowed:
                return finish(loss_for(side), "time forfeit",
                              f"{spec.name} loses on time ({elapsed:.3f}s used, {allowed - tc.margin:.3f}s left)",
                              spec.name, "time")
            if tc.movetime is None and not fixed:
                clocks[side] += tc.inc - elapsed
            board.push(move)
            node = node.add_variation(move)
            score = res.info.get("score")
            depth = res.info.get("depth")
            comment = f"{elapsed:.2f}s"
            if score is not None:
                pov = score.pov(side)
                if pov.is_mate():
                    stext = f"{'+' if pov.mate() > 0 else '-'}M{abs(pov.mate())}"
                else:
                    stext = f"{pov.score() / 100:+.2f}"
                comment = f"{stext}/{depth if depth is not None else 0} {comment}"
                cp = pov.score(mate_score=100000)
                if args.resign:
                    lose_streak[side] = lose_streak[side] + 1 if cp <= -args.resign[1] else 0
                    win_streak[side] = win_streak[side] + 1 if cp >= args.resign[1] else 0
                if args.draw:
                    draw_streak[side] = draw_streak[side] + 1 if abs(cp) <= args.draw[2] else 0
            else:
                lose_streak[side] = win_streak[side] = draw_streak[side] = 0
            node.comment = comment
            if args.resign:
                moves = args.resign[0]
                for s in (chess.WHITE, chess.BLACK):
                    if lose_streak[s] >= moves and win_streak[not s] >= moves:
                        return finish(loss_for(s), "adjudication",
                                      f"{specs[s].name} resigns (adjudication: {moves} moves at <= -{args.resign[1]} cp)")
            if args.draw:
                number, moves, cp = args.draw
                if (board.fullmove_number > number and draw_streak[chess.WHITE] >= moves
                        and draw_streak[chess.BLACK] >= moves):
                    return finish("1/2-1/2", "adjudication",
                                  f"draw by adjudication ({moves} moves each within {cp} cp after move {number})")
    finally:
        for eng in engines.values():
            close_engine(eng)


# ----------------------------------------------------------------------------------------------------------
# Bookkeeping
# ----------------------------------------------------------------------------------------------------------

@dataclass
class Pairing:
    a: EngineSpec
    b: EngineSpec
    w: int = 0
    d: int = 0
    l: int = 0
    penta: List[int] = field(default_factory=lambda: [0] * 5)
    pending: Dict[int, float] = field(default_factory=dict)   # opening pair -> first game's score for a
    faults: List[str] = field(default_factory=list)

    def add(self, pair_id: int, score_a: float) -> None:
        if score_a == 1.0:
            self.w += 1
        elif score_a == 0.0:
            self.l += 1
        else:
            self.d += 1
        if pair_id in self.pending:
            total = self.pending.pop(pair_id) + score_a
            self.penta[int(round(total * 2))] += 1
        else:
            self.pending[pair_id] = score_a

    def games(self) -> int:
        return self.w + self.d + self.l

    def elo_tri(self) -> Tuple[float, float]:
        return elo_with_error(*trinomial(self.w, self.d, self.l))

    def elo_penta(self) -> Tuple[float, float]:
        return elo_with_error(*pentanomial(self.penta))

    def summary(self) -> str:
        n, s, _ = trinomial(self.w, self.d, self.l)
        e, err = self.elo_tri()
        return (f"Score of {self.a.name} vs {self.b.name}: {self.w} - {self.l} - {self.d} (W-L-D)  "
                f"[{s:.3f}] {n}  Elo {fmt_elo(e, err)}  LOS {100 * los(self.w, self.l):.1f}%")


def parse_position(line: str) -> Optional[str]:
    """A FEN, or an EPD line (4 fields and operations), as a FEN; None if invalid or already over."""
    try:
        board = chess.Board(line)
    except ValueError:
        try:
            board, _ = chess.Board.from_epd(line)
        except ValueError:
            return None
    if not board.is_valid() or board.outcome() is not None:
        return None
    return board.fen()


def load_book(path: Optional[str]) -> List[str]:
    """The book's lines (parsed lazily, when an opening is chosen: books can hold 100 000s of lines)."""
    if not path:
        print("no --book: every game starts from the initial position")
        return []
    if not os.path.exists(path):
        print(f"book {path} not found: every game starts from the initial position")
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    print(f"book {path}: {len(lines)} lines")
    return lines


def choose_openings(book: List[str], count: int, order: str, rng: random.Random) -> List[Optional[str]]:
    if not book:
        return [None] * count
    chosen: List[Optional[str]] = []
    i = 0
    tries = 0
    while len(chosen) < count:
        tries += 1
        if tries > 10 * count + 1000:
            raise SystemExit("the book has too few valid positions")
        if order == "sequential":
            line = book[i % len(book)]
            i += 1
        else:
            line = rng.choice(book)
        fen = parse_position(line)
        if fen is None:
            print(f"book: skipping an invalid line: {line[:80]!r}")
        else:
            chosen.append(fen)
    return chosen


def parse_tc(text: str) -> TimeControl:
    try:
        if "+" in text:
            base, inc = text.split("+", 1)
            return TimeControl(base=float(base), inc=float(inc))
        return TimeControl(base=float(text))
    except ValueError:
        raise SystemExit(f"--tc: expected BASE[+INC] in seconds, got {text!r}")


def parse_sprt(tokens: List[str]) -> Dict[str, float]:
    p = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    for tok in tokens:
        key, _, value = tok.partition("=")
        if key not in p or not value:
            raise SystemExit(f"--sprt: expected elo0=, elo1=, alpha=, beta=, got {tok!r}")
        p[key] = float(value)
    if p["elo1"] <= p["elo0"]:
        raise SystemExit("--sprt: elo1 must be greater than elo0")
    return p


def sprt_state(p: Pairing, sp: Dict[str, float]) -> Tuple[float, float, float]:
    if sum(p.penta):
        llr = gsprt_llr_exact(p.penta, sp["elo0"], sp["elo1"])
    else:
        llr = gsprt_llr_exact([p.l, p.d, p.w], sp["elo0"], sp["elo1"])
    lo, hi = sprt_bounds(sp["alpha"], sp["beta"])
    return llr, lo, hi


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 usage="%(prog)s --engine KEY=VALUE... --engine KEY=VALUE... [options]")
    ap.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE", default=[],
                    help="an engine: name=, cmd=, proto=uci|xboard, dir=, option.NAME=VALUE (see above)")
    ap.add_argument("--tc", help="time control BASE+INC in seconds, e.g. 10+0.1")
    ap.add_argument("--movetime", type=float, help="fixed seconds per move instead of --tc")
    ap.add_argument("--timemargin", type=int, default=100, help="ms of grace over the clock (default 100)")
    ap.add_argument("--games", type=int, default=2, help="games per pairing (made even; default 2)")
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    ap.add_argument("--book", help="EPD/FEN openings file")
    ap.add_argument("--book-order", choices=("random", "sequential"), default="random")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random opening choice (default 1)")
    ap.add_argument("--gauntlet", action="store_true", help="engine 1 against each other engine")
    ap.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                    help="elo0= elo1= alpha= beta= (defaults 0 5 0.05 0.05); logistic-Elo GSPRT")
    ap.add_argument("--resign", nargs=2, type=int, metavar=("MOVES", "CP"),
                    help="resign adjudication: both engines agree for MOVES moves on a score beyond CP")
    ap.add_argument("--draw", nargs=3, type=int, metavar=("MOVENUMBER", "MOVES", "CP"),
                    help="draw adjudication: after MOVENUMBER, both engines report |score| <= CP for MOVES moves each")
    ap.add_argument("--maxmoves", type=int, help="adjudicate a draw after this many full moves")
    ap.add_argument("--pgn", help="write the games to this PGN file (appended)")
    ap.add_argument("--event", default="guoxiang match", help="PGN Event tag")
    ap.add_argument("--debug", action="store_true", help="show engine stderr and python-chess warnings")
    ap.add_argument("--selftest", action="store_true", help="check the statistics and exit")
    args = ap.parse_args()

    if args.selftest:
        return selftest()
    if not args.debug:
        logging.getLogger("chess.engine").setLevel(logging.CRITICAL)
    specs = [parse_engine(t) for t in args.engine]
    if len(specs) < 2:
        ap.error("at least two --engine are needed")
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        ap.error(f"engine names must be distinct: {names}")
    if (args.tc is None) == (args.movetime is None):
        ap.error("give exactly one of --tc and --movetime")
    tc = parse_tc(args.tc) if args.tc else TimeControl(movetime=args.movetime)
    tc.margin = args.timemargin / 1000.0
    if args.concurrency < 1:
        ap.error("--concurrency must be at least 1")
    if args.concurrency > (os.cpu_count() or 1):
        print(f"warning: --concurrency {args.concurrency} is more than the {os.cpu_count()} cores")
    games = max(2, args.games + args.games % 2)

    if args.gauntlet:
        pairings = [Pairing(specs[0], s) for s in specs[1:]]
    else:
        pairings = [Pairing(specs[i], specs[j]) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    sprt = parse_sprt(args.sprt) if args.sprt else None
    if sprt and len(pairings) != 1:
        ap.error("--sprt needs exactly two engines")

    book = load_book(args.book)
    rng = random.Random(args.seed)
    npairs = games // 2
    openings = choose_openings(book, npairs, args.book_order, rng)

    # The schedule: for each opening, each pairing plays it twice, colours reversed.
    jobs = []
    for k, fen in enumerate(openings):
        for pi, p in enumerate(pairings):
            jobs.append((pi, k, fen, False))  # a has white
            jobs.append((pi, k, fen, True))   # b has white
    total = len(jobs)
    print(f"{len(pairings)} pairing(s), {games} games each, {total} games, "
          f"tc {tc.pgn()} (margin {args.timemargin} ms), concurrency {args.concurrency}")
    if sprt:
        lo, hi = sprt_bounds(sprt["alpha"], sprt["beta"])
        print(f"SPRT: elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} beta={sprt['beta']:g}, "
              f"bounds [{lo:.2f}, {hi:.2f}] (logistic Elo, GSPRT)")

    pgn_file = open(args.pgn, "a", encoding="utf-8") if args.pgn else None
    finished = 0
    stop_reason = None
    job_iter = iter(enumerate(jobs, 1))
    inflight: Dict[concurrent.futures.Future, tuple] = {}
    t_start = time.monotonic()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency)
    try:
        while True:
            while stop_reason is None and len(inflight) < args.concurrency:
                nxt = next(job_iter, None)
                if nxt is None:
                    break
                gno, (pi, k, fen, flip) = nxt
                p = pairings[pi]
                white, black = (p.b, p.a) if flip else (p.a, p.b)
                fut = pool.submit(play_game, white, black, fen, tc, args, f"{k + 1}.{2 if flip else 1}")
                inflight[fut] = (gno, pi, k, fen, flip)
            if not inflight:
                break
            done, _ = concurrent.futures.wait(inflight, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                gno, pi, k, fen, flip = inflight.pop(fut)
                p = pairings[pi]
                white, black = (p.b, p.a) if flip else (p.a, p.b)
                try:
                    r = fut.result()
                except StartupError as err:
                    print(f"game {gno}: {err}; not counted, stopping", flush=True)
                    stop_reason = str(err)
                    continue
                except Exception as err:  # a bug in this tool, not a fault of an engine
                    print(f"game {gno}: internal error {err!r}; not counted", flush=True)
                    continue
                finished += 1
                score_white = {"1-0": 1.0, "0-1": 0.0}.get(r.result, 0.5)
                p.add(k, 1.0 - score_white if flip else score_white)
                if r.fault:
                    p.faults.append(f"game {gno}: {r.reason}")
                if pgn_file:
                    pgn_file.write(r.pgn + "\n\n")
                    pgn_file.flush()
                print(f"Finished game {gno} ({white.name} vs {black.name}): {r.result} {{{r.reason}}} "
                      f"[opening {k + 1}, {r.plies} plies]", flush=True)
                print("  " + p.summary(), flush=True)
                if sprt:
                    llr, lo, hi = sprt_state(p, sprt)
                    print(f"  SPRT: LLR {llr:.2f} [{lo:.2f}, {hi:.2f}]", flush=True)
                    if llr >= hi:
                        stop_reason = (f"H1 accepted: the games favour elo1={sprt['elo1']:g} over elo0={sprt['elo0']:g} "
                                       f"for {p.a.name} against {p.b.name}")
                    elif llr <= lo:
                        stop_reason = (f"H0 accepted: the games favour elo0={sprt['elo0']:g} over elo1={sprt['elo1']:g} "
                                       f"for {p.a.name} against {p.b.name}")
    except KeyboardInterrupt:
        stop_reason = "interrupted"
        print("\ninterrupted: stopping the engines", flush=True)
        with _live_lock:
            for eng in list(_live_engines):
                kill_engine(eng)
    pool.shutdown(wait=True, cancel_futures=True)
    if pgn_file:
        pgn_file.close()

    # Final report.
    print()
    print(f"{finished} games in {time.monotonic() - t_start:.0f}s" + (f"; stopped: {stop_reason}" if stop_reason else ""))
    wname = max(len(p.b.name) for p in pairings)
    print(f"{'opponent' if args.gauntlet else 'pairing':<{wname + (0 if args.gauntlet else len(pairings[0].a.name) + 4)}}"
          f"  games     W     D     L   score   Elo ± 95% (trinomial)   Elo ± 95% (pentanomial)   LOS")
    for p in pairings:
        n, s, _ = trinomial(p.w, p.d, p.l)
        label = p.b.name if args.gauntlet else f"{p.a.name} vs {p.b.name}"
        width = wname + (0 if args.gauntlet else len(pairings[0].a.name) + 4)
        pe = fmt_elo(*p.elo_penta()) if sum(p.penta) else "n/a"
        print(f"{label:<{width}}  {n:5d} {p.w:5d} {p.d:5d} {p.l:5d}  {100 * s:5.1f}%  {fmt_elo(*p.elo_tri()):>21}   "
              f"{pe:>23}   {100 * los(p.w, p.l):5.1f}%")
    for p in pairings:
        if sum(p.penta):
            print(f"{p.a.name} vs {p.b.name}: pentanomial [0, 0.5, 1, 1.5, 2] = {p.penta}")
        for f in p.faults:
            print(f"{p.a.name} vs {p.b.name}: fault: {f}")
    if sprt:
        llr, lo, hi = sprt_state(pairings[0], sprt)
        verdict = stop_reason if stop_reason and stop_reason.startswith("H") else "no decision (inconclusive)"
        print(f"SPRT (logistic Elo, elo0={sprt['elo0']:g} elo1={sprt['elo1']:g}): LLR {llr:.3f}, "
              f"bounds [{lo:.3f}, {hi:.3f}]: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Re-fits the review's expected-score curve and class thresholds against Stockfish without searching again.

    python3 tools/review_fit.py DUMP.jsonl SF.json [--k K] [--a A] [--mistake M] [--blunder B] [--check] [--grid]
        [--fit-plateau] [--fit-curve] [--fit-material] [--use-second]

DUMP.jsonl is the `review_dump` example's output (our engine's evaluation of every position of every game, and
the review made from it); SF.json (or several, comma-separated) is made by
`tools/review_agreement.py GAMES.pgn --cache SF.json` for the same games.
The tool replays the review's loss rule and classes (crates/review/src/{lib,chances}.rs) in Python for a given
curve and thresholds, so that their effect on the two acceptance figures (docs/review.md, "Agreement") can be
read off in a second:

- recall: of the moves Stockfish says lose >= 30 points, the share classed mistake, blunder or missed win;
- precision: of the moves classed blunder or missed win, the share that lose >= 15 points by Stockfish.

--fit-plateau fits the curve of chances.rs (slope k and draw margin a), --fit-curve a plain logistic (and with
--fit-material a slope that grows as material comes off), to Stockfish's expected score on the same positions
(least squares, positions where our engine sees no mate). --check compares the replayed classes (at the given constants, by default those of
chances.rs) with the classes in the dump: with the dump made at these constants they must agree, the replay
being the review's rule.
"""

import argparse
import json
import math

import chess

# The constants of crates/review/src/chances.rs, as the replay's defaults.
DEFAULTS = dict(k=0.0385, a=70.0, best_max=1.0, excellent_max=2.0, inaccuracy=4.0, mistake=8.0, blunder=30.0,
                only_gap=20.0, won=85.0, not_won=70.0)


def norm_fen(fen):
    return chess.Board(fen).fen()


def load(dump_path, sf_path, first_only=False):
    """The dump's games with Stockfish's expected score per position (`sf`, None when not in the cache).
    first_only: use the first searches only (the review without its second look at big losses)."""
    sf = {}
    for path in sf_path.split(","):
        sf.update(json.load(open(path))["positions"])
    games = []
    for line in open(dump_path):
        g = json.loads(line)
        pos = g["positions"]
        for p in pos:
            if first_only and p.get("first"):
                p.update(p["first"])
            board = chess.Board(p["fen"])
            if board.is_checkmate():
                p["sf"] = 0.0
            elif board.is_game_over():
                p["sf"] = 50.0
            else:
                hit = sf.get(board.fen())
                p["sf"] = hit[0] if hit else None
            p["ply"] = (board.fullmove_number - 1) * 2 + (board.turn == chess.BLACK)
            p["material"] = sum(len(board.pieces(t, c)) * v for t, v in
                                ((chess.KNIGHT, 3), (chess.BISHOP, 3), (chess.ROOK, 5), (chess.QUEEN, 9))
                                for c in (chess.WHITE, chess.BLACK))
        games.append(g)
    return games


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-max(-500.0, min(500.0, x))))


def curve(p, ev, material=None):
    """Expected score (0-100) of the side an eval {cp}/{mate} is for. With `a` (cp) > 0 the curve is a win chance
    centred on +a less a loss chance centred on -a, both of slope k, halved and shifted ("draw plateau"):
    E = 50 * (1 + s(k(cp - a)) - s(k(-cp - a))); a = 0 is the plain logistic 100 * s(k cp)."""
    if "mate" in ev:
        return 100.0 if ev["mate"] > 0 else 0.0
    cp = max(-4000, min(4000, ev["cp"]))
    k = p["k"]
    if material is not None and p.get("k_mat"):
        k = k + p["k_mat"] * (62 - material) / 62
    a = p.get("a", 0.0)
    if a:
        return 50.0 * (1.0 + sigmoid(k * (cp - a)) - sigmoid(k * (-cp - a)))
    return 100.0 * sigmoid(k * cp)


def classify(p, loss, engine_move, before, after, second_loss):
    if engine_move or loss < p["best_max"]:
        c = "best"
    elif loss < p["excellent_max"]:
        c = "excellent"
    elif loss < p["inaccuracy"]:
        c = "good"
    elif loss < p["mistake"]:
        c = "inaccuracy"
    elif loss < p["blunder"]:
        c = "mistake"
    else:
        c = "blunder"
    if c == "best" and engine_move and second_loss is not None and second_loss >= p["only_gap"]:
        return "only_move"
    if c in ("mistake", "blunder") and before >= p["won"] and after < p["not_won"]:
        return "missed_win"
    return c


def replay(p, games):
    """Per move with a choice: (our class, our loss, Stockfish's loss or None, game, ply)."""
    out = []
    for g in games:
        pos = g["positions"]
        mat = (lambda q: q["material"]) if p.get("k_mat") else (lambda q: None)
        exp = []
        for q in pos:
            exp.append(curve(p, q["eval"], mat(q)))
        for i, mv in enumerate(g["moves"]):
            jb, ja = pos[i], pos[i + 1]
            exp_after = 100.0 - exp[i + 1]
            engine_move = jb["best"] == mv["uci"]
            exp_before = max(exp[i], exp_after)
            if p.get("use_second") and not engine_move and jb["second"] and jb["second"]["uci"] == mv["uci"]:
                # The played move was the search's second line: its score from the same search.
                exp_after = min(exp_after, curve(p, jb["second"]["eval"], mat(jb)))
                exp_before = max(exp[i], exp_after)
            if jb["legal"] <= 1:
                out.append(("best", 0.0, None, g["game"], i + 1, mv["class"]))
                continue
            loss = 0.0 if engine_move else max(exp_before - exp_after, 0.0)
            second_loss = None
            if engine_move and jb["second"]:
                second_loss = max(exp_before - curve(p, jb["second"]["eval"], mat(jb)), 0.0)
            c = classify(p, loss, engine_move, exp_before, exp_after, second_loss)
            sfl = None
            if jb["sf"] is not None and ja["sf"] is not None:
                sfl = jb["sf"] - (100.0 - ja["sf"])
            out.append((c, loss, sfl, g["game"], i + 1, mv["class"], jb["legal"]))
    return out


def figures(rows):
    big = [r for r in rows if len(r) > 6 and r[2] is not None and r[2] >= 30]
    marked = [r for r in big if r[0] in ("mistake", "blunder", "missed_win")]
    ours = [r for r in rows if len(r) > 6 and r[2] is not None and r[0] in ("blunder", "missed_win")]
    confirmed = [r for r in ours if r[2] >= 15]
    n = sum(1 for r in rows if len(r) > 6 and r[2] is not None)
    return dict(moves=n, big=len(big), marked=len(marked), recall=100.0 * len(marked) / max(len(big), 1),
                ours=len(ours), confirmed=len(confirmed), precision=100.0 * len(confirmed) / max(len(ours), 1))


def show(p, games, label=""):
    rows = replay(p, games)
    f = figures(rows)
    print(f"{label} moves {f['moves']}: SF>=30 {f['big']}, marked {f['marked']} ({f['recall']:.1f}%); "
          f"our blunders {f['ours']}, SF>=15 {f['confirmed']} ({f['precision']:.1f}%)")
    return rows, f


def fit_plateau(games):
    """Least-squares fit of the curve with a draw plateau (k, a) to Stockfish's expected score."""
    pts = [(q["eval"]["cp"], q["sf"]) for g in games for q in g["positions"]
           if q["sf"] is not None and "mate" not in q["eval"] and q["legal"] > 0]
    best = None
    for ki in range(40, 400, 5):
        for a in range(0, 301, 10):
            p = dict(DEFAULTS, k=ki * 0.0001, a=float(a))
            err = sum((curve(p, {"cp": cp}) - s) ** 2 for cp, s in pts) / len(pts)
            if best is None or err < best[0]:
                best = (err, ki * 0.0001, a)
    print(f"{len(pts)} positions: least-squares plateau curve k = {best[1]:.4f}, a = {best[2]:.0f}"
          f" (rms {math.sqrt(best[0]):.2f} points)")
    return best


def fit_curve(games, with_material=False):
    pts = []
    for g in games:
        for q in g["positions"]:
            if q["sf"] is None or "mate" in q["eval"] or q["legal"] == 0:
                continue
            pts.append((q["eval"]["cp"], q["sf"], q["material"]))
    best = None
    for ki in range(20, 400):
        k = ki * 0.0001
        mats = [x * 0.0005 for x in range(-10, 21)] if with_material else [0.0]
        for km in mats:
            p = dict(DEFAULTS, k=k, k_mat=km)
            err = sum((curve(p, {"cp": cp}, m if with_material else None) - s) ** 2 for cp, s, m in pts) / len(pts)
            if best is None or err < best[0]:
                best = (err, k, km)
    print(f"{len(pts)} positions: least-squares K = {best[1]:.4f}" +
          (f", k_mat = {best[2]:.4f}" if with_material else "") + f" (rms {math.sqrt(best[0]):.2f} points)")
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("sf")
    for name, v in DEFAULTS.items():
        ap.add_argument("--" + name.replace("_", "-"), type=float, default=v)

    ap.add_argument("--fit-plateau", action="store_true")
    ap.add_argument("--use-second", action="store_true")
    ap.add_argument("--fit-curve", action="store_true")
    ap.add_argument("--fit-material", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--first-only", action="store_true", help="replay without the second, deeper searches")
    a = ap.parse_args()
    games = load(a.dump, a.sf, a.first_only)
    p = {name: getattr(a, name) for name in DEFAULTS}
    p["use_second"] = a.use_second
    p["a"] = a.a
    if a.fit_plateau:
        fit_plateau(games)
    if a.check:
        rows = replay(p, games)
        bad = [r for r in rows if r[0] != r[5]]
        print(f"replay at the given constants: {len(rows)} moves, {len(bad)} classed otherwise than the dump")
        for r in bad[:10]:
            print("  ", r)
    if a.fit_curve or a.fit_material:
        fit_curve(games, a.fit_material)
    show(p, games, "at the given constants:")
    if a.grid:
        # Thresholds at the given curve, best first by the smaller of the two figures.
        res = []
        for m in [6, 7, 8, 9, 10, 12, 14]:
            for b in [14, 16, 18, 20, 22, 25, 28, 30, 35]:
                for won, not_won in [(85, 70), (90, 70), (95, 75), (95, 60)]:
                    if b <= m:
                        continue
                    q = dict(p, mistake=m, blunder=b, inaccuracy=min(p["inaccuracy"], m / 2), won=won, not_won=not_won)
                    f = figures(replay(q, games))
                    res.append((min(f["recall"], f["precision"]), m, b, won, not_won, f))
        res.sort(key=lambda r: -r[0])
        for r in res[:15]:
            f = r[5]
            print(f"mistake {r[1]} blunder {r[2]} won {r[3]} not_won {r[4]}: recall {f['recall']:.1f}"
                  f" ({f['marked']}/{f['big']}) precision {f['precision']:.1f} ({f['confirmed']}/{f['ours']})")


if __name__ == "__main__":
    main()

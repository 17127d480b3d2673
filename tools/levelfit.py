#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fit the strength levels' Elo to a straight line in their self-play chain (docs/engine.md, "Strength levels").

    python3 tools/levelfit.py --chain 512,269,168,319,436,512,137,382 \\
        --measured 4=1286:485 5=1642:193 6=1748:141 7=2084:100 8=2196:122 9=2394:112

--chain gives the neighbouring-level Elo differences of `guoxiang-tune levels` (level 2 − 1, 3 − 2, …), from which
c(level) = the level's cumulative difference above level 1. --measured gives, for some levels, the Elo fitted from
games against outside engines (`tools/ratings.py`) and its 95 % half-width. The fit is weighted least squares of
Elo = a + k·c, each level weighted by 1/σ² (σ = half-width / 1.96); printed are k and a with 95 % errors and, for
every level, the line's value with its 95 % band.
"""
import argparse
import math
import sys


def parse_measured(items):
    out = {}
    for item in items:
        try:
            level, rest = item.split("=")
            elo, err = rest.split(":")
            out[int(level)] = (float(elo), float(err))
        except ValueError:
            raise SystemExit(f"levelfit: `{item}` is not LEVEL=ELO:ERROR (e.g. 7=2084:100)")
        if out[int(level)][1] <= 0:
            raise SystemExit(f"levelfit: `{item}`: the error must be positive")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chain", required=True, help="comma-separated Elo differences 2−1, 3−2, …")
    ap.add_argument("--measured", nargs="+", required=True, metavar="LEVEL=ELO:ERROR")
    args = ap.parse_args()
    try:
        steps = [float(x) for x in args.chain.split(",")]
    except ValueError:
        raise SystemExit(f"levelfit: --chain `{args.chain}` is not a comma-separated list of numbers")
    c = [0.0]
    for d in steps:
        c.append(c[-1] + d)
    measured = parse_measured(args.measured)
    for level in measured:
        if not 1 <= level <= len(c):
            raise SystemExit(f"levelfit: level {level} is not in the chain (levels 1–{len(c)})")
    if len(measured) < 2:
        raise SystemExit("levelfit: need at least two measured levels to fit a line")
    s = sx = sy = sxx = sxy = 0.0
    for level, (elo, err) in measured.items():
        w = 1.0 / (err / 1.96) ** 2
        x = c[level - 1]
        s += w; sx += w * x; sy += w * elo; sxx += w * x * x; sxy += w * x * elo
    det = s * sxx - sx * sx
    if det <= 0:
        raise SystemExit("levelfit: the measured levels have the same chain value; no line fits")
    k = (s * sxy - sx * sy) / det
    a = (sy * sxx - sx * sxy) / det
    print(f"k = {k:.3f} ± {1.96 * math.sqrt(s / det):.3f}, a = {a:.0f} ± {1.96 * math.sqrt(sxx / det):.0f}")
    print("| level | c | line | ± 95 % | measured |")
    print("|---|---|---|---|---|")
    for i, x in enumerate(c):
        band = 1.96 * math.sqrt((sxx - 2 * sx * x + s * x * x) / det)
        m = measured.get(i + 1)
        shown = f"{m[0]:.0f} ± {m[1]:.0f}" if m else ""
        print(f"| {i + 1} | {x:.0f} | {a + k * x:.0f} | {band:.0f} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

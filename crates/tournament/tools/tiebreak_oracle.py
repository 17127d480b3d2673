#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The tie-breaks of TRF-16 files by tiebreak-core (PyPI `tiebreak-core`, MIT), an independent implementation of
FIDE's Tie-Break Regulations (C.07): a development tool for `examples/tiebreak_compare.rs`, never a dependency.

    python3 tiebreak_oracle.py FILE.trf...

Prints one JSON line per file: {"file": ..., "players": {"1": {"BH": ..., ...}, ...}, "de": [[[1], [4, 7]], ...]}
with the values of the
`fide-2024` ruleset (C.07 as applied from 1 August 2024, the edition guoxiang implements). The TRF is read here,
by this script's own reader, not by guoxiang's: start number (columns 5-8), rating (49-52), and per round the
opponent, colour and result at columns 92-95, 97 and 99, then every 10 columns. Every round up to the last one in
which someone was paired is read; a player's line that stops early is absent (a zero-point bye) in the rest.
"""
import json
import sys

from tiebreak_core import GameRecord, PlayerTiebreakData, rank_standings_strict
from tiebreak_core.fide2024 import _de_tiers  # DE is a ranking stage there, with no public per-group call

# Our abbreviations and tiebreak-core's criterion names.
CRITERIA = {
    "BH": "buchholz",
    "BH-C1": "buchholz_cut1",
    "BH-M1": "median_buchholz",
    "SB": "sonneborn_berger",
    "WIN": "wins",
    "WON": "won",
    "BPG": "games_black",
    "BWG": "wins_black",
    "PS": "progressive",
    "ARO": "aro",
}


def field(line, a, b):
    return line[a - 1:b].ljust(b - a + 1)


def read(path):
    players = {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\r\n")
        if not line.startswith("001"):
            continue
        start = int(field(line, 5, 8))
        rating = field(line, 49, 52).strip()
        rounds = []
        col = 92
        while len(line) >= col:
            opp = field(line, col, col + 3).strip()
            opp = int(opp) if opp else 0
            colour = field(line, col + 5, col + 5)
            result = field(line, col + 7, col + 7).upper()
            rounds.append((opp, colour, result))
            col += 10
        players[start] = (int(rating) if rating else 0, rounds)
    return players


def record(r, opp, colour, result, ratings):
    # tiebreak-core wants a colour in every record; it reads it only in games played (BPG, BWG).
    colour = {"w": "white", "b": "black"}.get(colour.lower(), "white")
    if opp and result in "1=0":
        score = {"1": 1.0, "=": 0.5, "0": 0.0}[result]
        return GameRecord(opp, ratings[opp], score, colour, r, kind="played")
    if result == "+":
        return GameRecord(opp or -1, ratings.get(opp, 0), 1.0, colour, r, kind="forfeit_win")
    if result == "-":
        return GameRecord(opp or -1, ratings.get(opp, 0), 0.0, colour, r, kind="forfeit_loss")
    # tiebreak-core files the full-point bye with the pairing-allocated bye (C.07 16.2.1).
    if result in ("U", "F"):
        return GameRecord(-1, 0, 1.0, "white", r, kind="pairing_bye")
    if result == "H":
        return GameRecord(-1, 0, 0.5, "white", r, kind="requested_bye")
    if result in ("Z", " "):
        return GameRecord(-1, 0, 0.0, "white", r, kind="requested_bye")
    raise ValueError(f"round {r}: result {result!r} is not handled here")


def tie_breaks(path):
    trf = read(path)
    ratings = {s: rating for s, (rating, _) in trf.items()}
    played = 0
    for _, rounds in trf.values():
        for k, (opp, _, result) in enumerate(rounds):
            if opp or result == "U":
                played = max(played, k + 1)
    players = {}
    for s, (rating, rounds) in trf.items():
        rounds = (rounds + [(0, " ", "Z")] * played)[:played]
        games = [record(k + 1, opp, c, res, ratings) for k, (opp, c, res) in enumerate(rounds)]
        players[s] = PlayerTiebreakData(s, rating, sum(g.score for g in games), games)
    out = {}
    de = []
    if played:
        result = rank_standings_strict(players, list(CRITERIA.values()), total_rounds=played, ruleset="fide-2024")
        for p in result.players:
            out[str(p.player_id)] = {ours: p.values[theirs] for ours, theirs in CRITERIA.items()}
        # DE (Art. 6) splits each group of players level on score into tiers, best first.
        by_score = {}
        for s, p in sorted(players.items()):
            by_score.setdefault(p.points, []).append(s)
        for score in sorted(by_score, reverse=True):
            if len(by_score[score]) > 1:
                de.append([sorted(tier) for tier in _de_tiers(by_score[score], players)])
    return out, de


def main():
    for path in sys.argv[1:]:
        players, de = tie_breaks(path)
        print(json.dumps({"file": path, "players": players, "de": de}), flush=True)


if __name__ == "__main__":
    main()

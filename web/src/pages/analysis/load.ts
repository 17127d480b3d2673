// SPDX-License-Identifier: GPL-3.0-or-later
// What the analysis board can start from (no DOM): pasted text (a FEN, or a PGN with its variations and comments),
// and the `?fen=…&moves=e2e4,e7e5` query that the puzzle trainer links to.

import { fenOf, positionFromFen } from '../../chess';
import { fromMoves, fromPgn, newTree } from '../../analysis/tree';
import type { PgnProblem, Tree } from '../../analysis/tree';

export type Loaded = { ok: true; tree: Tree; title: string; fromFen: boolean; problems: PgnProblem[] } | { ok: false };

/** A FEN (one line with eight ranks) or a PGN; `{ok: false}` when it is neither. */
export function parseInput(text: string): Loaded {
  const s = text.trim();
  if (!s) return { ok: false };
  const asFen = positionFromFen(s);
  if (asFen && !s.includes('[') && s.split('/').length === 8) {
    return { ok: true, tree: newTree(fenOf(asFen)), title: '', fromFen: true, problems: [] };
  }
  const read = fromPgn(s);
  if (!read) return { ok: false };
  const { tree, problems } = read;
  if (!tree.children.length && !tree.headers.has('FEN') && !problems.length) return { ok: false };
  const w = tree.headers.get('White');
  const b = tree.headers.get('Black');
  const known = (x: string | undefined) => x && x !== '?';
  return { ok: true, tree, title: known(w) && known(b) ? `${w} – ${b}` : '', fromFen: false, problems };
}

/** The tree of `?fen=…&moves=…`: the line stops at its first move that is not legal (at most 300 moves). */
export function fromQuery(query: URLSearchParams): Tree {
  const fen = query.get('fen');
  const moves = (query.get('moves') ?? '').split(',').filter((u) => /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(u));
  const start = fen ? positionFromFen(fen) : null;
  return fromMoves(start ? fenOf(start) : null, moves.slice(0, 300));
}

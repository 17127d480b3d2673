// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation graph over the main line: each position at a small depth — in the browser's engine (a worker of
// its own) when it runs here, else through `POST /api/analyse` — one after another, White's view in centipawns
// (mate = ±10000). Values are kept per main-line ply; `key` says which main
// line they belong to, so a changed main line starts a fresh graph.

import { api } from '../../api';
import type { Tree } from '../../analysis/tree';
import { mainline } from '../../analysis/tree';
import { positionFromFen } from '../../chess';
import { whiteCp } from '../../ui/engine';
import type { EngineScore } from '../../protocol_analysis';
import type { Color } from '../../protocol';
import type { WorkerEvaluator } from '../../engine/client';

export function mainlineKey(tree: Tree): string {
  return tree.fen + '|' + mainline(tree).map((n) => n.uci).join(' ');
}

/** White's view of a finished position (mate ±10000, otherwise a draw), or `null` if the game goes on. */
export function finishedValue(fen: string): number | null {
  const p = positionFromFen(fen);
  if (!p || !p.isEnd()) return null;
  return p.isCheckmate() ? (p.turn === 'white' ? -10000 : 10000) : 0;
}

/**
 * Evaluates every main-line position of `tree` in order: `progress(done, total)` before each, `value(ply, cp)`
 * after each. Stops early (returning false) when `cancelled()` says so. `local`: the browser's engine, if it runs.
 */
export async function runGraph(
  tree: Tree,
  progress: (done: number, total: number) => void,
  value: (ply: number, cp: number | null) => void,
  cancelled: () => boolean,
  local: WorkerEvaluator | null = null,
): Promise<boolean> {
  const nodes = mainline(tree);
  const fens = [tree.fen, ...nodes.map((n) => n.fen)];
  const moves = nodes.map((n) => n.uci);
  const start = tree.fen.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') ? undefined : tree.fen;
  for (let i = 0; i < fens.length; i++) {
    if (cancelled()) return false;
    progress(i, fens.length);
    const end = finishedValue(fens[i]);
    if (end !== null) {
      value(i, end);
      continue;
    }
    const a = await evaluate(local, start, moves.slice(0, i));
    if (cancelled()) return false;
    const l = a.lines[0];
    value(i, l ? whiteCp(l.score, a.turn) : null);
  }
  return true;
}

const GRAPH_DEPTH = 8;

/** One position's best line and side to move: from the browser's engine, or the server's when that fails. */
async function evaluate(
  local: WorkerEvaluator | null,
  fen: string | undefined,
  moves: string[],
): Promise<{ lines: { score: EngineScore }[]; turn: Color }> {
  const m = local ? await local.evaluate(fen, moves, GRAPH_DEPTH) : null;
  if (m && m.t === 'done') return { lines: m.lines, turn: m.fen.split(' ')[1] === 'b' ? 'black' : 'white' };
  return api.analyse({ fen, moves, depth: GRAPH_DEPTH, movetime_ms: 250 });
}

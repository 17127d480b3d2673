// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis page's reducer: navigation and variations through actions, and the engine's frames taken only for
// the search last asked for and the position shown (never an old position's line); the loaders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromMoves, fenAt, mainline, nodeAt } from '../src/analysis/tree';
import { currentFen, initialState, needsSearch, reduce } from '../src/pages/analysis/ctrl';
import type { State } from '../src/pages/analysis/ctrl';
import { fromQuery, parseInput } from '../src/pages/analysis/load';
import { lineText, scoreText, whiteCp } from '../src/ui/engine';
import { evalShare } from '../src/ui/evalbar';
import type { AnalysisLine } from '../src/protocol_analysis';

const line = (uci: string, san: string, cp: number): AnalysisLine => ({
  multipv: 1,
  depth: 10,
  score: { cp },
  pv: [uci],
  pv_san: [san],
});

function loaded(): State {
  const s = initialState(fromMoves(null, []));
  return reduce(s, { type: 'load', tree: fromMoves(null, ['e2e4', 'e7e5', 'g1f3']), title: 'x' });
}

test('moves and navigation through the reducer keep the main line', () => {
  let s = loaded();
  assert.deepEqual(s.path, []);
  s = reduce(s, { type: 'nav', to: 'last' });
  assert.equal(s.path.length, 3);
  s = reduce(s, { type: 'nav', to: 'prev' });
  s = reduce(s, { type: 'nav', to: 'prev' });
  const v0 = s.treeVersion;
  s = reduce(s, { type: 'play', uci: 'c7c5' });
  assert.equal(s.treeVersion, v0 + 1, 'a new variation changes the tree');
  assert.equal(nodeAt(s.tree, s.path)?.san, 'c5');
  assert.deepEqual(
    mainline(s.tree).map((n) => n.san),
    ['e4', 'e5', 'Nf3'],
  );
  s = reduce(s, { type: 'nav', to: 'up' });
  assert.equal(nodeAt(s.tree, s.path)?.san, 'e5', '↑ goes to the main move');
  s = reduce(s, { type: 'nav', to: 'down' });
  assert.equal(nodeAt(s.tree, s.path)?.san, 'c5');
  s = reduce(s, { type: 'promote', toMain: true });
  assert.deepEqual(
    mainline(s.tree).map((n) => n.san),
    ['e4', 'c5'],
  );
  s = reduce(s, { type: 'delete' });
  assert.equal(s.path.length, 1);
  assert.deepEqual(
    mainline(s.tree).map((n) => n.san),
    ['e4', 'e5', 'Nf3'],
  );
  const same = reduce(s, { type: 'play', uci: 'e1e8' });
  assert.equal(same, s, 'an illegal move changes nothing');
});

test('the engine: frames of an older search or another position are dropped', () => {
  let s = loaded();
  assert.equal(needsSearch(s), true);
  const fen0 = currentFen(s);
  s = reduce(s, { type: 'requested', id: 1, fen: fen0 });
  assert.equal(needsSearch(s), false);
  s = reduce(s, { type: 'server', msg: { t: 'started', id: 1, fen: fen0, multipv: 1, depth: 30, max_ms: 60000 } });
  assert.equal(s.engine.status, 'running');
  s = reduce(s, { type: 'server', msg: { t: 'info', id: 1, fen: fen0, depth: 12, nodes: 1, nps: 2, time_ms: 3, lines: [line('e2e4', 'e4', 30)] } });
  assert.equal(s.engine.lines[0].pv[0], 'e2e4');
  // One move on: the old line disappears at once…
  s = reduce(s, { type: 'nav', to: 'next' });
  const fen1 = currentFen(s);
  assert.notEqual(fen1, fen0);
  assert.deepEqual(s.engine.lines, []);
  assert.equal(needsSearch(s), true);
  // …and late frames of the first search do not bring it back.
  const late = reduce(s, { type: 'server', msg: { t: 'info', id: 1, fen: fen0, depth: 13, nodes: 1, nps: 2, time_ms: 3, lines: [line('d2d4', 'd4', 20)] } });
  assert.deepEqual(late.engine.lines, []);
  s = reduce(s, { type: 'requested', id: 2, fen: fen1 });
  // A frame with the new id but the old position (cannot happen, but is refused all the same).
  const wrong = reduce(s, { type: 'server', msg: { t: 'info', id: 2, fen: fen0, depth: 5, nodes: 1, nps: 2, time_ms: 3, lines: [line('d2d4', 'd4', 20)] } });
  assert.deepEqual(wrong.engine.lines, []);
  s = reduce(s, { type: 'server', msg: { t: 'info', id: 2, fen: fen1, depth: 5, nodes: 1, nps: 2000, time_ms: 3, lines: [line('e7e5', 'e5', -20)] } });
  assert.equal(s.engine.lines[0].pv[0], 'e7e5');
  assert.equal(s.engine.nps, 2000);
  s = reduce(s, { type: 'server', msg: { t: 'done', id: 2, fen: fen1, reason: 'depth_limit', depth: 30, nodes: 10, time_ms: 1000, lines: [] } });
  assert.equal(s.engine.status, 'done');
  assert.equal(s.engine.end, 'depth_limit');
  assert.equal(s.engine.lines[0].pv[0], 'e7e5', 'a done without lines keeps the last ones');
  // Going back to a position whose request is stale asks again.
  s = reduce(s, { type: 'nav', to: 'prev' });
  assert.equal(needsSearch(s), true);
  assert.equal(reduce(s, { type: 'requested', id: 3, fen: fen1 }), s, 'a request for a position no longer shown is ignored');
});

test('off, hidden, MultiPV and errors', () => {
  let s = loaded();
  s = reduce(s, { type: 'requested', id: 1, fen: currentFen(s) });
  s = reduce(s, { type: 'visible', visible: false });
  assert.equal(s.engine.status, 'hidden');
  assert.equal(needsSearch(s), false, 'nothing is asked while hidden');
  s = reduce(s, { type: 'visible', visible: true });
  assert.equal(needsSearch(s), true, 'asked again when visible');
  s = reduce(s, { type: 'requested', id: 2, fen: currentFen(s) });
  s = reduce(s, { type: 'multipv', n: 3 });
  assert.equal(s.engine.multipv, 3);
  assert.equal(needsSearch(s), true, 'a new number of lines asks again');
  s = reduce(s, { type: 'multipv', n: 9 });
  assert.equal(s.engine.multipv, 5);
  s = reduce(s, { type: 'requested', id: 3, fen: currentFen(s) });
  s = reduce(s, { type: 'server', msg: { t: 'error', id: 3, code: 'busy', message_zh: '忙', message_en: 'busy' } });
  assert.equal(s.engine.status, 'error');
  assert.deepEqual(s.engine.error, { zh: '忙', en: 'busy' });
  s = reduce(s, { type: 'engine', on: false });
  assert.equal(s.engine.status, 'off');
  assert.equal(needsSearch(s), false);
  const ignored = reduce(s, { type: 'server', msg: { t: 'info', id: 3, fen: currentFen(s), depth: 5, nodes: 1, nps: 2, time_ms: 3, lines: [] } });
  assert.equal(ignored, s, 'frames while off are dropped');
});

test('loading: FEN, PGN, the puzzle trainer query', () => {
  const f = parseInput('8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
  assert.ok(f.ok && f.fromFen);
  assert.equal(f.ok && f.tree.fen, '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
  const p = parseInput('[White "A"]\n[Black "B"]\n\n1. e4 (1. d4 d5) e5 *');
  assert.ok(p.ok);
  assert.equal(p.ok && p.title, 'A – B');
  assert.equal(p.ok && p.tree.children.length, 2);
  assert.equal(parseInput('hello').ok, false);
  assert.equal(parseInput('').ok, false);
  const q = fromQuery(new URLSearchParams('fen=2r3k1/5ppp/8/8/8/8/1q2RPPP/4R1K1 w - - 0 2&moves=e2e8,c8e8,e1e8,zz'));
  assert.equal(mainline(q).map((n) => n.san).join(' '), 'Re8+ Rxe8 Rxe8#');
  assert.equal(fenAt(q, []), '2r3k1/5ppp/8/8/8/8/1q2RPPP/4R1K1 w - - 0 2');
  const bad = fromQuery(new URLSearchParams('moves=e2e4,e2e4'));
  assert.equal(mainline(bad).length, 1, 'stops at the first illegal move');
});

test('scores from White, lines with numbers, the bar', () => {
  assert.equal(scoreText({ cp: 35 }, 'white'), '+0.35');
  assert.equal(scoreText({ cp: 35 }, 'black'), '-0.35');
  assert.equal(scoreText({ mate: 2 }, 'black'), '#-2');
  assert.equal(whiteCp({ mate: 1 }, 'white'), 9999);
  assert.equal(lineText(['e5', 'Nf3', 'Nc6'], 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', false), '1… e5 2. Nf3 Nc6');
  assert.equal(lineText(['Nf3'], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', true), '1. 马f3');
  assert.equal(evalShare(null), 50);
  assert.equal(evalShare(9999), 100);
  assert.ok(evalShare(100) > 50 && evalShare(100) < 100);
});

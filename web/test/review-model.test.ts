// SPDX-License-Identifier: GPL-3.0-or-later
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  exercises,
  graphValues,
  learnFinished,
  learnStep,
  marksOf,
  moments,
  progressOf,
  startLearning,
  whiteCp,
} from '../src/review/model';
import type { GameReviewData, ReviewedMove } from '../src/review/model';

function mv(ply: number, san: string, cls: ReviewedMove['class'], e: ReviewedMove['eval'], best: string | null = 'e2e4'): ReviewedMove {
  return { ply, san, uci: 'a1a2', eval: e, best, best_line: [], class: cls, loss: 0, comment: null, motifs: [] };
}

// 1. e4 e5 2. Ba6?? bxa6 3. Qh5?! Nc6 4. Qxf7+?? (missed nothing) Kxf7 — a made-up game with every kind of mark.
const review: GameReviewData = {
  nodes: 1000,
  moves: [
    mv(1, 'e4', 'best', { cp: 20 }),
    mv(2, 'e5', 'good', { cp: 25 }),
    mv(3, 'Ba6', 'blunder', { cp: -300 }),
    mv(4, 'bxa6', 'best', { cp: -310 }),
    mv(5, 'Qh5', 'inaccuracy', { cp: -380 }),
    mv(6, 'Nc6', 'missed_win', { cp: -200 }),
    mv(7, 'Qxf7+', 'mistake', { mate: -3 }),
    mv(8, 'Kxf7', 'only_move', { mate: -2 }, null),
  ],
  accuracy: { white: 40, black: 80 },
  acpl: { white: 150, black: 30 },
  counts: { white: { blunder: 1 }, black: {} },
};

test('marks: ?! inaccuracy, ? mistake and missed win, ?? blunder, nothing for good moves', () => {
  assert.deepEqual([...marksOf(review)], [
    [3, '??'],
    [5, '?!'],
    [6, '?'],
    [7, '?'],
  ]);
});

test('the graph starts unknown, clamps, and counts mates for the side that gives them', () => {
  const g = graphValues(review);
  assert.equal(g.length, 9);
  assert.equal(g[0], null);
  assert.equal(g[3], -300);
  assert.equal(g[7], -1000);
  assert.equal(whiteCp({ cp: 5000 }, 1), 1000);
  assert.equal(whiteCp({ mate: 0 }, 7), 1000, 'White mated with ply 7');
  assert.equal(whiteCp({ mate: 0 }, 8), -1000, 'Black mated with ply 8');
});

test('moments and exercises: the errors of one side, in order, never a forced move', () => {
  assert.deepEqual(moments(review, 'white').map((m) => m.ply), [3, 7]);
  assert.deepEqual(moments(review, 'white', true).map((m) => m.ply), [3, 5, 7]);
  assert.deepEqual(moments(review, null).map((m) => m.ply), [3, 6, 7]);
  assert.deepEqual(exercises(review, 'black').map((m) => m.san), ['Nc6']);
});

test('learn mode: solved stays solved, shown counts once, the end is past the last', () => {
  let s = startLearning(2);
  s = learnStep(s, { t: 'solved' });
  s = learnStep(s, { t: 'shown' });
  assert.deepEqual(s.results, ['solved', 'open']);
  s = learnStep(s, { t: 'next' });
  s = learnStep(s, { t: 'shown' });
  assert.deepEqual(s.results, ['solved', 'shown']);
  assert.equal(learnFinished(s), false);
  s = learnStep(learnStep(s, { t: 'next' }), { t: 'next' });
  assert.equal(s.index, 2);
  assert.equal(learnFinished(s), true);
  s = learnStep(learnStep(learnStep(s, { t: 'previous' }), { t: 'previous' }), { t: 'previous' });
  assert.equal(s.index, 0);
});

test('progress of a review', () => {
  assert.equal(progressOf({ status: 'queued' }), 0);
  assert.equal(progressOf({ status: 'running', progress: { done: 10, total: 40 } }), 0.25);
  assert.equal(progressOf({ status: 'running', progress: { done: 50, total: 40 } }), 1);
  assert.equal(progressOf({ status: 'done' }), 1);
});

// SPDX-License-Identifier: GPL-3.0-or-later
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  commentText,
  exercises,
  keyMoments,
  shownAccuracy,
  withoutMove,
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

function mv(ply: number, san: string, cls: ReviewedMove['class'], e: ReviewedMove['eval'], best: string | null = 'e2e4', loss = 0, exercise = false): ReviewedMove {
  return { ply, san, uci: 'a1a2', eval: e, best, best_line: [], class: cls, loss, comment: null, motifs: [], exercise };
}

// 1. e4 e5 2. Ba6?? bxa6 3. Qh5?! Nc6 4. Qxf7+?? (missed nothing) Kxf7 — a made-up game with every kind of mark.
const review: GameReviewData = {
  nodes: 1000,
  moves: [
    mv(1, 'e4', 'best', { cp: 20 }),
    mv(2, 'e5', 'good', { cp: 25 }),
    mv(3, 'Ba6', 'blunder', { cp: -300 }, 'e2e4', 40, true),
    mv(4, 'bxa6', 'best', { cp: -310 }),
    mv(5, 'Qh5', 'inaccuracy', { cp: -380 }),
    mv(6, 'Nc6', 'missed_win', { cp: -200 }, 'e2e4', 20, true),
    mv(7, 'Qxf7+', 'mistake', { mate: -3 }, 'e2e4', 12, false),
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
  // Only the errors the server found real: 7. Qxf7+ was a mistake but no exercise.
  assert.deepEqual(exercises(review, 'white').map((m) => m.san), ['Ba6']);
});

test('key moments: the learner\'s errors, the costliest first, at most five; the others behind a toggle', () => {
  assert.deepEqual(keyMoments(review, 'white', false).map((m) => m.ply), [3, 7]);
  assert.deepEqual(keyMoments(review, 'white', true).map((m) => m.ply), [3, 7, 6]);
  assert.deepEqual(keyMoments(review, 'black', false).map((m) => m.ply), [6]);
  assert.deepEqual(keyMoments(review, null, false).map((m) => m.ply), [3, 6, 7]);
  const many: GameReviewData = { ...review, moves: Array.from({ length: 16 }, (_, i) => mv(2 * i + 1, 'a3', 'mistake', { cp: 0 }, 'e2e4', i)) };
  assert.deepEqual(keyMoments(many, 'white', false).map((m) => m.loss), [15, 14, 13, 12, 11]);
});

test('accuracy is shown once a side has made ten moves', () => {
  assert.equal(shownAccuracy(review, 'white'), null);
  const long: GameReviewData = { ...review, moves: Array.from({ length: 20 }, (_, i) => mv(i + 1, 'a3', 'good', { cp: 0 })) };
  assert.equal(shownAccuracy(long, 'white'), 40);
  assert.equal(shownAccuracy({ ...long, moves: long.moves.slice(0, 19) }, 'black'), null);
});

test('the sentence in the page\'s language with the chosen letters, without the move in front', () => {
  const c = { zh: '白白丢掉了 c4 的象。', zh_latin: '白白丢掉了 c4 的象（Nxc4）。', en: 'hangs the bishop (Nxc4).', en_chinese: 'hangs the bishop (马xc4).' };
  assert.equal(commentText(c, 'zh', true), c.zh);
  assert.equal(commentText(c, 'zh', false), c.zh_latin);
  assert.equal(commentText(c, 'en', false), c.en);
  assert.equal(commentText(c, 'en', true), c.en_chinese);
  assert.equal(commentText({ zh: '甲', en: 'A' }, 'zh', false), '甲', 'older reviews fall back to zh/en');
  assert.equal(commentText({ zh: '甲', en: 'A' }, 'en', true), 'A');
  assert.equal(withoutMove('马c3? 白白丢掉了 c4 的象。', ['Nc3', '马c3']), '白白丢掉了 c4 的象。');
  assert.equal(withoutMove('a6? a6? 使评估变化', ['a6']), 'a6? 使评估变化');
  assert.equal(withoutMove('After Nc3?: a fork', ['Nc3']), 'After Nc3?: a fork');
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

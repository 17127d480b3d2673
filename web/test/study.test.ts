// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: the chapter's paths (as the server writes them), moves played into variations, deleting a line,
// annotations, and a reader's present mode (following the teacher, let go, rejoining).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fenAt,
  follow,
  followStart,
  makeNote,
  movesTo,
  newChapter,
  next,
  nodeAt,
  play,
  prev,
  remove,
  setComment,
  setShapes,
  stepPaths,
  toggleNag,
} from '../src/pages/study/model';

function sample() {
  const ch = newChapter('c');
  let p = play(ch, [], 'e4');
  p = play(ch, p, 'e5');
  p = play(ch, p, 'Nf3');
  return ch;
}

test('moves played at the end extend the line; a different one starts a variation; the same one is followed', () => {
  const ch = sample();
  assert.deepEqual(ch.moves.map((n) => n.san), ['e4', 'e5', 'Nf3']);
  assert.deepEqual(play(ch, [0], 'e5'), [1]);
  const v = play(ch, [0], 'c5');
  assert.deepEqual(v, [1, 0, 0]);
  assert.deepEqual(play(ch, [0], 'c5'), [1, 0, 0], 'the variation is reused');
  const v2 = play(ch, v, 'Nf3');
  assert.deepEqual(v2, [1, 0, 1]);
  assert.deepEqual(movesTo(ch, v2), ['e4', 'c5', 'Nf3']);
  assert.equal(fenAt(ch, v2), 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
  // A variation of a variation: [1, 0, 1, w, k].
  const v3 = play(ch, [1, 0, 0], 'Nc3');
  assert.deepEqual(v3, [1, 0, 1, 0, 0]);
  assert.deepEqual(movesTo(ch, v3), ['e4', 'c5', 'Nc3']);
  assert.equal(nodeAt(ch, v3)?.san, 'Nc3');
});

test('prev and next walk the line shown; the first move of a variation goes back before the move it replaces', () => {
  const ch = sample();
  play(ch, [0], 'c5');
  assert.deepEqual(prev([2]), [1]);
  assert.deepEqual(prev([0]), []);
  assert.deepEqual(prev([1, 0, 0]), [0]);
  assert.deepEqual(prev([0, 0, 0]), []);
  assert.deepEqual(next(ch, []), [0]);
  assert.deepEqual(next(ch, [2]), [2], 'the end of the line stays');
  assert.deepEqual(next(ch, [0]), [1], 'the mainline, not the variation');
});

test('deleting from a move removes the rest of its line; an emptied variation goes', () => {
  const ch = sample();
  play(ch, [0], 'c5');
  assert.deepEqual(remove(ch, [1, 0, 0]), [0]);
  assert.equal(ch.moves[1].variations, undefined);
  assert.deepEqual(remove(ch, [1]), [0]);
  assert.deepEqual(ch.moves.map((n) => n.san), ['e4']);
});

test('comments in one or two languages, shapes, NAGs that exclude each other', () => {
  const ch = sample();
  assert.equal(makeNote('', ''), undefined);
  assert.equal(makeNote('好', ''), '好');
  assert.deepEqual(makeNote('好棋', 'Good'), { zh: '好棋', en: 'Good' });
  setComment(ch, [0], makeNote('中心', 'The centre'));
  assert.deepEqual(ch.moves[0].comment, { zh: '中心', en: 'The centre' });
  setComment(ch, [], 'start');
  assert.equal(ch.comment, 'start');
  setShapes(ch, [2], [{ brush: 'green', orig: 'g1', dest: 'f3' }, { brush: 'red', orig: 'e5' }]);
  assert.equal(ch.moves[2].shapes?.length, 2);
  setShapes(ch, [2], []);
  assert.equal(ch.moves[2].shapes, undefined);
  toggleNag(ch, [0], 1);
  toggleNag(ch, [0], 2);
  assert.deepEqual(ch.moves[0].nags, [2], '! and ? exclude each other');
  toggleNag(ch, [0], 2);
  assert.equal(ch.moves[0].nags, undefined);
  ch.moves[1].step = { kind: 'choice', fen: 'x' };
  ch.step = { kind: 'squares', fen: 'y' };
  assert.deepEqual(stepPaths(ch), [[], [1]]);
});

test('a reader follows the teacher, is let go, explores alone, and rejoins where the teacher is', () => {
  let s = followStart();
  s = follow(s, { t: 'goto', place: { chapter: 0, path: [1] } });
  assert.deepEqual(s.shown, { chapter: 0, path: [1] }, 'before the teacher presents the reader moves freely');
  s = follow(s, { t: 'position', place: { chapter: 1, path: [2] } });
  assert.equal(s.live, true);
  assert.deepEqual(s.shown, { chapter: 1, path: [2] });
  const same = follow(s, { t: 'goto', place: { chapter: 0, path: [] } });
  assert.equal(same, s, 'while following, the reader stays with the teacher');
  s = follow(s, { t: 'release' });
  s = follow(s, { t: 'goto', place: { chapter: 1, path: [2, 0, 0] } });
  s = follow(s, { t: 'position', place: { chapter: 1, path: [3] } });
  assert.deepEqual(s.shown, { chapter: 1, path: [2, 0, 0] }, 'let go: the teacher no longer moves the board');
  assert.deepEqual(s.teacher, { chapter: 1, path: [3] });
  s = follow(s, { t: 'rejoin' });
  assert.deepEqual(s.shown, { chapter: 1, path: [3] });
  s = follow(s, { t: 'release' });
  s = follow(s, { t: 'released' });
  assert.equal(s.live, false);
  assert.equal(s.released, true);
  s = follow(s, { t: 'goto', place: { chapter: 0, path: [] } });
  assert.deepEqual(s.shown, { chapter: 0, path: [] }, 'let go by the teacher, the reader moves freely');
  s = follow(s, { t: 'position', place: { chapter: 1, path: [0] } });
  assert.deepEqual(s.shown, { chapter: 1, path: [0] }, 'the teacher presenting again brings everyone back');
  assert.equal(s.released, false);
});

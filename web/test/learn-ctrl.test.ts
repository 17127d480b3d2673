// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋: the optional chapter (比赛规则) is left out of the course's count and of "continue"; the pawn-war
// mini-game (`promote` goal) is decided by the first promotion, whoever made it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LearnChapter, LearnLesson } from '../src/protocol_http';
import { countDone, firstPromotion, nextToLearn, requiredLessons } from '../src/pages/learn/ctrl';

const text = { zh: 'x', en: 'x' };
const lesson = (id: string, order: number, chapter: string): LearnLesson => ({
  id,
  chapter,
  chapter_title: text,
  chapter_order: 1,
  chapter_optional: chapter === 'rules',
  order,
  topics: [],
  title: text,
  intro: null,
  steps: [],
});
const chapters: LearnChapter[] = [
  { id: 'rules', order: 14, title: text, summary: text, optional: true, lessons: [lesson('touch_move', 3, 'rules')] },
  { id: 'pieces', order: 2, title: text, summary: text, optional: false, lessons: [lesson('rook', 1, 'pieces'), lesson('bishop', 2, 'pieces')] },
];

test('the optional chapter is not required', () => {
  assert.deepEqual(
    requiredLessons(chapters).map((l) => l.id),
    ['rook', 'bishop'],
  );
  const p = { lessons: { rook: { steps: [0], stars: 3, done: true }, bishop: { steps: [0], stars: 2, done: true } } };
  assert.deepEqual(countDone(chapters, p), { done: 2, total: 2 });
  assert.equal(nextToLearn(chapters, p), null, 'the course is done without the optional chapter');
  assert.equal(nextToLearn(chapters, { lessons: {} })?.id, 'rook');
});

test('the first promotion decides the pawn war', () => {
  const positions = [{ turn: 'white' as const }, { turn: 'black' as const }, { turn: 'white' as const }, { turn: 'black' as const }];
  assert.equal(firstPromotion({ moves: [{ uci: 'e2e4' }, { uci: 'd7d5' }], positions }), null);
  assert.equal(firstPromotion({ moves: [{ uci: 'a7a8q' }, { uci: 'h2h1q' }], positions }), 'white');
  assert.equal(firstPromotion({ moves: [{ uci: 'a6a7' }, { uci: 'h2h1n' }, { uci: 'a7a8q' }], positions }), 'black');
});

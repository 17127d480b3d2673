// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋: the optional chapter (比赛规则) is left out of the course's count and of "continue"; the pawn-war
// mini-game (`promote` goal) is decided by the first promotion, whoever made it; a `play` step's game is sent to
// the server by its id, and a refusal of a game met in the page is shown with the server's reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LearnChapter, LearnLesson, LearnStep, LearnVerdict } from '../src/protocol_http';
import { api } from '../src/api';
import { applyPlayVerdict, countDone, firstPromotion, newLesson, nextToLearn, playTryBody, requiredLessons } from '../src/pages/learn/ctrl';
import { judgeGame } from '../src/pages/learn/xhr';

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

const verdict = (ok: boolean, code?: string): LearnVerdict => ({
  ok,
  done: ok,
  reply: null,
  fen: '8/8/8/8/8/8/8/8 w - - 0 1',
  reason: code ? { code, zh: `理由 ${code}`, en: `reason ${code}` } : null,
  hint: null,
  success: null,
  remaining: null,
  found: null,
  restart: false,
});

test('a play step\'s game is judged by the server: its id is sent, a refusal of a game met here is shown', () => {
  const play: LearnStep = { kind: 'play', fen: '7k/pppp4/8/8/8/8/PPPP4/7K w - - 0 1', prompt: text, hint: text, success: text, orientation: 'white', solutions: [], goal: 'promote' };
  const ls = newLesson({ ...lesson('pawn_war', 1, 'pieces'), steps: [play, play, play, play] });
  assert.deepEqual(playTryBody(ls, 3, 'g123'), { lesson: 'pawn_war', step: 3, game: 'g123' });
  const st = ls.step;
  assert.equal(st.serverNote, null);
  applyPlayVerdict(st, true, verdict(false, 'over_budget'));
  assert.deepEqual(st.serverNote, { zh: '理由 over_budget', en: 'reason over_budget' });
  applyPlayVerdict(st, true, verdict(true));
  assert.equal(st.serverNote, null, 'accepted: nothing more to say');
  applyPlayVerdict(st, false, verdict(false, 'goal_missed'));
  assert.equal(st.serverNote, null, 'missed here too: the page already says so');
});

test('a game the server has not seen end yet is asked about again, a few times', async () => {
  const orig = api.learnTry;
  const bodies: unknown[] = [];
  try {
    let answers = [verdict(false, 'game_not_over'), verdict(false, 'game_not_over'), verdict(true)];
    api.learnTry = async (b) => {
      bodies.push(b);
      return answers.shift()!;
    };
    const v = await judgeGame({ lesson: 'l', step: 1, game: 'g' }, 6, 1);
    assert.equal(v.ok, true);
    assert.equal(bodies.length, 3);
    assert.deepEqual(bodies[0], { lesson: 'l', step: 1, game: 'g' });
    answers = Array.from({ length: 10 }, () => verdict(false, 'game_not_over'));
    bodies.length = 0;
    const w = await judgeGame({ lesson: 'l', step: 1, game: 'g' }, 4, 1);
    assert.equal(w.reason?.code, 'game_not_over');
    assert.equal(bodies.length, 4, 'gives up after the tries allowed');
    answers = [verdict(false, 'not_your_game')];
    bodies.length = 0;
    assert.equal((await judgeGame({ lesson: 'l', step: 1, game: 'g' }, 6, 1)).reason?.code, 'not_your_game');
    assert.equal(bodies.length, 1, 'other refusals are final');
  } finally {
    api.learnTry = orig;
  }
});

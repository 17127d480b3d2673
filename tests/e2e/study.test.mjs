// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies (issue 42, point 4), a teacher and a student each in their own browser (zh-CN): the teacher writes
// a study on /study — a chapter of three moves played on the board, a comment, an arrow drawn with the shape tool —
// shares it with their class (created with one student account over the API) and presents it; the student opens it
// from /study and follows: each position the teacher goes to is the student's board (its FEN, the move highlighted
// in the tree, the arrow). Exploring alone, the teacher's next position does not move the student's board until they
// rejoin. When the teacher stops and lets the students go, the student plays a move of their own: the teacher's
// board and study do not change; presenting again brings the student back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, clickSquare, launch, newPage, startServer, tid } from './lib.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
const AFTER_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';

const board = (page) => page.$eval(tid('board'), (el) => ({ fen: el.dataset.fen, path: el.dataset.path, shapes: el.dataset.shapes }));
const current = (page) => page.$eval(`${tid('study-tree')} .mv.current`, (el) => el.dataset.path);

/** Waits until the page's study board shows the position at `path` (and `fen`). */
async function waitPath(page, path, fen) {
  await page.waitForFunction(
    ([sel, p, f]) => {
      const el = document.querySelector(sel);
      return el?.dataset.path === p && (!f || el.dataset.fen === f);
    },
    [tid('board'), path, fen],
    { timeout: 20_000, polling: 50 },
  );
}

test('present mode: the student follows the teacher, is let go and explores alone', { timeout: 300_000 }, async () => {
  const sfx = String(Date.now()).slice(-6);
  const T = await newPage(browser, server.base, { lang: 'zh' });
  const o = T.page;
  o.on('dialog', (d) => void d.accept());
  const reg = await T.context.request.post('/api/register', { data: { username: `laoshi${sfx}`, password: 'correct horse battery' } });
  assert.equal(reg.status(), 200, await reg.text());
  const cls = await T.context.request.post('/api/class', { data: { name: `研究班${sfx}` } });
  assert.equal(cls.status(), 201, await cls.text());
  const classId = (await cls.json()).id;
  const add = await T.context.request.post(`/api/class/${classId}/students`, { data: { count: 1 } });
  assert.ok(add.ok(), await add.text());
  const [card] = (await add.json()).students;

  // The teacher writes the study: a title, three moves, a comment after 1.e4, an arrow after 2.Nf3.
  await o.goto('/');
  await o.click(tid('nav-studies'));
  await o.waitForURL(/\/study$/);
  await o.fill(tid('study-title-new'), '开局原则');
  await o.click(tid('study-create'));
  await o.waitForURL(/\/study\/[A-Za-z0-9_-]+$/);
  const studyPath = new URL(o.url()).pathname;
  await o.waitForSelector(tid('board'));
  await clickMove(o, 'e2e4');
  await waitPath(o, '0', AFTER_E4);
  await clickMove(o, 'e7e5');
  await waitPath(o, '1');
  await clickMove(o, 'g1f3');
  await waitPath(o, '2', AFTER_NF3);
  assert.deepEqual(await o.$$eval(tid('study-move'), (els) => els.map((e) => e.dataset.san)), ['e4', 'e5', 'Nf3']);
  await o.click(`${tid('study-move')}[data-path="0"]`);
  await waitPath(o, '0', AFTER_E4);
  await o.fill(tid('comment-zh'), '兵占中心');
  await o.fill(tid('comment-en'), 'A pawn in the centre');
  await o.locator(tid('comment-en')).blur();
  await o.click(`${tid('study-move')}[data-path="2"]`);
  await waitPath(o, '2', AFTER_NF3);
  await o.click(tid('brush-green'));
  await clickSquare(o, 'f3');
  await clickSquare(o, 'e5');
  await o.waitForFunction((sel) => document.querySelector(sel)?.dataset.shapes === 'Gf3e5', tid('board'));
  await o.click(tid('brush-green'));

  // Shared with the class, and saved.
  await o.selectOption(tid('study-visibility'), 'class');
  await o.selectOption(tid('study-class'), classId);
  await o.click(tid('study-save'));
  await o.waitForFunction((sel) => document.querySelector(sel)?.disabled, tid('study-save'));
  const saved = await (await T.context.request.get(`/api/study/${studyPath.split('/').pop()}`)).json();
  assert.equal(saved.visibility, 'class');
  assert.equal(saved.class, classId);
  const ch = saved.study.chapters[0];
  assert.deepEqual(ch.moves.map((n) => n.san), ['e4', 'e5', 'Nf3']);
  assert.deepEqual(ch.moves[0].comment, { zh: '兵占中心', en: 'A pawn in the centre' });
  assert.deepEqual(ch.moves[2].shapes, [{ brush: 'green', orig: 'f3', dest: 'e5' }]);

  // The student logs in with the card and opens the study from /study.
  const S = await newPage(browser, server.base, { lang: 'zh' });
  const s = S.page;
  await s.goto('/login');
  await s.fill(tid('username'), card.username);
  await s.fill(tid('password'), card.password);
  await s.click(tid('login'));
  await s.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), card.username], { timeout: 30_000 });
  await s.goto('/study');
  await s.waitForSelector(tid('study-row'));
  await s.click(`${tid('study-row')} a`);
  await s.waitForURL(new RegExp(`${studyPath}$`));
  await waitPath(s, '');

  // The teacher presents: the student's board follows each position.
  await o.click(`${tid('study-move')}[data-path="0"]`);
  await o.click(tid('study-present'));
  await waitPath(s, '0', AFTER_E4);
  await s.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'following', tid('study-banner'));
  assert.equal(await current(s), '0', 'the move is highlighted in the student\'s tree');
  assert.match(await s.textContent(tid('study-comment')), /兵占中心/);
  await o.click(`${tid('study-move')}[data-path="2"]`);
  await waitPath(s, '2', AFTER_NF3);
  assert.equal((await board(s)).shapes, 'Gf3e5', 'the arrow on the student\'s board');
  assert.equal(await current(s), '2');
  await o.click(tid('study-prev'));
  await waitPath(s, '1');

  // The student explores alone for a moment (the teacher's next position does not move their board) and rejoins.
  await s.click(tid('study-explore'));
  await s.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'alone', tid('study-banner'));
  await s.click(`${tid('study-move')}[data-path="0"]`);
  await waitPath(s, '0', AFTER_E4);
  await o.click(tid('study-next'));
  await waitPath(o, '2');
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal((await board(s)).path, '0', 'exploring alone, the student is not moved by the teacher');
  await s.click(tid('study-rejoin'));
  await waitPath(s, '2', AFTER_NF3);

  // The teacher stops and lets the students go: the student plays a move of their own; the teacher's board and
  // study do not change.
  await o.click(tid('study-present'));
  await s.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'released', tid('study-banner'));
  await clickMove(s, 'b8c6');
  await waitPath(s, '3');
  assert.equal((await board(o)).path, '2', 'the teacher\'s board did not move');
  assert.equal(await o.locator(tid('study-move')).count(), 3, 'the student\'s move is not in the teacher\'s study');
  const after = await (await T.context.request.get(`/api/study/${studyPath.split('/').pop()}`)).json();
  assert.equal(after.study.chapters[0].moves.length, 3);

  // Presenting again brings the student back to the teacher's position.
  await o.click(tid('study-first'));
  await o.click(tid('study-present'));
  await waitPath(s, '');
  await s.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'following', tid('study-banner'));

  await S.context.close();
  await T.context.close();
});

test('the editor: a chapter from PGN with shapes, an exercise written in the form and tried by a reader', { timeout: 300_000 }, async () => {
  const sfx = String(Date.now()).slice(-6);
  const T = await newPage(browser, server.base, { lang: 'en' });
  const o = T.page;
  o.on('dialog', (d) => void d.accept());
  const reg = await T.context.request.post('/api/register', { data: { username: `author${sfx}`, password: 'correct horse battery' } });
  assert.equal(reg.status(), 200, await reg.text());
  await o.goto('/study');
  await o.fill(tid('study-title-new'), 'Forks');
  await o.click(tid('study-create'));
  await o.waitForURL(/\/study\/[A-Za-z0-9_-]+$/);
  const id = new URL(o.url()).pathname.split('/').pop();
  await o.waitForSelector(tid('board'));

  // A chapter pasted as PGN keeps its comment and shapes, and is exported with them.
  await o.click(`${tid('study-chapters')} summary`);
  await o.fill(tid('chapter-pgn'), '[Event "Fork"]\n\n1. e4 { The centre [%cal Ge2e4] } e5 { [%csl Re5] } *\n');
  await o.click(tid('chapter-import'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, tid('study-chapter'));
  await waitPath(o, '');
  assert.equal(await o.$eval(tid('board'), (el) => el.dataset.chapter), '1');
  await o.click(`${tid('study-move')}[data-path="0"]`);
  await o.waitForFunction((sel) => document.querySelector(sel)?.dataset.shapes === 'Ge2e4', tid('board'));
  const pgn = await (await T.context.request.get(`/api/study/${id}/chapters/1.pgn`)).text();
  assert.match(pgn, /\[%cal Ge2e4\]/);
  assert.match(pgn, /\[%csl Re5\]/);

  // An exercise at the start of the first chapter: pick the answer.
  await o.click(`${tid('study-chapter')}[data-index="0"]`);
  await waitPath(o, '');
  await o.click(tid('step-summary'));
  await o.selectOption(tid('step-kind'), 'choice');
  await o.fill(tid('step-prompt-zh'), '白方先走，哪个兵最好？');
  await o.fill(tid('step-prompt-en'), 'White to move: which pawn move is best?');
  await o.fill(tid('step-choices'), 'a4 | a4\ne4 | e4');
  await o.fill(tid('step-answer'), '2');
  await o.click(tid('step-save'));
  // And one at 1…e5 of the pasted chapter: find the move (Nf3).
  await o.click(`${tid('study-chapter')}[data-index="1"]`);
  await o.click(`${tid('study-move')}[data-path="1"]`);
  await waitPath(o, '1');
  await o.click(tid('step-summary'));
  await o.selectOption(tid('step-kind'), 'moves');
  await o.fill(tid('step-prompt-en'), 'Attack the pawn on e5.');
  await o.fill(tid('step-line'), 'g1f3');
  await o.click(tid('step-save'));
  await o.selectOption(tid('study-visibility'), 'public');
  await o.click(tid('study-save'));
  await o.waitForFunction((sel) => document.querySelector(sel)?.disabled, tid('study-save'));
  const saved = await (await T.context.request.get(`/api/study/${id}`)).json();
  assert.equal(saved.study.chapters[0].step.kind, 'choice');
  assert.deepEqual(saved.study.chapters[0].step.answer, [1]);

  // A reader with the link (a guest) tries it: the wrong answer is refused with the hint, the right one accepted.
  const R = await newPage(browser, server.base, { lang: 'en' });
  const r = R.page;
  await r.goto(`/study/${id}`);
  await r.waitForSelector(tid('study-step'));
  assert.match(await r.textContent(tid('study-step')), /which pawn move is best/);
  assert.equal(await r.locator(tid('comment-zh')).count(), 0, 'read-only for a reader');
  await r.locator(tid('step-choice')).nth(0).click();
  await r.waitForSelector(tid('step-wrong'));
  await r.locator(tid('step-choice')).nth(1).click();
  await r.waitForSelector(tid('step-done'));
  await r.click(`${tid('study-chapter')}[data-index="1"]`);
  await r.click(`${tid('study-move')}[data-path="1"]`);
  await r.waitForFunction((sel) => document.querySelector(sel)?.dataset.kind === 'moves', tid('study-step'));
  await clickMove(r, 'd2d4');
  await r.waitForSelector(tid('step-wrong'));
  await clickMove(r, 'g1f3');
  await r.waitForSelector(tid('step-done'));
  assert.match((await board(r)).fen, /5N2/);
  await R.context.close();
  await T.context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// 复盘 end to end: a game against the computer in which we hang a piece, resigned; its review comes by itself
// (progress first), marks the blunder in the move list, explains it in zh and in en, and "learn from your mistakes"
// replays it as an exercise on the main board that the engine's move solves.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, chooseMove, clickMove, clickSquare, hangingMove, launch, newPage, startServer, tid, waitTurnOrEnd, startComputerGame } from './lib.mjs';

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

test('a blunder against the computer is marked, explained in zh and en, and replayed as an exercise', { timeout: 300_000 }, async () => {
  const { page } = await newPage(browser, server.base, { lang: 'zh' });
  const gameId = await startComputerGame(page);

  // Play until a piece can be hung, then hang it.
  let hangPly = null;
  for (let i = 0; i < 30 && hangPly === null; i++) {
    const st = await waitTurnOrEnd(page, 'white', 60_000);
    assert.ok(!['finished', 'aborted'].includes(st.status), 'the game goes on');
    const hang = i > 0 ? hangingMove(st.fen) : null;
    const uci = hang?.uci ?? chooseMove(st.fen);
    await clickMove(page, uci);
    await page.waitForFunction(
      ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
      [tid('board'), st.ply],
      { timeout: 30_000, polling: 50 },
    );
    if (hang) hangPly = st.ply + 1;
  }
  assert.ok(hangPly, 'found a piece to hang');
  // Resign — unless the computer's reply already ended the game (a mate the blunder allowed).
  const end = await waitTurnOrEnd(page, 'white', 60_000);
  if (end.status !== 'finished') {
    await page.click(tid('resign'));
    await page.click(tid('resign-confirm'));
  }
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);

  // The review starts by itself (a game against the computer) and shows its progress, then the accuracy.
  await page.waitForSelector(tid('review-panel'));
  await page.waitForSelector(tid('review-accuracy'), { timeout: 120_000 });
  const review = await page.evaluate(async (id) => (await fetch(`/api/game/${id}/review`)).json(), gameId);
  assert.equal(review.status, 'done');
  // The piece we hung is a mistake or a blunder — unless the computer had already won the game by then (the loss is
  // in winning chances: none left to lose); then it is our first move that was.
  // A piece hung from a won position is a missed win (marked "?" in the move list).
  const marked = ['mistake', 'blunder', 'missed_win'];
  const ours = review.review.moves.filter((m) => m.ply % 2 === 1 && marked.includes(m.class));
  let judged = review.review.moves[hangPly - 1];
  if (!marked.includes(judged.class)) {
    assert.ok(judged.loss < 8 && ours.length > 0, `ply ${hangPly}: ${JSON.stringify(judged)}; ours: ${ours.length}`);
    judged = ours[0];
  }
  const blunderPly = judged.ply;

  // The mark in the move list.
  const mark = judged.class === 'blunder' ? '??' : '?';
  await page.waitForFunction(
    ([sel, m]) => document.querySelector(sel)?.textContent.includes(m),
    [tid('move-list'), mark],
    { timeout: 10_000 },
  );

  // The explanation of that move, in zh, then in en.
  await page.click(`${tid('review-moment')}[data-ply="${blunderPly}"] a`);
  await page.waitForSelector(`${tid('review-comment')}[data-ply="${blunderPly}"]`);
  const zh = await page.textContent(tid('review-comment'));
  // The sentence is the comment's (the move written once, in front of it).
  const zhSentence = await page.textContent(tid('review-sentence'));
  assert.ok(zhSentence && judged.comment.zh.includes(zhSentence.slice(0, 6)), `zh: ${zh}`);
  assert.match(zh, /败着|错着|错失胜机/);
  await page.click(tid('lang-switch'));
  await page.waitForFunction(() => document.documentElement.lang.startsWith('en'));
  await page.waitForSelector(tid('review-accuracy'));
  await page.click(`${tid('review-moment')}[data-ply="${blunderPly}"] a`);
  await page.waitForFunction(
    ([sel, text]) => text.includes(document.querySelector(sel)?.textContent.slice(0, 12) || '\u0000'),
    [tid('review-sentence'), judged.comment.en],
  );
  const en = await page.textContent(tid('review-comment'));
  assert.match(en, /Blunder|Mistake|Missed win/);

  // The PGN with evaluations.
  const href = await page.getAttribute(tid('review-pgn'), 'href');
  const pgn = await page.evaluate(async (u) => (await fetch(u)).text(), href);
  assert.ok(pgn.includes('[%eval'), pgn);

  // Learn from your mistakes, on the main board: the blunder's position, a wrong try, then the engine's move.
  await page.click(tid('review-learn'));
  await page.waitForSelector(`${tid('board')}[data-learn="1"]`);
  const prompt = await page.textContent(tid('review-learn-prompt'));
  assert.match(prompt, /Exercise 1 of \d+/);
  const exercises = review.review.moves.filter((m) => m.ply % 2 === 1 && m.exercise);
  const first = exercises[0];
  const fen = await page.getAttribute(tid('board'), 'data-fen');
  assert.ok(fen, 'the exercise board mirrors its position');
  await clickSquare(page, first.uci.slice(0, 2));
  await clickSquare(page, first.uci.slice(2, 4));
  await page.waitForFunction((sel) => /✗|✓/.test(document.querySelector(sel)?.textContent ?? ''), tid('review-learn-feedback'));
  assert.match(await page.textContent(tid('review-learn-feedback')), /✗/, 'the move played in the game is not the answer');
  await clickSquare(page, first.best.slice(0, 2));
  await clickSquare(page, first.best.slice(2, 4));
  await page.waitForFunction((sel) => /✓/.test(document.querySelector(sel)?.textContent ?? ''), tid('review-learn-feedback'));
  for (let i = 0; i < exercises.length; i++) await page.click(tid('review-learn-next'));
  assert.match(await page.textContent(tid('review-learn-done')), /You found 1 of \d+/);
  // Back to the game: the board shows it again.
  await page.click(tid('review-learn-close'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.learn === undefined, tid('board'));
  assert.equal((await boardState(page)).status, 'finished');
});

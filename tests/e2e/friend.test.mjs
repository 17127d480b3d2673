// SPDX-License-Identifier: GPL-3.0-or-later
// Two browsers (two guests) play each other through a friend link: clocks, a draw offered and accepted, a rematch
// ended by resignation, and a game lost on time with a 15-second clock. Also: an illegal move is explained.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, clickMove, clickSquare, launch, newPage, sleep, startServer, tid, waitTurnOrEnd, playAndWait as play } from './lib.mjs';

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

/** A challenges B with `tc` (A plays white); B opens the link and accepts. Returns the game id. */
async function friendGame(a, b, tc) {
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.fill(tid('time-control'), tc);
  await a.click(tid('start-game'));
  const linkEl = a.locator(tid('friend-link'));
  await linkEl.waitFor();
  const url = await linkEl.inputValue();
  assert.match(url, /\/challenge\/[A-Za-z0-9]+$/);
  await b.goto(new URL(url).pathname);
  await b.click(tid('accept-challenge'));
  await Promise.all([a.waitForURL(/\/game\/[A-Za-z0-9]+$/), b.waitForURL(/\/game\/[A-Za-z0-9]+$/)]);
  const id = a.url().split('/').pop();
  assert.equal(b.url().split('/').pop(), id);
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  return id;
}


async function clockMs(page, color) {
  return Number(await page.getAttribute(tid(`clock-${color}`), 'data-ms'));
}

test('friend link: clocks tick, a draw is offered and accepted, the rematch ends by resignation', { timeout: 180_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'en' });
  const a = A.page;
  const b = B.page;
  await friendGame(a, b, '5+2');

  await play(a, b, 'white', 'e2e4');
  await play(b, a, 'black', 'e7e5');
  // After both first moves White's clock runs, on both screens.
  await sleep(1200);
  const w1 = await clockMs(b, 'white');
  await sleep(1000);
  const w2 = await clockMs(b, 'white');
  assert.ok(w2 < w1 - 500, `white's clock should run: ${w1} → ${w2}`);
  assert.ok(w1 < 300_000);
  assert.equal(await clockMs(a, 'black'), 300_000);
  await play(a, b, 'white', 'g1f3');

  // White offers a draw on Black's turn; Black accepts.
  await a.click(tid('offer-draw'));
  await a.waitForSelector(tid('draw-sent'));
  await b.click(tid('accept-draw'));
  for (const p of [a, b]) await p.waitForSelector(`${tid('board')}[data-status="finished"]`);
  assert.match(await a.textContent(tid('result')), /1\/2-1\/2/);
  assert.match(await a.textContent(tid('result')), /和/);
  assert.match(await b.textContent(tid('result')), /[Dd]raw/);

  // Rematch: offered by A, accepted by B; both go to the new game.
  const oldUrl = a.url();
  await a.click(tid('rematch'));
  await b.click(tid('accept-rematch'));
  await Promise.all([
    a.waitForURL((u) => u.toString() !== oldUrl && /\/game\//.test(u.toString())),
    b.waitForURL((u) => u.toString() !== oldUrl && /\/game\//.test(u.toString())),
  ]);
  assert.equal(a.url(), b.url());
  await a.waitForSelector(`${tid('board')}[data-my-color]:not([data-my-color=""])`);
  await b.waitForSelector(`${tid('board')}[data-my-color]:not([data-my-color=""])`);
  const colorA = (await boardState(a)).myColor;
  const [white, black] = colorA === 'white' ? [a, b] : [b, a];
  await play(white, black, 'white', 'd2d4');
  await play(black, white, 'black', 'd7d5');
  // White resigns (with confirmation).
  await white.click(tid('resign'));
  await white.click(tid('resign-confirm'));
  for (const p of [a, b]) await p.waitForSelector(`${tid('board')}[data-status="finished"]`);
  assert.match(await b.textContent(tid('result')), /0-1/);
  assert.match(await a.textContent(tid('result')), /认输/);
  assert.match(await b.textContent(tid('result')), /resign/i);
  await A.context.close();
  await B.context.close();
});

test('a 15-second game is lost on time, with the low-time warning', { timeout: 120_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const a = A.page;
  const b = B.page;
  await friendGame(a, b, '0.25+0');
  await play(a, b, 'white', 'e2e4');
  await play(b, a, 'black', 'e7e5');
  // White does not move: the warning shows, then the flag falls.
  await a.waitForSelector(`${tid('clock-white')}.low`, { timeout: 20_000 });
  await a.waitForSelector(`${tid('board')}[data-status="finished"]`, { timeout: 40_000 });
  await b.waitForSelector(`${tid('board')}[data-status="finished"]`, { timeout: 10_000 });
  const result = await b.textContent(tid('result'));
  assert.match(result, /0-1/);
  assert.match(result, /超时/);
  assert.equal(await a.textContent(tid('clock-white')), '0:00.0');
  await A.context.close();
  await B.context.close();
});

test('an illegal move snaps back and its reason is shown, in the chosen language', { timeout: 120_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'en' });
  const a = A.page;
  const b = B.page;
  await friendGame(a, b, '10+0');
  // 1. e4 e5 2. Bc4 … Black's f7 pawn is then pinned? Use the king: 1. e4 f6 2. Qh5+ and Black may not ignore it.
  await play(a, b, 'white', 'e2e4');
  await play(b, a, 'black', 'f7f6');
  await play(a, b, 'white', 'd1h5');
  // Black is in check and tries a move that ignores it.
  const before = await boardState(b);
  await waitTurnOrEnd(b, 'black');
  await clickSquare(b, 'a7');
  await clickSquare(b, 'a6');
  const reasonEn = b.locator(tid('illegal-reason'));
  await reasonEn.filter({ hasText: /check/i }).waitFor({ timeout: 10_000 });
  const after = await boardState(b);
  assert.equal(after.fen, before.fen, 'the piece went back');
  assert.equal(after.ply, before.ply);
  console.log(`# en: ${await reasonEn.textContent()}`);

  // A pawn cannot go three squares: explained in Chinese to White (after Black's reply).
  await play(b, a, 'black', 'g7g6');
  await waitTurnOrEnd(a, 'white');
  await clickSquare(a, 'a2');
  await clickSquare(a, 'a5');
  const reasonZh = a.locator(tid('illegal-reason'));
  await reasonZh.filter({ hasText: /[\u4e00-\u9fff]/ }).waitFor({ timeout: 10_000 });
  console.log(`# zh: ${await reasonZh.textContent()}`);
  // Typed moves: 马f3 is parsed (Chinese letters) and played.
  await a.fill(tid('move-input'), '马f3');
  await a.press(tid('move-input'), 'Enter');
  await b.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Nf3'), tid('move-list'));
  // A premove: on Black's turn White picks up the bishop and drops it on c4; it is played when Black has moved.
  await a.waitForSelector(`${tid('board')}[data-turn="black"]`);
  await clickSquare(a, 'f1');
  await clickSquare(a, 'c4');
  await play(b, a, 'black', 'b8c6');
  await b.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Bc4'), tid('move-list'), { timeout: 10_000 });
  assert.equal((await boardState(b)).turn, 'black');
  await A.context.close();
  await B.context.close();
});

test('when the opponent leaves, a countdown runs and then victory can be claimed', { timeout: 150_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'en' });
  const B = await newPage(browser, server.base, { lang: 'en' });
  const a = A.page;
  const b = B.page;
  await friendGame(a, b, '10+0');
  await play(a, b, 'white', 'e2e4');
  await play(b, a, 'black', 'e7e5');
  // Black closes the tab.
  await B.context.close();
  await a.locator(tid('opponent-gone')).filter({ hasText: /\d+ s/ }).waitFor({ timeout: 20_000 });
  assert.match(await a.textContent(tid('opponent-gone')), /left the game/);
  // After the minute, the claim wins.
  await a.locator(tid('opponent-gone')).filter({ hasNotText: /\d+ s/ }).waitFor({ timeout: 75_000 });
  await a.click(tid('claim-victory'));
  await a.waitForSelector(`${tid('board')}[data-status="finished"]`, { timeout: 10_000 });
  assert.match(await a.textContent(tid('result')), /1-0/);
  await A.context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The lobby: a posted seek joined by another player, quick pairing, a game watched from the live list; and in
// games: a draw claimed by threefold repetition, a takeback against the computer, an abort.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, clickMove, launch, newPage, startServer, tid, waitTurnOrEnd } from './lib.mjs';

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

async function move(page, color, uci) {
  const st = await waitTurnOrEnd(page, color);
  await clickMove(page, uci);
  await page.waitForFunction(
    ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
    [tid('board'), st.ply],
    { timeout: 30_000, polling: 50 },
  );
}

test('a seek is joined from the lobby; a spectator watches; threefold repetition is claimed', { timeout: 180_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const C = await newPage(browser, server.base, { lang: 'en' });
  const [a, b, c] = [A.page, B.page, C.page];
  await b.goto('/');
  await a.goto('/');
  await a.click(tid('create-seek'));
  await a.selectOption(tid('color'), 'white');
  await a.fill(tid('time-control'), '10+0');
  await a.click(tid('start-game'));
  await a.waitForSelector(tid('cancel-seek'));
  await b.click(tid('accept-seek'));
  await Promise.all([a.waitForURL(/\/game\//), b.waitForURL(/\/game\//)]);
  const gameId = a.url().split('/').pop();
  assert.equal((await boardState(a)).myColor || 'white', 'white');
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  await move(a, 'white', 'g1f3');
  await move(b, 'black', 'g8f6');

  // A third browser finds it among the live games and watches.
  await c.goto('/');
  await c.click(`${tid('live-game')}[data-game="${gameId}"]`);
  await c.waitForURL(new RegExp(`/game/${gameId}$`));
  await c.waitForSelector(`${tid('board')}[data-ply="2"]`);
  assert.equal((await boardState(c)).myColor, '');
  assert.equal(await c.$(tid('resign')), null);

  // Knights out and back twice: the start position for the third time, White to move claims.
  for (const [p, color, uci] of [
    [a, 'white', 'f3g1'],
    [b, 'black', 'f6g8'],
    [a, 'white', 'g1f3'],
    [b, 'black', 'g8f6'],
    [a, 'white', 'f3g1'],
  ]) {
    await move(p, color, uci);
  }
  assert.equal(await a.$(tid('claim-draw')), null, 'not yet: twice only');
  // Black's Ng8 would repeat the start position a third time: Black is offered a claim with the move, and just plays.
  await waitTurnOrEnd(b, 'black');
  await clickMove(b, 'f6g8');
  await b.click(tid('play-anyway'));
  await a.waitForSelector(`${tid('board')}[data-ply="8"]`);
  await waitTurnOrEnd(a, 'white');
  await a.click(tid('claim-draw'));
  for (const p of [a, b, c]) await p.waitForSelector(`${tid('board')}[data-status="finished"]`);
  assert.match(await a.textContent(tid('result')), /1\/2-1\/2/);
  assert.match(await a.textContent(tid('result')), /重复/);
  assert.match(await c.textContent(tid('result')), /repetition/i);
  for (const x of [A, B, C]) await x.context.close();
});

test('quick pairing pairs two players waiting for the same time control', { timeout: 60_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'en' });
  const B = await newPage(browser, server.base, { lang: 'en' });
  const [a, b] = [A.page, B.page];
  for (const p of [a, b]) {
    await p.goto('/');
    await p.waitForSelector(tid('pool-180+2'));
  }
  await a.click(tid('pool-180+2'));
  await b.waitForFunction((sel) => /1 waiting/.test(document.querySelector(sel)?.textContent ?? ''), tid('pool-180+2'));
  await b.click(tid('pool-180+2'));
  await Promise.all([a.waitForURL(/\/game\//), b.waitForURL(/\/game\//)]);
  assert.equal(a.url(), b.url());
  const colors = [(await boardState(a)).myColor, (await boardState(b)).myColor].sort();
  await a.waitForSelector(`${tid('board')}:not([data-my-color=""])`);
  await b.waitForSelector(`${tid('board')}:not([data-my-color=""])`);
  const sorted = [(await boardState(a)).myColor, (await boardState(b)).myColor].sort();
  assert.deepEqual(sorted, ['black', 'white'], JSON.stringify(colors));
  // Nobody moved: the game can be aborted.
  await a.click(tid('abort'));
  for (const p of [a, b]) await p.waitForSelector(`${tid('board')}[data-status="aborted"]`);
  assert.match(await b.textContent(tid('result')), /aborted/i);
  await A.context.close();
  await B.context.close();
});

test('against the computer a takeback is granted', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/');
  await page.click(tid('play-computer'));
  await page.selectOption(tid('level'), '2');
  await page.selectOption(tid('color'), 'white');
  await page.fill(tid('time-control'), '5+5');
  await page.click(tid('start-game'));
  await page.waitForURL(/\/game\//);
  await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await move(page, 'white', 'e2e4');
  await waitTurnOrEnd(page, 'white');
  await move(page, 'white', 'd2d4');
  const st = await waitTurnOrEnd(page, 'white');
  assert.equal(st.ply, 4);
  await page.click(tid('takeback'));
  await page.waitForSelector(`${tid('board')}[data-ply="2"][data-turn="white"]`);
  assert.match(await page.textContent(tid('move-list')), /e4/);
  assert.doesNotMatch(await page.textContent(tid('move-list')), /d4/);
  // Chinese piece letters in the move list.
  await move(page, 'white', 'g1f3');
  await page.check(tid('chinese-letters'));
  assert.match(await page.textContent(tid('move-list')), /马f3/);
  await page.uncheck(tid('chinese-letters'));
  await context.close();
});

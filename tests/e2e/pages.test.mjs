// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board (PGN and FEN loading, navigation, the engine's evaluation and line, the evaluation graph, a
// finished game opened from its page), registration and login, a rated game between two accounts, and the
// profile (ratings, 级别/积分, rating history chart, games with PGN download). Also the phone layout.

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

const PGN = `[Event "Test"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0`;

test('analysis board: PGN, navigation, engine line, evaluation graph, FEN', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/analysis');
  await page.fill(tid('pgn-input'), PGN);
  await page.click(tid('load-pgn'));
  await page.waitForSelector(`${tid('move-list')} [data-ply="7"]`);
  assert.match(await page.textContent(tid('move-list')), /Qxf7#/);
  assert.equal((await boardState(page)).ply, 0);
  // The engine on the start position.
  await page.locator(tid('engine-eval')).filter({ hasText: /depth \d+/ }).waitFor({ timeout: 30_000 });
  assert.match(await page.textContent(tid('best-line')), /1\. \S+/);
  // Step with the keyboard and the buttons.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await boardState(page)).ply, 2);
  await page.click(tid('nav-last'));
  const end = await boardState(page);
  assert.equal(end.ply, 7);
  assert.equal(end.fen.split(' ')[0], 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR');
  await page.locator(tid('engine-eval')).filter({ hasText: /Checkmate/ }).waitFor();
  await page.waitForFunction((sel) => /King's Pawn|Bishop/i.test(document.querySelector(sel)?.textContent ?? ''), tid('opening-name'));
  // The whole game: progress, then the graph.
  await page.click(tid('analyse-game'));
  await page.locator(tid('eval-progress')).filter({ hasText: /All 8 positions/ }).waitFor({ timeout: 60_000 });
  assert.ok(await page.$(`${tid('eval-graph')} svg polyline`));
  // Clicking a move in the list shows it; another move on the board is a variation (the game stays).
  await page.click(`${tid('move-list')} [data-ply="3"]`);
  assert.equal((await boardState(page)).ply, 3);
  await clickMove(page, 'g8f6');
  await page.waitForSelector(`${tid('board')}[data-ply="4"][data-mainline="false"]`);
  assert.ok(await page.$(`${tid('move-list')} [data-ply="7"]`));
  // A FEN.
  await page.fill(tid('pgn-input'), '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
  await page.click(tid('load-pgn'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.fen?.startsWith('8/8/8/4k3/8/8/4P3/4K3 w'), tid('board'));
  // Promotion: the chooser offers the pieces; take a knight.
  await page.fill(tid('pgn-input'), '8/P7/8/8/8/8/8/k6K w - - 0 1');
  await page.click(tid('load-pgn'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.fen?.startsWith('8/P7/'), tid('board'));
  await clickMove(page, 'a7a8n');
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.fen?.startsWith('N7/8/'), tid('board'));
  assert.match(await page.textContent(tid('move-list')), /a8=N/);
  await page.check(tid('chinese-letters'));
  assert.match(await page.textContent(tid('move-list')), /a8=马/);
  await page.uncheck(tid('chinese-letters'));
  await context.close();
});

test('register, log out, log in; a rated game; the profile with ratings, history and games', { timeout: 180_000 }, async () => {
  const suffix = String(Date.now()).slice(-6);
  const users = [`alice${suffix}`, `bob${suffix}`];
  const pw = 'correct-horse-1';
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const pages = [A.page, B.page];
  for (const [i, p] of pages.entries()) {
    await p.goto('/register');
    await p.fill(tid('username'), users[i]);
    await p.fill(tid('password'), pw);
    await p.click(tid('register'));
    await p.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), users[i]]);
  }
  const a = A.page;
  const b = B.page;
  // Log out and in again; a wrong password is refused with a message.
  await a.goto(`/@/${users[0]}`);
  await a.click(tid('logout'));
  // A guest, named in Chinese (the page is in Chinese).
  await a.waitForFunction((sel) => document.querySelector(sel)?.textContent?.startsWith('游客-'), tid('me'));
  await a.goto('/login');
  await a.fill(tid('username'), users[0]);
  await a.fill(tid('password'), 'wrong-password');
  await a.click(tid('login'));
  await a.locator(tid('login-error')).filter({ hasText: /密码/ }).waitFor();
  await a.fill(tid('password'), pw);
  await a.click(tid('login'));
  await a.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), users[0]]);

  // A rated friend game, Alice white; Bob resigns after a few moves.
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.fill(tid('time-control'), '5+3');
  await a.check(tid('rated'));
  await a.click(tid('start-game'));
  const url = await a.locator(tid('friend-link')).inputValue();
  await b.goto(new URL(url).pathname);
  await b.click(tid('accept-challenge'));
  await Promise.all([a.waitForURL(/\/game\//), b.waitForURL(/\/game\//)]);
  const gameId = a.url().split('/').pop();
  for (const [p, color, uci] of [
    [a, 'white', 'e2e4'],
    [b, 'black', 'e7e5'],
    [a, 'white', 'g1f3'],
    [b, 'black', 'b8c6'],
  ]) {
    const st = await waitTurnOrEnd(p, color);
    await clickMove(p, uci);
    await p.waitForSelector(`${tid('board')}[data-ply="${st.ply + 1}"]`);
  }
  await a.waitForFunction((sel) => /王马|意大利|西班牙|开局/.test(document.querySelector(sel)?.textContent ?? ''), tid('opening-name'));
  // Takebacks are for casual games only: no button here.
  assert.equal(await a.$(tid('takeback')), null);
  await b.click(tid('resign'));
  await b.click(tid('resign-confirm'));
  await a.waitForSelector(`${tid('board')}[data-status="finished"]`);

  // Alice's profile.
  await a.goto(`/@/${users[0]}`);
  await a.waitForSelector(tid('game-row'));
  assert.equal(await a.textContent(tid('profile-name')), users[0]);
  assert.match(await a.textContent(tid('points')), /积分 \d+/);
  assert.ok((await a.textContent(tid('level-name'))).trim().length > 0);
  const blitz = await a.textContent(`${tid('ratings')} tr[data-speed="blitz"]`);
  assert.match(blitz, /\d{4}\?/);
  assert.doesNotMatch(blitz, /1500\?/, 'the won game moved the blitz rating');
  await a.waitForSelector(`${tid('rating-chart')} svg circle`, { state: 'attached' });
  assert.match(await a.textContent(`${tid('game-row')}[data-game="${gameId}"] ${tid('rating-diff')}`), /^\+\d+$/);
  const href = await a.getAttribute(`${tid('game-row')}[data-game="${gameId}"] ${tid('download-pgn')}`, 'href');
  const pgn = await (await a.request.get(href)).text();
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.match(pgn, /1\. e4 .*e5 .*2\. Nf3 .*Nc6/s);

  // The finished game opens in the analysis board.
  await a.goto(`/analysis/${gameId}`);
  await a.waitForSelector(`${tid('move-list')} [data-ply="4"]`);
  await A.context.close();
  await B.context.close();
});

test('phone layout: 360 px wide, nothing wider than the screen, the board fits', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en', width: 360, height: 740, mobile: true });
  for (const [path, open] of [['/', null], ['/', 'play-computer'], ['/', 'play-friend'], ['/analysis', null], ['/login', null]]) {
    await page.goto(path);
    await page.waitForSelector(tid('lang-switch'));
    if (open) await page.click(tid(open));
    // The analysis board once the engine's line is there (one row, however long the line).
    if (path === '/analysis') await page.waitForSelector(tid('best-line'), { timeout: 30_000 });
    await page.waitForTimeout(300);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(w <= 360, `${path} is ${w}px wide`);
  }
  await page.goto('/');
  await page.click(tid('play-computer'));
  await page.selectOption(tid('level'), '1');
  await page.fill(tid('time-control'), '-');
  await page.selectOption(tid('color'), 'white');
  await page.click(tid('start-game'));
  await page.waitForURL(/\/game\//);
  await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  const box = await page.locator(tid('board')).boundingBox();
  assert.ok(box.width >= 320 && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360);
  // Tapping works as clicking.
  await clickMove(page, 'e2e4');
  await page.waitForSelector(`${tid('board')}[data-ply="2"]`, { timeout: 30_000 });
  await context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// 开局库 on the analysis board: folded until asked for; over the imported games (tests/e2e/fixtures/games.pgn,
// imported by run.sh) it lists the moves with their counts, names the opening and its family, and a click plays the
// move on the board and shows the next position's moves.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, launch, newPage, startServer, tid } from './lib.mjs';

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

test('the opening explorer over imported games: counts, the opening, a click plays the move', { timeout: 120_000 }, async () => {
  if (!process.env.GX_BASE) {
    console.log('# skipped: needs the database run.sh imports (bash tests/e2e/run.sh)');
    return;
  }
  const { page } = await newPage(browser, server.base, { lang: 'zh' });
  await page.goto('/analysis');
  await page.waitForSelector(tid('board'));
  assert.equal(await page.isVisible(tid('explorer')), false, 'folded at first');
  await page.click(tid('explorer-toggle'));
  // The list first shows this server's games (other tests' games may begin 1. e4 too) and is redrawn when the
  // imported games' answer comes: wait for that answer and the redraw, or a click may land on a row being replaced.
  const imported = page.waitForResponse((r) => r.url().includes('/api/explorer') && r.url().includes('source=imported'));
  await page.click(tid('explorer-source-imported'));
  await imported;
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const e4 = page.locator(tid('explorer-move-e2e4'));
  await e4.waitFor();
  assert.match(await e4.textContent(), /2/, 'two of the three games began 1. e4');
  assert.ok(await page.isVisible(tid('explorer-move-d2d4')));
  await e4.click();
  await page.waitForSelector(`${tid('board')}[data-ply="1"]`);
  assert.equal((await boardState(page)).fen.split(' ')[0], 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR');
  await page.locator(tid('explorer-move-e7e5')).waitFor();
  assert.ok(await page.isVisible(tid('explorer-move-c7c5')));
  await page.click(tid('explorer-move-e7e5'));
  await page.waitForSelector(`${tid('board')}[data-ply="2"]`);
  await page.waitForFunction((sel) => /开放性布局/.test(document.querySelector(sel)?.textContent ?? ''), tid('explorer-family'));
  assert.ok(await page.isVisible(tid('explorer-move-g1f3')));
});

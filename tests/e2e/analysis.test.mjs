// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board's move tree and engine stream: a PGN with a variation and a comment loaded; a side line played
// on the board keeps the main line; promotion and deletion; the PGN exported with the variation; the engine's lines
// (streamed over /ws/analysis) always about the position on the board, never the one before; MultiPV; on/off;
// arrows on the board.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, clickMove, isLegalUci, launch, newPage, startServer, tid } from './lib.mjs';

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

const PGN = `[Event "Tree"]
[White "W"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 (2. Bc4 Nf6) Nc6 3. Bb5 { the Spanish } a6 *`;

/** Waits until the engine shows lines for the position on the board; returns their first moves. */
async function linesForBoard(page, count = 1) {
  await page.waitForFunction(
    ([lines, board, n]) => {
      const l = document.querySelector(lines);
      const b = document.querySelector(board);
      return l && b && l.dataset.fen === b.dataset.fen && l.querySelectorAll('.engine-line').length >= n;
    },
    [tid('engine-lines'), tid('board'), count],
    { timeout: 30_000 },
  );
  return page.$$eval(`${tid('engine-lines')} .engine-line`, (els) => els.map((e) => e.dataset.first));
}

test('analysis board: variations kept, PGN exported with them, the engine follows the position', { timeout: 180_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/analysis');
  await page.waitForSelector(tid('engine-lines'));
  // Every change of the engine's lines is checked against the board: lines about another position are a failure.
  await page.evaluate(
    ([lines, board]) => {
      window.__staleLines = [];
      const check = () => {
        const l = document.querySelector(lines);
        const b = document.querySelector(board);
        if (l && b && l.dataset.fen && l.dataset.fen !== b.dataset.fen) window.__staleLines.push([l.dataset.fen, b.dataset.fen]);
        // The panel's height, by its settings: it must not change while the engine streams (what is below it
        // would move under the pointer).
        const box = l?.closest('.engine-box');
        const on = document.querySelector('[data-testid="engine-toggle"]')?.checked;
        const pv = document.querySelector('[data-testid="engine-multipv"]')?.value;
        if (box) (window.__heights[`${on}/${pv}`] ??= new Set()).add(Math.round(box.getBoundingClientRect().height));
      };
      window.__heights = {};
      new MutationObserver(check).observe(document.querySelector(lines), { childList: true, subtree: true, attributes: true });
      new MutationObserver(check).observe(document.querySelector(board), { attributes: true, attributeFilter: ['data-fen'] });
    },
    [tid('engine-lines'), tid('board')],
  );
  await page.fill(tid('pgn-input'), PGN);
  await page.click(tid('load-pgn'));
  await page.waitForFunction((sel) => /Bb5/.test(document.querySelector(sel)?.textContent ?? ''), tid('move-list'));
  assert.equal(await page.locator(tid('variation')).count(), 1, 'the PGN variation is shown');
  assert.match(await page.textContent(tid('move-list')), /the Spanish/);
  assert.equal((await boardState(page)).ply, 0);

  // The engine on the start position, then after 1. e4: its lines follow the board.
  const start = await linesForBoard(page);
  const startFen = (await boardState(page)).fen;
  assert.ok(start.every((u) => isLegalUci(startFen, u)), `${start}`);
  await page.waitForSelector(`${tid('board')} svg.cg-shapes line`, { state: 'attached', timeout: 5_000 }); // the best move's arrow
  await page.keyboard.press('ArrowRight');
  const e4 = await linesForBoard(page);
  const e4Fen = (await boardState(page)).fen;
  assert.match(e4Fen, / b /);
  assert.ok(e4.every((u) => isLegalUci(e4Fen, u)), `black's moves after 1. e4: ${e4}`);

  // To 2…Nc6 (main line), then a side line on the board: 3. Bc4.
  await page.click(`${tid('move-list')} .mv.main[data-ply="4"]`);
  assert.equal((await boardState(page)).ply, 4);
  await clickMove(page, 'f1c4');
  await page.waitForSelector(`${tid('board')}[data-ply="5"][data-mainline="false"]`);
  const text = await page.textContent(tid('move-list'));
  assert.match(text, /Bb5.*a6/s, 'the main line is still there');
  assert.equal(await page.locator(tid('variation')).count(), 2);
  const bc4 = await linesForBoard(page);
  const bc4Fen = (await boardState(page)).fen;
  assert.ok(bc4.every((u) => isLegalUci(bc4Fen, u)), `${bc4}`);

  // ↑ goes to the main move of the same turn, ↓ back to the variation.
  await page.keyboard.press('ArrowUp');
  await page.waitForSelector(`${tid('board')}[data-ply="5"][data-mainline="true"]`);
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector(`${tid('board')}[data-ply="5"][data-mainline="false"]`);

  // Export: the variation is in the PGN, with the comment.
  await page.click(tid('export-pgn'));
  await page.locator(tid('pgn-output')).waitFor({ state: 'visible' });
  const pgn = await page.inputValue(tid('pgn-output'));
  assert.match(pgn, /\(\s*2\. Bc4 Nf6\s*\)/, pgn);
  assert.match(pgn, /3\. Bb5 \{ the Spanish \}/, pgn);
  assert.match(pgn, /a6 \*/, pgn);
  assert.match(pgn, /\(\s*3\. Bc4\s*\)/, pgn);

  // Make the side line the main line, then delete it again.
  await page.click(tid('tree-main'));
  await page.waitForSelector(`${tid('board')}[data-ply="5"][data-mainline="true"]`);
  await page.click(tid('export-pgn'));
  assert.match(await page.inputValue(tid('pgn-output')), /3\. Bc4 \(\s*3\. Bb5/);
  await page.click(tid('tree-delete'));
  await page.waitForSelector(`${tid('board')}[data-ply="4"]`);
  assert.doesNotMatch(await page.textContent(tid('move-list')), /Bc4.*Bc4/s);
  await page.keyboard.press('End');
  assert.equal((await boardState(page)).ply, 6, 'End follows the main line (3. Bb5 a6 again)');

  // Three lines, three arrows; off and on again.
  await page.selectOption(tid('engine-multipv'), '3');
  const three = await linesForBoard(page, 3);
  assert.equal(new Set(three).size, 3, `${three}`);
  await page.uncheck(tid('engine-toggle'));
  await page.locator(tid('engine-eval')).filter({ hasText: /off/ }).waitFor();
  assert.equal(await page.locator(`${tid('engine-lines')} .engine-line`).count(), 0);
  await page.check(tid('engine-toggle'));
  await linesForBoard(page, 3);
  await page.selectOption(tid('engine-multipv'), '1');

  // Quick steps back: each position's lines or none, never the previous one's.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await linesForBoard(page);
  assert.deepEqual(await page.evaluate(() => window.__staleLines), [], 'lines shown for another position');
  const heights = await page.evaluate(() => Object.fromEntries(Object.entries(window.__heights).map(([k, v]) => [k, [...v]])));
  for (const [k, v] of Object.entries(heights)) assert.equal(v.length, 1, `the engine panel's height changed (on/lines ${k}): ${v}`);
  assert.ok(heights['true/1'], JSON.stringify(heights));
  await context.close();
});

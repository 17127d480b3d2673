// SPDX-License-Identifier: GPL-3.0-or-later
// Rule sets in the browser (issue 18): a touch-move game between friends, in Chinese. The rule set is shown to both
// players; picking up the knight touches it, both see what it obliges ("你已摸了马g1，必须走马"), and another move is
// refused with that explanation until the knight moves. "I adjust" (我摆正) first binds nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, clickSquare, launch, newPage, startServer, tid, playAndWait as play } from './lib.mjs';

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

test('a touch-move game explains the obligation in Chinese', { timeout: 180_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const a = A.page;
  const b = B.page;
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.selectOption(tid('rules'), 'touch_move');
  await a.fill(tid('time-control'), '30+0');
  await a.click(tid('start-game'));
  const linkEl = a.locator(tid('friend-link'));
  await linkEl.waitFor();
  await b.goto(new URL(await linkEl.inputValue()).pathname);
  await b.click(tid('accept-challenge'));
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  for (const p of [a, b]) {
    assert.match(await p.locator(tid('rules')).innerText(), /摸子走子/);
  }

  // "I adjust", then the bishop: adjusted, nothing binds.
  await a.click(tid('adjust'));
  await clickSquare(a, 'f1');
  // Picking up the knight touches it: both players are told what that obliges.
  await clickSquare(a, 'g1');
  const notice = '你已摸了马g1，必须走马';
  await a.waitForFunction(([sel, text]) => document.querySelector(sel)?.textContent?.includes(text), [tid('rule-notice'), notice]);
  await b.waitForFunction(([sel, text]) => document.querySelector(sel)?.textContent?.includes(text), [tid('rule-notice'), notice]);
  // Another move is refused with the explanation, and the pawn stays where it was.
  await clickMove(a, 'e2e4');
  await a.waitForFunction(([sel, text]) => document.querySelector(sel)?.textContent?.includes(text), [tid('toast'), '必须走马']);
  await a.waitForFunction((sel) => document.querySelector(sel)?.dataset.fen?.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/'), tid('board'));
  // The knight moves: the game goes on, the notice is gone.
  await play(a, b, 'white', 'g1f3');
  await b.waitForFunction((sel) => !document.querySelector(sel), tid('rule-notice'));
  await play(b, a, 'black', 'e7e5');
  await A.context.close();
  await B.context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// Club rules in the browser (issue 18): a friend game with the adjournment rule set, shown on the challenge page
// before accepting; adjourned by agreement, White seals a move by making it on the board (confirmed; Black never
// sees it), a resumption time proposed and agreed with a countdown, the envelope opened at that time and the game
// going on; then an administrator — the arbiter of games they do not play — adds time to Black and sets the
// result with its reason, which both players see.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { clickMove, hasText, launch, newPage, startServer, tid, playAndWait as play } from './lib.mjs';

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

test('an adjourned game: sealed, resumed, arbitrated', { timeout: 240_000 }, async () => {
  const A = await newPage(browser, server.base, { lang: 'zh' });
  const B = await newPage(browser, server.base, { lang: 'en' });
  const a = A.page;
  const b = B.page;
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.selectOption(tid('rules'), 'adjournment');
  await a.fill(tid('time-control'), '600+5');
  await a.click(tid('start-game'));
  const linkEl = a.locator(tid('friend-link'));
  await linkEl.waitFor();
  await b.goto(new URL(await linkEl.inputValue()).pathname);
  // The invitee sees the rule set before accepting.
  await hasText(b, 'challenge-rules', 'adjournment allowed');
  await b.click(tid('accept-challenge'));
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  const gameId = new URL(a.url()).pathname.split('/').pop();
  await play(a, b, 'white', 'e2e4');
  await play(b, a, 'black', 'e7e5');

  // Black offers to adjourn, White agrees: White, on move, must seal.
  await b.click(tid('offer-adjournment'));
  await a.click(tid('accept-adjournment'));
  await hasText(a, 'seal-now', '对手和观众都看不到');
  await hasText(b, 'seal-waiting', 'White is sealing a move');
  // The move is made on the board and confirmed; it is not played.
  await clickMove(a, 'g1f3');
  await hasText(a, 'seal-confirm', 'Nf3');
  await a.click(tid('seal-move'));
  await hasText(a, 'my-sealed', 'Nf3');
  await hasText(b, 'adjourned', 'White has sealed a move');
  assert.equal(await b.locator(tid('board')).getAttribute('data-ply'), '2');
  // (The page's HTML has "Nf3" as the move box's example; what it shows must not.)
  const seen = await b.locator('body').innerText();
  assert.ok(!seen.includes('Nf3') && !seen.includes('g1f3'), `the opponent sees the sealed move: ${seen}`);

  // Black proposes a resumption in 25 seconds; White agrees; both see the time and a countdown.
  const at = await b.evaluate(() => {
    const d = new Date(Date.now() + 25_000);
    const p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  });
  await b.fill(tid('propose-resumption-time'), at);
  await b.click(tid('propose-resumption'));
  await hasText(b, 'resumption-sent', 'waiting for your opponent');
  await a.click(tid('agree-resumption'));
  await hasText(b, 'resume-at', 'The game resumes at');
  await b.waitForFunction((sel) => /\d:\d\d/.test(document.querySelector(sel)?.textContent ?? ''), tid('resume-countdown'));
  await hasText(a, 'resume-at', '续赛时间');

  // At that time the envelope is opened (both are here): the sealed move is played, and Black answers it.
  await b.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '3', tid('board'), { timeout: 60_000 });
  await hasText(b, 'rule-notice', 'The sealed move is legal');
  await hasText(b, 'move-list', 'Nf3');
  await play(b, a, 'black', 'b8c6');

  // An administrator is the arbiter of this game.
  const name = `arb${String(Date.now()).slice(-6)}`;
  const C = await newPage(browser, server.base, { lang: 'en' });
  const c = C.page;
  await c.goto('/register');
  await c.fill(tid('username'), name);
  await c.fill(tid('password'), 'correct-horse-1');
  await c.click(tid('register'));
  await c.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);
  assert.ok(server.database, 'the spec needs the server database (GX_DATABASE)');
  const made = spawnSync(process.env.GX_BIN, ['user', 'admin', name, '--database', server.database], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  // The players have no arbiter's panel; the arbiter has.
  assert.equal(await b.locator(`${tid('arbiter-panel')}:visible`).count(), 0);
  await c.goto(`/game/${gameId}`);
  await c.locator(tid('arbiter-panel')).waitFor({ state: 'visible' });
  await c.selectOption(tid('arbiter-time-color'), 'black');
  await c.fill(tid('arbiter-minutes'), '5');
  // The game goes on while the arbiter fills the form: the move redraws the page, and what the arbiter chose and
  // typed must survive it (it once fell back to "White, 2 minutes" — under load the test flaked on it).
  await b.locator(tid('claim-reason')).fill('The clock is');
  await play(a, b, 'white', 'f1c4');
  await c.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '5', tid('board'));
  assert.equal(await c.locator(tid('arbiter-time-color')).inputValue(), 'black');
  assert.equal(await c.locator(tid('arbiter-minutes')).inputValue(), '5');
  assert.equal(await b.locator(tid('claim-reason')).inputValue(), 'The clock is');
  await c.click(tid('arbiter-add-time'));
  await hasText(b, 'arbiter-note-0', `The arbiter ${name} gave Black 5:00 more`);
  await hasText(a, 'arbiter-note-0', '给黑方加时5:00');
  // The result with its reason.
  await c.selectOption(tid('arbiter-result'), '1-0');
  await c.fill(tid('arbiter-reason'), 'Article 12.9: a second warning');
  await c.check(tid('arbiter-infraction'));
  await c.click(tid('arbiter-set-result'));
  await b.waitForFunction((sel) => document.querySelector(sel)?.dataset.status === 'finished', tid('board'));
  await hasText(b, 'result', 'Article 12.9: a second warning');
  await hasText(a, 'result', '裁判');
  await c.locator(tid('arbiter-panel')).waitFor({ state: 'hidden' });
  // The PGN records the arbiter's acts.
  const pgn = await (await fetch(`${server.base}/game/export/${gameId}`)).text();
  assert.match(pgn, /\[Termination "Rules infraction"\]/);
  assert.match(pgn.replace(/\s+/g, ' '), new RegExp(`\\[%arbiter ${name} add_time\\]`));
  for (const X of [A, B, C]) await X.context.close();
});

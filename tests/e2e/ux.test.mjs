// SPDX-License-Identifier: GPL-3.0-or-later
// What a new user ran into: a 401 in the console of a first visit, unknown paths and users, guests' names and piece
// letters in Chinese, the RD column unexplained, the time-control box read in seconds, a refused move's message
// left after the next move, and toasts over a clock (checked with bounding boxes, on a desktop and a phone).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, launch, newPage, startServer, tid } from './lib.mjs';

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

/** Records failed requests and console errors of `page`. */
function watch(page) {
  const failed = [];
  const errors = [];
  page.on('response', (r) => {
    if (r.status() === 401 || r.status() === 403) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { failed, errors };
}

test('a first visit logs no 401; guests are 游客-… in Chinese and Guest-… in English', { timeout: 60_000 }, async () => {
  for (const [lang, prefix] of [
    ['zh', '游客-'],
    ['en', 'Guest-'],
  ]) {
    const { page, context } = await newPage(browser, server.base, { lang });
    const w = watch(page);
    await page.goto('/');
    await page.waitForFunction(([sel, p]) => document.querySelector(sel)?.textContent?.startsWith(p), [tid('me'), prefix]);
    await page.locator(tid('play-computer')).waitFor();
    assert.deepEqual(w.failed, [], `${lang}: no failed request on a first visit`);
    assert.deepEqual(w.errors, [], `${lang}: no console error on a first visit`);
    // A second visit (the session exists) is quiet too.
    await page.reload();
    await page.waitForFunction(([sel, p]) => document.querySelector(sel)?.textContent?.startsWith(p), [tid('me'), prefix]);
    assert.deepEqual(w.failed, [], `${lang}: nor on the next`);
    await context.close();
  }
});

test('unknown paths show the not-found page; an unknown user is said so once, with nothing else', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/training');
  await page.locator(tid('not-found')).waitFor();
  const text = await page.textContent('main');
  assert.match(text, /Page not found/);
  assert.doesNotMatch(text, /no live game|training/i, text);
  assert.equal(await page.$(tid('board')), null, 'no board for a path that is not a game');
  await page.goto('/no/such/page');
  await page.locator(tid('not-found')).waitFor();

  await page.goto('/@/nobody_by_that_name');
  await page.locator(tid('profile-error')).waitFor();
  assert.equal(await page.locator(tid('profile-error')).count(), 1);
  assert.match(await page.textContent(tid('profile-error')), /no user called nobody_by_that_name/);
  assert.equal(await page.locator('main section').count(), 0, 'no ratings, history or games sections');
  assert.equal(await page.locator('main .warn').count(), 1, 'the message once');
  await context.close();
});

test('the RD column is explained, in Chinese and English', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh' });
  await page.goto('/');
  const me = await page.locator(tid('me')).getAttribute('href');
  await page.goto(me);
  await page.locator(tid('rd-head')).waitFor();
  assert.match(await page.getAttribute(tid('rd-head'), 'title'), /等级分偏差/);
  assert.match(await page.textContent(tid('rd-note')), /RD（等级分偏差）/);
  await page.click(tid('lang-switch'));
  await page.locator(tid('rd-head')).waitFor();
  assert.match(await page.getAttribute(tid('rd-head'), 'title'), /Rating deviation/);
  assert.match(await page.textContent(tid('rd-note')), /rating deviation/);
  await context.close();
});

/** Starts a game against the computer (White) with `tc` typed in the box; returns the page on the game. */
async function computerGame(page, tc) {
  await page.goto('/');
  await page.click(tid('play-computer'));
  await page.selectOption(tid('level'), '1');
  await page.selectOption(tid('color'), 'white');
  await page.fill(tid('time-control'), tc);
  await page.click(tid('start-game'));
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
}

test('the time-control box takes minutes+seconds as the presets show them; the FIDE form too', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/');
  await page.click(tid('play-computer'));
  // A preset puts its label's form in the box.
  await page.click('[data-tc="300+3"]');
  assert.equal(await page.inputValue(tid('time-control')), '5+3');
  await page.fill(tid('time-control'), 'ten minutes');
  await page.locator(`${tid('tc-hint')}.warn`).waitFor();
  await page.fill(tid('time-control'), '40/5400+30:1800+30');
  assert.doesNotMatch(await page.getAttribute(tid('tc-hint'), 'class'), /warn/);
  await computerGame(page, '10+5');
  await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.ms) === 600_000, tid('clock-white'));
  await context.close();
});

test('in Chinese the move list uses Chinese piece letters; a refused move’s message and text go with the next move', { timeout: 90_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh' });
  await computerGame(page, '-');
  // Ke2 is not possible at the start: refused, explained, and the text stays to be corrected.
  await page.fill(tid('move-input'), 'Ke2');
  await page.press(tid('move-input'), 'Enter');
  await page.locator(`${tid('illegal-reason')}.shown`).waitFor();
  assert.equal(await page.inputValue(tid('move-input')), 'Ke2');
  const marks = '.main-board svg.cg-shapes circle';
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length > 0, marks);
  // The player moves on the board instead: the message, its marks and the stale text are gone.
  await clickMove(page, 'g1f3');
  // The move is taken and the computer has replied.
  await page.waitForSelector(`${tid('board')}[data-ply="2"][data-turn="white"]`);
  assert.equal(await page.textContent(tid('illegal-reason')), '');
  assert.equal(await page.locator(`${tid('illegal-reason')}.shown`).count(), 0);
  assert.equal(await page.inputValue(tid('move-input')), '');
  assert.equal(await page.locator(marks).count(), 0, 'no marks left on the board');
  assert.match(await page.textContent(tid('move-list')), /马f3/, 'Chinese letters without touching the setting');
  assert.equal(await page.isChecked(tid('chinese-letters')), true);
  // The setting keeps English letters when unticked, also after a reload.
  await page.uncheck(tid('chinese-letters'));
  assert.match(await page.textContent(tid('move-list')), /Nf3/);
  await page.reload();
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Nf3'), tid('move-list'));
  // At the end of the game a refusal is cleared too.
  await page.fill(tid('move-input'), 'Qz9');
  await page.press(tid('move-input'), 'Enter');
  await page.locator(`${tid('illegal-reason')}.shown`).waitFor();
  await page.click(tid('resign'));
  await page.click(tid('resign-confirm'));
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
  assert.equal(await page.textContent(tid('illegal-reason')), '');
  await context.close();
});

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function assertToastClear(page, what) {
  const toast = page.locator(tid('toast'));
  await page.locator(`${tid('toast')}.show`).waitFor();
  // Let the fade-in and the placement settle (the check is on positions, not on time).
  await page.waitForFunction((sel) => getComputedStyle(document.querySelector(sel)).opacity === '1', tid('toast'));
  const t = await toast.boundingBox();
  assert.ok(t && t.width > 0, `${what}: the toast shows`);
  for (const side of ['white', 'black']) {
    const c = await page.locator(tid(`clock-${side}`)).boundingBox();
    assert.ok(c, `${what}: the ${side} clock shows`);
    assert.ok(!overlap(t, c), `${what}: the toast ${JSON.stringify(t)} covers the ${side} clock ${JSON.stringify(c)}`);
  }
}

test('toasts never cover a clock, on a desktop and on a phone', { timeout: 90_000 }, async () => {
  for (const opts of [
    { lang: 'en', width: 1280, height: 900 },
    { lang: 'en', width: 1000, height: 700 },
    { lang: 'zh', width: 360, height: 740, mobile: true },
  ]) {
    const what = `${opts.width}×${opts.height}`;
    const { page, context } = await newPage(browser, server.base, opts);
    await computerGame(page, '5+0');
    // Our clock at the bottom edge of the window, where toasts used to appear; then arming a draw offer with
    // one's move says so in a toast (clicked from the page, so that nothing scrolls).
    await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'end' }), tid('clock-white'));
    await page.evaluate((sel) => document.querySelector(sel).click(), tid('offer-draw'));
    await assertToastClear(page, what);
    await context.close();
  }
});

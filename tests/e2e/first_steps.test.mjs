// SPDX-License-Identifier: GPL-3.0-or-later
// A complete beginner's first steps (issue 38): the home page's card to 学棋 / Learn (prominent for a newcomer,
// discreet once lessons are done), sign-up and log-in told apart (Enter submits the visible tab; a log-in with a name
// nobody has offers to sign up with it), no guest text after sign-up, guest names in the page's language, log-out in
// the header, and a result said from the player's side ("你赢了 — 将死") while a spectator keeps the neutral one.
// Screenshots of the home page with the card, and of the sign-up tab, into docs/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, learnLessons, newPage, playAndWait as play, startServer, tid } from './lib.mjs';

const SHOTS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'docs/screenshots');
mkdirSync(SHOTS, { recursive: true });

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

const meText = (page) => page.textContent(tid('me'));
/** Waits until the header's name is `name` (`prefix`: starts with it). */
const waitMe = (page, name, prefix = false) =>
  page.waitForFunction(
    ([sel, n, pre]) => {
      const t = document.querySelector(sel)?.textContent ?? '';
      return pre ? t.startsWith(n) : t === n;
    },
    [tid('me'), name, prefix],
  );

for (const lang of ['zh', 'en']) {
  test(`${lang}: the card to Learn, sign-up by Enter, no guest text after it, log-out in the header`, { timeout: 120_000 }, async () => {
    const { page, context } = await newPage(browser, server.base, { lang });
    const guestPrefix = lang === 'zh' ? '游客-' : 'Guest-';
    await page.goto('/');
    // A fresh visitor: the prominent card, linking to Learn.
    const card = page.locator(tid('first-steps'));
    await card.waitFor();
    assert.equal(await card.getAttribute('data-state'), 'new');
    assert.match(await card.textContent(), lang === 'zh' ? /刚学棋？从学棋开始/ : /New to chess\? Start with Learn/);
    assert.equal(await page.getAttribute(tid('first-steps-go'), 'href'), '/learn');
    // The guest's line, and the guest's name in the page's language — in the header and on the login page alike.
    await waitMe(page, guestPrefix, true);
    assert.ok((await meText(page)).startsWith(guestPrefix), await meText(page));
    assert.ok(await page.locator(tid('guest-line')).isVisible());
    await page.click(tid('nav-login'));
    await page.locator(tid('guest-note')).waitFor();
    const note = await page.textContent(tid('guest-note'));
    assert.ok(note.includes(await meText(page)), `the login page names the guest as the header does: ${note}`);
    assert.doesNotMatch(note, lang === 'zh' ? /Guest-/ : /游客-/);

    // Log in with a name nobody has: said so, with a way to sign up with it.
    const name = `${lang}new${Date.now() % 1_000_000}`;
    await page.fill(tid('username'), name);
    await page.fill(tid('password'), 'first-steps-1');
    await page.press(tid('password'), 'Enter');
    await page.locator(tid('register-this')).waitFor();
    assert.match(await page.textContent(tid('login-error')), new RegExp(name));
    assert.doesNotMatch(await page.textContent(tid('login-error')), /用户名或密码错误|wrong/i);
    await page.click(tid('register-this'));
    await page.waitForURL(/\/register$/);
    assert.equal(await page.inputValue(tid('username')), name, 'the name stays');
    await page.screenshot({ path: join(SHOTS, `first-steps-signup-${lang}-desktop.png`) });
    // Enter on the sign-up tab signs up.
    await page.press(tid('password'), 'Enter');
    await waitMe(page, name);
    await page.waitForURL((u) => new URL(u).pathname === '/');
    // No guest text remains, anywhere on the page.
    await page.locator(tid('play-computer')).waitFor();
    // (Not the whole page: the games being played now may be guests'.)
    const text = (await page.textContent('header')) + (await page.textContent('.play-box')) + (await card.textContent());
    assert.doesNotMatch(text, /游客|[Gg]uest/, 'no guest text after sign-up');
    assert.equal(await page.locator(tid('guest-line')).count(), 0);
    assert.equal(await page.locator(tid('nav-login')).count(), 0);
    // A new account has done no lesson: the card is still there.
    assert.equal(await card.getAttribute('data-state'), 'new');

    // Log-out in the header: a guest again.
    await page.click(tid('nav-logout'));
    await waitMe(page, guestPrefix, true);
    assert.equal(await page.locator(tid('nav-logout')).count(), 0);
    await page.locator(tid('guest-line')).waitFor();

    // The sign-up tab has its own address (eight letters, like a game id: not taken for one).
    await page.goto('/register');
    await page.locator(`${tid('tab-register')}[aria-selected="true"]`).waitFor();
    assert.equal(await page.locator(tid('login')).count(), 0, 'one button: the visible tab’s');
    // Log in again from the login tab, by Enter.
    await page.click(tid('nav-login'));
    await page.locator(`${tid('tab-login')}[aria-selected="true"]`).waitFor();
    await page.fill(tid('username'), name);
    await page.fill(tid('password'), 'first-steps-1');
    await page.press(tid('password'), 'Enter');
    await waitMe(page, name);
    await context.close();
  });
}

test('the card is discreet once a lesson is done, and can be closed', { timeout: 60_000 }, async () => {
  // The optional chapter (比赛规则) is not part of the count.
  const lessons = learnLessons().filter((l) => !l.chapter_optional);
  const { page, context } = await newPage(browser, server.base, { lang: 'zh' });
  await page.goto('/');
  await page.locator(tid('first-steps')).waitFor();
  await page.evaluate((id) => {
    localStorage.setItem('gx.learn.progress', JSON.stringify({ lessons: { [id]: { steps: [0], stars: 3, done: true } } }));
  }, lessons[0].id);
  await page.reload();
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'progress', tid('first-steps'));
  const card = page.locator(tid('first-steps'));
  assert.match(await card.textContent(), /继续学棋/);
  assert.match(await card.textContent(), new RegExp(`已学完 1 课，共 ${lessons.length} 课`));
  assert.equal(await page.getAttribute(tid('first-steps-go'), 'href'), `/learn/${lessons[1].id}`);
  await page.click(tid('first-steps-close'));
  await page.reload();
  await page.locator(tid('play-computer')).waitFor();
  assert.equal(await page.locator(`${tid('first-steps')}:visible`).count(), 0, 'closed stays closed');
  await context.close();
});

test('a result said from each player’s side; a spectator keeps the neutral sentence', { timeout: 120_000 }, async () => {
  // White (English) is mated by Black (Chinese) in two moves; a third browser watches.
  const A = await newPage(browser, server.base, { lang: 'en' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const C = await newPage(browser, server.base, { lang: 'zh' });
  const [a, b, c] = [A.page, B.page, C.page];
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.fill(tid('time-control'), '5+0');
  await a.click(tid('start-game'));
  const url = await a.locator(tid('friend-link')).inputValue();
  await b.goto(new URL(url).pathname);
  // The English guest's name reads 游客-… on the Chinese page.
  await b.locator(tid('challenger')).waitFor();
  assert.match(await b.textContent(tid('challenger')), /^游客-/);
  await b.click(tid('accept-challenge'));
  await Promise.all([a.waitForURL(/\/game\/[A-Za-z0-9]+$/), b.waitForURL(/\/game\/[A-Za-z0-9]+$/)]);
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  await c.goto(new URL(a.url()).pathname);
  await c.waitForSelector(tid('board'));
  await play(a, b, 'white', 'f2f3');
  await play(b, a, 'black', 'e7e5');
  await play(a, b, 'white', 'g2g4');
  await play(b, a, 'black', 'd8h4');
  for (const p of [a, b, c]) await p.waitForSelector(`${tid('board')}[data-status="finished"]`);
  const shown = async (p) => (await p.textContent(tid('result'))).replace(/\s+/g, ' ');
  // The winner, in Chinese.
  assert.equal(await b.textContent(tid('my-result')), '你赢了 — 将死');
  assert.match(await shown(b), /0-1/);
  assert.doesNotMatch(await shown(b), /黑方|白方/, 'the winner is not told the colours’ sentence');
  // The loser, in English.
  assert.equal(await a.textContent(tid('my-result')), 'You lost — checkmated');
  // The spectator: the neutral sentence, no "you".
  await c.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('0-1'), tid('result'));
  assert.equal(await c.locator(tid('my-result')).count(), 0);
  assert.match(await shown(c), /黑方胜/);
  assert.doesNotMatch(await shown(c), /你赢了|你输了/);
  for (const X of [A, B, C]) await X.context.close();
});

test('screenshots: the home page with the card and the header, zh and en, desktop and phone', { timeout: 90_000 }, async () => {
  for (const lang of ['zh', 'en']) {
    for (const d of [
      { name: 'desktop', width: 1280, height: 860, mobile: false },
      { name: 'phone', width: 360, height: 740, mobile: true },
    ]) {
      const { page, context } = await newPage(browser, server.base, { lang, width: d.width, height: d.height, mobile: d.mobile });
      await page.goto('/');
      await page.locator(`${tid('first-steps')}[data-state="new"]`).waitFor();
      await page.locator(tid('me')).waitFor();
      await page.screenshot({ path: join(SHOTS, `first-steps-home-${lang}-${d.name}.png`) });
      await context.close();
    }
  }
});

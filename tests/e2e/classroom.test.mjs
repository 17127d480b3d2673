// SPDX-License-Identifier: GPL-3.0-or-later
// 课堂 / Classes (issue 42), as a teacher and three students use them, each in their own browser (zh-CN): the teacher
// creates a class on /class, makes three student accounts and reads their login cards (the server's address, the
// user name and the password, in Chinese and English); the students log in with the cards; the teacher gives a
// lesson of the course and puzzles of a theme as homework; one student does both in the browser (the lesson on its
// page, the puzzles in the trainer the homework opens), the others nothing; the dashboard shows exactly that (that
// student done twice, the others not). The teacher resets a student's password: logging in with the new card, the
// student is sent to choose a new password, the other pages (and the API) refuse until then; after it, their
// homework. The puzzles are tests/e2e/fixtures/puzzles.csv (run.sh imports them): back-rank mates.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { attributesText, chromeText, doLessonSteps, launch, learnLessons, newPage, solveTrainerPuzzle as solvePuzzle, startServer, tid } from './lib.mjs';

const THEME = 'back_rank_mate';
const PUZZLES = 2;

// Chinese characters and full-width punctuation (none of them in the English UI).
const CJK = /[\u3400-\u9fff\uff00-\uffef]/;

/** Every visible string of the page is in `lang` (user and class names, marked translate="no", aside). */
async function checkLang(page, lang, where) {
  await page.waitForTimeout(300);
  for (const [kind, s] of [['text', await chromeText(page)], ['attributes', await attributesText(page)]]) {
    if (lang === 'en') assert.deepEqual(s.split('\n').filter((l) => CJK.test(l)), [], `${where}: Chinese ${kind} in English`);
    else assert.deepEqual([...s.matchAll(/\b[A-Za-z]{4,}\b/g)].map((m) => m[0]), [], `${where}: English ${kind} in Chinese`);
  }
}

let server;
let browser;
let lessons;

before(async () => {
  server = await startServer();
  browser = await launch();
  lessons = learnLessons();
  const r = await fetch(`${server.base}/api/puzzle/gx001`);
  assert.equal(r.status, 200, 'the fixture puzzles: run the specs with tests/e2e/run.sh, which imports them');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function login(page, username, password) {
  await page.goto('/login');
  await page.fill(tid('username'), username);
  await page.fill(tid('password'), password);
  await page.click(tid('login'));
}

const signedIn = (page, name) =>
  page.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name], { timeout: 30_000 });

/** The cards shown: [{username, password, text}]. */
async function cards(page) {
  return page.$$eval(`${tid('login-card')}`, (els) =>
    els.map((e) => ({
      username: e.querySelector('[data-testid="card-username"]').textContent,
      password: e.querySelector('[data-testid="card-password"]').textContent,
      text: e.textContent,
    })),
  );
}

test('a class: cards, logins, homework done by one student, the dashboard, a reset password', { timeout: 600_000 }, async () => {
  const sfx = String(Date.now()).slice(-6);
  const T = await newPage(browser, server.base, { lang: 'zh' });
  const o = T.page;
  o.on('dialog', (d) => void d.accept());
  const r = await T.context.request.post('/api/register', { data: { username: `laoshi${sfx}`, password: 'correct horse battery' } });
  assert.equal(r.status(), 200, await r.text());

  // The teacher creates the class from the header's link.
  await o.goto('/');
  await o.click(tid('nav-classes'));
  await o.waitForURL(/\/class$/);
  await o.fill(tid('class-name'), '三年级二班');
  await o.click(tid('class-name-submit'));
  await o.waitForURL(/\/class\/[A-Za-z0-9_-]+$/);
  const classUrl = new URL(o.url()).pathname;
  assert.equal(await o.textContent(tid('class-title')), '三年级二班');
  await o.waitForSelector(tid('students-none'));

  // Three accounts: their cards, with the address, in both languages.
  await o.fill(tid('add-count'), '3');
  await o.click(tid('add-students'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 3, tid('login-card'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 3, tid('student-row'));
  const logins = await cards(o);
  for (const c of logins) {
    assert.match(c.username, /^[a-z0-9_-]{3,}$/i, c.username);
    assert.ok(c.password.length >= 8, `a password of 8 characters or more: ${c.password}`);
    assert.ok(c.text.includes(server.base), `the server's address on the card: ${c.text}`);
    for (const w of ['用户名', 'User name', '密码', 'Password', '网址', 'Address']) assert.ok(c.text.includes(w), `${w} on the card`);
  }
  assert.equal(new Set(logins.map((c) => c.username)).size, 3);
  assert.equal(await o.locator(tid('print-cards')).count(), 1);

  // The students log in with their cards, each in their own browser.
  const S = [];
  for (const c of logins) {
    const P = await newPage(browser, server.base, { lang: 'zh' });
    await login(P.page, c.username, c.password);
    await signedIn(P.page, c.username);
    S.push(P);
  }
  const s0 = S[0].page;
  await s0.waitForSelector(tid('nav-homework'));

  // The teacher gives a lesson (the first of the course without a game) and puzzles of a theme.
  const lesson = lessons.find((l) => !l.chapter_optional && l.steps.every((s) => s.kind !== 'play'));
  await o.selectOption(tid('assign-kind'), 'lesson');
  await o.selectOption(tid('assign-lesson'), lesson.id);
  await o.click(tid('assign-submit'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, tid('assignment'));
  await o.selectOption(tid('assign-kind'), 'puzzles');
  await o.selectOption(tid('assign-theme'), THEME);
  await o.fill(tid('assign-count'), String(PUZZLES));
  await o.click(tid('assign-submit'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, tid('assignment'));
  assert.match(await o.textContent(tid('class-homework')), new RegExp(lesson.title.zh));

  // Student 0: the homework page lists both, open.
  await s0.click(tid('nav-homework'));
  await s0.waitForURL(/\/homework$/);
  await s0.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, tid('homework-item'));
  assert.deepEqual(await s0.$$eval(tid('homework-item'), (els) => els.map((e) => e.dataset.done)), ['0', '0']);

  // The lesson, from its homework link, step by step on the lesson page.
  await s0.click(`${tid('homework-item')}[data-kind="lesson"] ${tid('homework-link')}`);
  await s0.waitForURL(new RegExp(`/learn/${lesson.id}$`));
  await doLessonSteps(s0, lesson);

  // The puzzles, from their homework link: the trainer asks for the theme.
  await s0.goto('/homework');
  const [first] = await Promise.all([
    s0.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next'),
    s0.click(`${tid('homework-item')}[data-kind="puzzles"] ${tid('homework-link')}`),
  ]);
  assert.equal(new URL(first.url()).searchParams.get('theme'), THEME);
  // Each solve, and the round it sends (what the homework counts), before the next page.
  const solveAndRecord = async () => {
    const round = s0.waitForResponse((r) => /\/api\/puzzle\/[^/]+\/round$/.test(new URL(r.url()).pathname));
    const id = await solvePuzzle(s0);
    assert.equal((await round).status(), 200);
    return id;
  };
  const solved = [await solveAndRecord()];
  while (solved.length < PUZZLES) {
    await s0.click(tid('puzzle-next'));
    await s0.waitForFunction(([sel, prev]) => document.querySelector(sel)?.dataset.puzzle !== prev, [tid('puzzle-board'), solved.at(-1)]);
    solved.push(await solveAndRecord());
  }
  console.log(`# ${lesson.id} done; puzzles solved: ${solved.join(', ')}`);
  await s0.goto('/homework');
  await s0.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((e) => e.dataset.done === '1') && document.querySelectorAll(sel).length === 2, tid('homework-item'));

  // The dashboard: exactly that.
  await o.goto(classUrl);
  await o.waitForSelector(tid('dash-grid'));
  const grid = await o.$$eval(tid('dash-row'), (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.username, [...r.querySelectorAll('[data-testid="mark"]')].map((c) => [c.dataset.mark, c.textContent.trim()])])),
  );
  assert.deepEqual(Object.keys(grid).sort(), logins.map((c) => c.username).sort());
  assert.deepEqual(grid[logins[0].username], [['done', '✓ 完成'], ['done', '✓ 完成']]);
  for (const c of logins.slice(1)) assert.deepEqual(grid[c.username], [['open', '○ 未完成'], ['open', '○ 未完成']], c.username);
  assert.equal(await o.locator(tid('class-csv')).count(), 1);
  // The class page and my homework, all in one language, then the other.
  await checkLang(o, 'zh', 'the class page');
  await checkLang(s0, 'zh', 'my homework');
  for (const p of [o, s0]) await p.click(tid('lang-switch'));
  await o.waitForSelector(`${tid('dash-grid')} :text("Done")`);
  await s0.waitForSelector(`${tid('homework-mark')}:has-text("Done")`);
  await checkLang(o, 'en', 'the class page');
  await checkLang(s0, 'en', 'my homework');
  for (const p of [o, s0]) await p.click(tid('lang-switch'));
  await o.waitForSelector(`${tid('dash-grid')} :text("完成")`);

  // The teacher resets student 1's password: one card, with the new one.
  const s1 = S[1].page;
  const who = logins[1].username;
  await o.click(`${tid('student-row')}[data-username="${who}"] ${tid('student-reset')}`);
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, tid('login-card'));
  const [card] = await cards(o);
  assert.equal(card.username, who);
  assert.notEqual(card.password, logins[1].password);
  await o.waitForSelector(`${tid('student-row')}[data-username="${who}"] ${tid('must-change')}`);

  // With the new card, the student must choose a new password first.
  await login(s1, who, card.password);
  await s1.waitForURL(/\/password$/);
  assert.equal(await s1.isVisible(tid('pw-current')), false, 'the card password just typed is not asked again');
  const refused = await s1.evaluate(() => fetch('/api/homework').then(async (r) => [r.status, (await r.json()).code]));
  assert.deepEqual(refused, [403, 'password_change_required']);
  await s1.goto('/homework');
  await s1.waitForURL(/\/password$/);
  // After a reload the card's password is asked for.
  await s1.fill(tid('pw-current'), card.password);
  await s1.fill(tid('pw-new'), 'queen side castle 42');
  await s1.fill(tid('pw-repeat'), 'queen side castle 42');
  await s1.click(tid('pw-submit'));
  await s1.waitForURL(/\/homework$/);
  await s1.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, tid('homework-item'));
  // The card's password no longer logs in; the new one does.
  const other = await newPage(browser, server.base, { lang: 'zh' });
  const bad = await other.context.request.post('/api/login', { data: { username: who, password: card.password } });
  assert.ok(!bad.ok(), `the card's password is refused: ${bad.status()}`);
  const good = await other.context.request.post('/api/login', { data: { username: who, password: 'queen side castle 42' } });
  assert.equal(good.status(), 200);
  assert.equal((await good.json()).must_change_password, false);
  await other.context.close();
  await o.goto(classUrl);
  await o.waitForSelector(`${tid('student-row')}[data-username="${who}"]`);
  assert.equal(await o.locator(`${tid('student-row')}[data-username="${who}"] ${tid('must-change')}`).count(), 0);

  for (const P of [T, ...S]) await P.context.close();
});

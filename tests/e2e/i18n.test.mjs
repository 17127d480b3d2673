// SPDX-License-Identifier: GPL-3.0-or-later
// Languages: the two tables have the same keys and placeholders and no English string holds Chinese (read from
// web/src/i18n.ts); in the browser, the switch changes every visible string of each page (no CJK left in English,
// no English words left in Chinese, apart from names and elements marked with a language of their own), the
// choice is remembered, and the default follows the browser's language.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attributesText, chromeText, clickMove, launch, newPage, startServer, tid } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CJK = /[\u3400-\u9fff\uff00-\uffef]/;
// Latin words allowed in the Chinese UI: notation and names of standards.
const LATIN_OK = new Set(['Glicko', 'Elo']);

function tables() {
  const src = readFileSync(join(HERE, '../../web/src/i18n.ts'), 'utf8');
  const block = (name) => {
    const start = src.indexOf(`const ${name}`);
    const end = src.indexOf('\n};', start);
    const out = new Map();
    for (const m of src.slice(start, end).matchAll(/^\s+'([^']+)':\s*'((?:[^'\\]|\\.)*)',?$/gm)) out.set(m[1], m[2]);
    return out;
  };
  return { zh: block('zh'), en: block('en') };
}

test('the zh and en tables are complete and consistent', () => {
  const { zh, en } = tables();
  assert.ok(zh.size > 100, `read ${zh.size} zh strings`);
  assert.deepEqual([...en.keys()].sort(), [...zh.keys()].sort());
  const allowCjkInEn = new Set(['nav.otherLang', 'nav.langTitle']);
  for (const [k, v] of en) {
    assert.ok(v.trim(), `en ${k} is empty`);
    if (!allowCjkInEn.has(k)) assert.ok(!CJK.test(v), `en ${k} has Chinese: ${v}`);
    const ph = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    assert.equal(ph(v), ph(zh.get(k)), `placeholders of ${k}`);
  }
  for (const [k, v] of zh) assert.ok(v.trim(), `zh ${k} is empty`);
});

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

async function checkLang(page, lang, where) {
  await page.waitForTimeout(300);
  const text = await chromeText(page);
  const attrs = await attributesText(page);
  if (lang === 'en') {
    for (const [kind, s] of [['text', text], ['attributes', attrs]]) {
      const bad = s.split('\n').filter((l) => CJK.test(l));
      assert.deepEqual(bad, [], `${where}: Chinese ${kind} in English mode`);
    }
  } else {
    for (const [kind, s] of [['text', text], ['attributes', attrs]]) {
      const words = [...s.matchAll(/\b[A-Za-z]{4,}\b/g)].map((m) => m[0]).filter((w) => !LATIN_OK.has(w));
      assert.deepEqual(words, [], `${where}: English ${kind} in Chinese mode`);
      assert.ok(CJK.test(s) || kind === 'attributes', `${where}: no Chinese at all`);
    }
  }
}

async function switchTo(page, lang) {
  await page.click(tid('lang-switch'));
  await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang);
}

test('the language switch changes every visible string, on every page', { timeout: 240_000 }, async () => {
  const { page } = await newPage(browser, server.base, { lang: 'zh' });
  await page.goto('/');
  await page.waitForSelector(tid('play-computer'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');

  // Home with the computer's setup open.
  await page.click(tid('play-computer'));
  await page.waitForSelector(`${tid('level')} option`, { state: 'attached' });
  await checkLang(page, 'zh', 'home');
  await switchTo(page, 'en');
  await page.click(tid('play-computer'));
  await page.waitForSelector(`${tid('level')} option`, { state: 'attached' });
  await checkLang(page, 'en', 'home');

  // Remembered across a reload.
  await page.reload();
  await page.waitForSelector(tid('play-computer'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');

  // A game in progress, with a move made and an illegal try explained.
  await page.click(tid('play-computer'));
  await page.selectOption(tid('level'), '1');
  await page.selectOption(tid('color'), 'white');
  await page.fill(tid('time-control'), '10+5');
  await page.click(tid('start-game'));
  await page.waitForURL(/\/game\//);
  await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await clickMove(page, 'e2e4');
  await page.waitForSelector(`${tid('board')}[data-ply="2"]`, { timeout: 30_000 });
  await clickMove(page, 'a2a5');
  await page.locator(tid('illegal-reason')).filter({ hasText: /\w/ }).waitFor();
  await checkLang(page, 'en', 'game');
  await switchTo(page, 'zh');
  await page.waitForSelector(`${tid('board')}[data-ply="2"]`);
  await clickMove(page, 'a2a5');
  await page.locator(tid('illegal-reason')).filter({ hasText: CJK }).waitFor();
  await checkLang(page, 'zh', 'game');
  // The game's end: resign and look at the result in both languages.
  await page.click(tid('resign'));
  await page.click(tid('resign-confirm'));
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
  await checkLang(page, 'zh', 'finished game');
  await switchTo(page, 'en');
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
  await checkLang(page, 'en', 'finished game');

  // Analysis, login, profile.
  for (const [path, ready] of [
    ['/analysis', tid('pgn-input')],
    ['/login', tid('username')],
  ]) {
    await page.goto(path);
    await page.waitForSelector(ready);
    await checkLang(page, 'en', path);
    await switchTo(page, 'zh');
    await page.waitForSelector(ready);
    await checkLang(page, 'zh', path);
    await switchTo(page, 'en');
  }
  const me = await page.textContent(tid('me'));
  await page.goto(`/@/${me}`);
  await page.waitForSelector(tid('game-row'));
  await checkLang(page, 'en', 'profile');
  await switchTo(page, 'zh');
  await page.waitForSelector(tid('game-row'));
  await checkLang(page, 'zh', 'profile');
});

test('the default language follows the browser', async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/');
  await page.waitForSelector(tid('play-computer'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.ok(!CJK.test(await chromeText(page)));
  await context.close();
});

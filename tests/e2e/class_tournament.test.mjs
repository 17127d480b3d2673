// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 38: a teacher's online class tournament waits for presence (zh-CN). The teacher creates an online Swiss (the
// first-move grace is 5 minutes by default, the presence check on), pastes the class list (a wrong line is named,
// nothing is added until it is right), and starts while only two of the four students have the page open: only
// those two are paired, the two away sit the round out without a forfeit. There is no table of zeros before round
// 1; after it the standings have Chinese tie-break names with a visible legend, the crosstable a legend of its
// codes, and a student who came back is paired in round 2. Screenshots of the page (zh and en, desktop and phone)
// go to docs/screenshots/tournament-class-*.png. Over the board, the heading names no site rules.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasText, launch, newPage, startServer, tid, playAndWait as play } from './lib.mjs';

const OUT = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'docs/screenshots');

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

async function registered(name, lang = 'zh') {
  const P = await newPage(browser, server.base, { lang });
  const r = await P.context.request.post('/api/register', { data: { username: name, password: 'correct horse' } });
  assert.equal(r.status(), 200, await r.text());
  return P;
}

test('an online class tournament waits for presence', { timeout: 300_000 }, async () => {
  const sfx = String(Date.now()).slice(-5);
  const org = await registered(`teacher${sfx}`);
  const names = ['ming', 'hua', 'jun', 'lan'].map((n) => `${n}${sfx}`);
  const S = [];
  for (const n of names) S.push(await registered(n));
  const o = org.page;

  // The teacher creates an online Swiss: a class's defaults are shown.
  await o.goto('/tournaments');
  await o.fill(tid('tour-name'), '三年级二班比赛');
  await o.selectOption(tid('tour-system'), 'swiss');
  await o.selectOption(tid('tour-mode'), 'online');
  await o.fill(tid('tour-rounds'), '3');
  await o.fill(tid('time-control'), '10+5');
  await o.fill(tid('tour-gap'), '1');
  assert.equal(await o.inputValue(tid('tour-grace')), '300', 'five minutes for the first move by default');
  assert.equal(await o.isChecked(tid('tour-presence')), true, 'the presence check is on by default');
  await o.click(tid('tour-submit'));
  await o.waitForURL(/\/tournament\/[A-Za-z0-9]+$/);
  const id = new URL(o.url()).pathname.split('/').pop();
  await hasText(o, 'tour-grace', '第一步限时 5 分钟');
  // The heading says "online" once: the plain online rules go without saying after "网上对局".
  const head = await o.locator('.tour-head .level-line').innerText();
  assert.ok(head.includes('网上对局'), head);
  assert.equal(head.split('网上').length - 1, 1, `"网上" once: ${head}`);

  // The class list, pasted: one wrong line is named with its number, and nothing is added.
  await o.fill(tid('paste-list'), `${names[0]}\n${names[1]}，${names[2]}\nnobody${sfx}\n${names[3]}`);
  await o.click(tid('paste-add'));
  await hasText(o, 'paste-error', '第 3 行');
  assert.match(await o.innerText(tid('paste-error')), new RegExp(`没有叫「nobody${sfx}」的注册用户`));
  assert.equal(await o.locator(tid('player-row')).count(), 0);
  await o.fill(tid('paste-list'), `${names[0]}\n${names[1]}，${names[2]}\n${names[3]}`);
  await o.click(tid('paste-add'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, tid('player-row'));

  // No standings of zeros before the start.
  assert.ok(!(await o.content()).includes('第 0 轮'), 'no "after round 0" table');
  assert.equal(await o.locator(tid('standing-row')).count(), 0);

  // Two students open the page; the other two are away.
  for (const P of S.slice(0, 2)) await P.page.goto(`/tournament/${id}`);
  await hasText(o, 'present-count', '在场 2/4 人');
  const badge = async (name) => o.locator(`${tid('player-row')}:has-text("${name}") ${tid('presence')}`).innerText();
  assert.equal(await badge(names[0]), '在场');
  assert.equal(await badge(names[3]), '不在');

  // The start pairs only the two present; the two away sit the round out (no game, no forfeit).
  await o.click(tid('tour-start'));
  const api = async () => (await o.request.get(`/api/tournament/${id}`)).json();
  let v = await api();
  for (let i = 0; i < 100 && v.round_list.length < 1; i++) {
    await new Promise((r) => setTimeout(r, 200));
    v = await api();
  }
  assert.equal(v.round_list.length, 1);
  const r1 = v.round_list[0];
  assert.equal(r1.boards.length, 1, JSON.stringify(r1));
  const noOf = (name) => v.players.find((p) => p.name === name).no;
  assert.deepEqual(new Set([r1.boards[0].white, r1.boards[0].black]), new Set([noOf(names[0]), noOf(names[1])]));
  assert.deepEqual(
    r1.byes.map((b) => [b.no, b.kind, b.points]).sort(),
    [[noOf(names[2]), 'zero', 0], [noOf(names[3]), 'zero', 0]].sort(),
  );
  await hasText(o, 'round-byes', '不参赛');
  await hasText(o, 'standings-later', '第 1 轮结束后');

  // The two present play (their browsers went to the game by themselves); Black resigns.
  const game = `/game/${r1.boards[0].game_id}`;
  const pageOf = (no) => S[names.indexOf(v.players.find((p) => p.no === no).name)].page;
  const w = pageOf(r1.boards[0].white);
  const b = pageOf(r1.boards[0].black);
  for (const p of [w, b]) await p.waitForURL(`**${game}`, { timeout: 30_000 });
  await play(w, b, 'white', 'e2e4');
  await play(b, w, 'black', 'e7e5');
  await b.click(tid('resign'));
  await b.click(tid('resign-confirm'));
  // A third student comes to the page meanwhile: round 2 pairs three (one bye), the fourth is still away.
  await S[2].page.goto(`/tournament/${id}`);
  for (let i = 0; i < 100 && v.round_list.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 200));
    v = await api();
  }
  assert.equal(v.round_list.length, 2, 'round 2 was paired');
  const r2 = v.round_list[1];
  assert.equal(r2.boards.length, 1, JSON.stringify(r2));
  assert.ok(r2.byes.some((x) => x.no === noOf(names[3]) && x.kind === 'zero'), JSON.stringify(r2));
  assert.ok(r2.byes.some((x) => x.kind === 'pairing'), JSON.stringify(r2));
  for (const r of v.round_list) for (const bd of r.boards) assert.ok(!['+-', '-+', '--'].includes(bd.result), 'no forfeit');

  // The standings after round 1: Chinese tie-break names, and a legend that says what each is, on the page.
  await o.goto(`/tournament/${id}`);
  await o.waitForSelector(tid('standing-row'));
  const heads = await o.locator('.standings thead th').allInnerTexts();
  assert.ok(heads.includes('对手分去最低'), heads.join('|'));
  assert.ok(!heads.includes('BH-C1'), `no bare abbreviation as a column head: ${heads.join('|')}`);
  const legend = await o.innerText(tid('tb-legend'));
  assert.match(legend, /对手分去最低\s*BH-C1/);
  assert.match(legend, /索伯分\s*SB/);
  const cross = await o.innerText(tid('cross-legend'));
  assert.match(cross, /Z\s*没有参加这一轮/);
  assert.match(cross, /\*\s*正在下/);
  assert.ok(await o.locator(tid('cross-legend')).isVisible());

  // Screenshots in zh and en, desktop and phone.
  mkdirSync(OUT, { recursive: true });
  const shots = [
    ['zh', 'desktop', 1280, 900, false],
    ['zh', 'phone', 360, 780, true],
    ['en', 'desktop', 1280, 900, false],
    ['en', 'phone', 360, 780, true],
  ];
  for (const [lang, name, width, height, mobile] of shots) {
    // The teacher's own page on the desktop in Chinese; a visitor's (not signed in) in the other three.
    const P = lang === 'zh' && name === 'desktop' ? org : await newPage(browser, server.base, { lang, width, height, mobile });
    await P.page.goto(`/tournament/${id}`);
    await P.page.waitForSelector(tid('tb-legend'));
    if (lang === 'en') {
      const h = await P.page.locator('.standings thead th').allInnerTexts();
      assert.ok(h.includes('Buchholz −1'), h.join('|'));
      await hasText(P.page, 'cross-legend', 'not in this round');
    }
    await P.page.screenshot({ path: join(OUT, `tournament-class-${lang}-${name}.png`), fullPage: true });
    if (P !== org) await P.context.close();
  }
  // Over the board: no site rules in the heading, no presence or grace; a pasted list takes ratings.
  const r = await o.request.post('/api/tournaments', {
    data: { name: '校内线下赛', system: 'round_robin', mode: 'otb', time_control: '5400+30', rated: false },
  });
  assert.equal(r.status(), 201, await r.text());
  const otb = (await r.json()).id;
  await o.goto(`/tournament/${otb}`);
  await o.fill(tid('paste-list'), '王小明 1200\n李华、张三');
  await o.click(tid('paste-add'));
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 3, tid('player-row'));
  const line = await o.locator('.tour-head .level-line').innerText();
  assert.ok(line.includes('线下对局'), line);
  assert.ok(!line.includes('网上规则'), `no online rules over the board: ${line}`);
  assert.equal(await o.locator(tid('tour-presence')).count(), 0);
  assert.equal(await o.locator(`${tid('player-row')}:has-text("王小明")`).locator('td').nth(2).innerText(), '1200');
  for (const c of [org, ...S]) await c.context.close();
});

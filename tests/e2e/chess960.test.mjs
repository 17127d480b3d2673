// SPDX-License-Identifier: GPL-3.0-or-later
// A Chess960 game between two browsers: chosen start number 14 (QNNRKBBR) from the friend dialog, the start shown on
// both boards, and long castling played on the board by moving the king onto its rook, on both sides.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boardState, launch, newPage, playAndWait as play, startServer, tid } from './lib.mjs';

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

const lastRank = (fen) => fen.split(' ')[0].split('/')[7];
const firstRank = (fen) => fen.split(' ')[0].split('/')[0];


test('Chess960 from a chosen start: the position on both boards, castling by king onto rook', { timeout: 120_000 }, async () => {
  const a = (await newPage(browser, server.base, { lang: 'en' })).page;
  const b = (await newPage(browser, server.base, { lang: 'zh' })).page;
  await a.goto('/');
  await a.click(tid('play-friend'));
  await a.selectOption(tid('color'), 'white');
  await a.selectOption(tid('variant'), 'chess960Number');
  await a.fill(tid('chess960-number'), '14');
  await a.fill(tid('time-control'), '10+5');
  await a.click(tid('start-game'));
  const url = await a.locator(tid('friend-link')).inputValue();
  await b.goto(new URL(url).pathname);
  await b.click(tid('accept-challenge'));
  await Promise.all([a.waitForURL(/\/game\//), b.waitForURL(/\/game\//)]);
  await a.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
  for (const p of [a, b]) {
    const st = await boardState(p);
    assert.equal(lastRank(st.fen), 'QNNRKBBR', st.fen);
    assert.equal(firstRank(st.fen), 'qnnrkbbr', st.fen);
  }
  await play(a, b, 'white', 'c1d3');
  await play(b, a, 'black', 'c8d6');
  // O-O-O: the king (e1) onto its rook (d1); the king ends on c1, the rook on d1.
  await play(a, b, 'white', 'e1d1');
  assert.equal(lastRank((await boardState(b)).fen), 'QNKR1BBR');
  await play(b, a, 'black', 'e8d8');
  const st = await boardState(a);
  assert.equal(firstRank(st.fen), 'qnkr1bbr', st.fen);
  await a.waitForFunction((sel) => (document.querySelector(sel)?.textContent.match(/O-O-O/g) ?? []).length === 2, tid('move-list'));
});

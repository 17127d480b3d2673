// SPDX-License-Identifier: GPL-3.0-or-later
// A tournament in the browser (issue 18): an organiser creates a four-player round-robin on the tournaments page,
// played online with the adjournment rule set; four players (browser contexts) join on its page; it starts, and
// each round's games open in the players' browsers by themselves. Three rounds are played — in round 1 one game is
// adjourned, a move sealed, the resumption agreed and the game resumed with the sealed move — and the standings page
// shows each player's score and the tie-breaks (DE, WIN, SB, BWG) as computed here from the results.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
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

async function registered(name, lang) {
  const P = await newPage(browser, server.base, { lang });
  const r = await P.context.request.post('/api/register', { data: { username: name, password: 'correct horse' } });
  assert.equal(r.status(), 200, await r.text());
  return P;
}

async function resign(page) {
  await page.click(tid('resign'));
  await page.click(tid('resign-confirm'));
}

/** Plays a short game on pages `w` (White) and `b` (Black): two moves each, then the loser resigns. */
async function decisive(w, b, whiteWins) {
  await play(w, b, 'white', 'e2e4');
  await play(b, w, 'black', 'e7e5');
  await resign(whiteWins ? b : w);
}

test('a four-player round-robin online, with an adjourned game, to its standings', { timeout: 600_000 }, async () => {
  const sfx = String(Date.now()).slice(-5);
  const org = await registered(`org${sfx}`, 'zh');
  const names = ['Ann', 'Bob', 'Cai', 'Dan'].map((n) => `${n}${sfx}`);
  const P = [];
  for (const [i, n] of names.entries()) P.push(await registered(n, i % 2 ? 'en' : 'zh'));
  const page = (name) => P[names.indexOf(name)].page;

  // The organiser creates it on the tournaments page.
  const o = org.page;
  await o.goto('/tournaments');
  await o.fill(tid('tour-name'), '周末循环赛');
  await o.selectOption(tid('tour-system'), 'round_robin');
  await o.selectOption(tid('tour-mode'), 'online');
  await o.fill(tid('time-control'), '10+5');
  await o.selectOption(tid('rules'), 'adjournment');
  await o.fill(tid('tour-gap'), '1');
  await o.click(tid('tour-submit'));
  await o.waitForURL(/\/tournament\/[A-Za-z0-9]+$/);
  const id = new URL(o.url()).pathname.split('/').pop();
  await hasText(o, 'tour-status', '报名中');
  // The heading names the way of play and the club rule chosen.
  const head = await o.locator('.tour-head .level-line').innerText();
  assert.ok(head.includes('网上对局') && head.includes('可以封棋'), head);

  // The players join on its page.
  for (const { page: p } of P) {
    await p.goto(`/tournament/${id}`);
    await p.click(tid('tour-join'));
    await p.waitForSelector(tid('tour-leave'));
  }
  await o.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, tid('player-row'));
  await o.click(tid('tour-start'));

  const api = async () => (await o.request.get(`/api/tournament/${id}`)).json();
  const results = [];
  for (let round = 1; round <= 3; round++) {
    let v = await api();
    for (let i = 0; i < 100 && v.round_list.length < round; i++) {
      await new Promise((r) => setTimeout(r, 200));
      v = await api();
    }
    assert.equal(v.round_list.length, round, `round ${round} was paired`);
    const nameOf = (no) => v.players.find((p) => p.no === no).name;
    const boards = v.round_list[round - 1].boards;
    assert.equal(boards.length, 2);
    // Each player's browser went to their game by itself.
    for (const bd of boards) {
      for (const no of [bd.white, bd.black]) await page(nameOf(no)).waitForURL(`**/game/${bd.game_id}`, { timeout: 30_000 });
    }
    // White wins in rounds 1 and 3, Black in round 2; in round 1, board 1 is adjourned first. The quick game is
    // played first (its first moves must come before the first-move timeout).
    const whiteWins = round !== 2;
    const order = round === 1 ? [boards[1], boards[0]] : boards;
    for (const bd of order) {
      const w = page(nameOf(bd.white));
      const b = page(nameOf(bd.black));
      await w.waitForSelector(`${tid('board')}[data-my-color="white"]`);
      await b.waitForSelector(`${tid('board')}[data-my-color="black"]`);
      // The game page links back to the tournament, with the round.
      await hasText(w, 'tournament-link', '周末循环赛');
      if (round === 1 && bd === boards[0]) {
        await play(w, b, 'white', 'e2e4');
        await play(b, w, 'black', 'e7e5');
        // Black offers to adjourn, White agrees and seals a move on the board.
        await b.click(tid('offer-adjournment'));
        await w.click(tid('accept-adjournment'));
        await w.waitForSelector(tid('seal-now'));
        // The move made on the board is offered for sealing (tried again if a busy machine lost the clicks).
        for (let i = 0; ; i++) {
          await clickMove(w, 'b1c3');
          try {
            await hasText(w, 'seal-confirm', 'Nc3', 5_000);
            break;
          } catch (e) {
            if (i === 2) throw e;
          }
        }
        await w.click(tid('seal-move'));
        await w.waitForSelector(tid('my-sealed'));
        await b.waitForSelector(tid('adjourned'));
        const seen = await b.content();
        for (const m of ['Nc3', 'b1c3']) {
          const i = seen.indexOf(m);
          assert.ok(i < 0, `the opponent sees the sealed move: …${seen.slice(Math.max(0, i - 300), i + 100)}…`);
        }
        // Black proposes a resumption in 15 seconds, White agrees; at that time the envelope is opened.
        const at = await b.evaluate(() => {
          const d = new Date(Date.now() + 15_000);
          const p = (n) => String(n).padStart(2, '0');
          return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
        });
        await b.fill(tid('propose-resumption-time'), at);
        await b.click(tid('propose-resumption'));
        await w.click(tid('agree-resumption'));
        await b.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '3', tid('board'), { timeout: 60_000 });
        await hasText(b, 'move-list', 'Nc3');
        await resign(b);
      } else {
        await decisive(w, b, whiteWins);
      }
      results.push({ white: bd.white, black: bd.black, white_score: whiteWins ? 1 : 0 });
    }
  }

  // The standings page: finished, every score and tie-break as computed from the results.
  await o.goto(`/tournament/${id}`);
  await o.waitForSelector(`${tid('tour-status')}[data-status="finished"]`, { timeout: 30_000 });
  const v = await api();
  assert.deepEqual(v.tie_breaks, ['DE', 'WIN', 'SB', 'BWG']);
  const score = (no) => results.reduce((s, r) => s + (r.white === no ? r.white_score : r.black === no ? 1 - r.white_score : 0), 0);
  const expected = {};
  for (const p of v.players) {
    const mine = results.filter((r) => r.white === p.no || r.black === p.no);
    const won = mine.filter((r) => (r.white === p.no ? r.white_score === 1 : r.white_score === 0));
    const opp = (r) => (r.white === p.no ? r.black : r.white);
    const tied = v.players.filter((q) => q.no !== p.no && score(q.no) === score(p.no)).map((q) => q.no);
    const de = mine.filter((r) => tied.includes(opp(r))).reduce((s, r) => s + (r.white === p.no ? r.white_score : 1 - r.white_score), 0);
    expected[p.no] = {
      score: score(p.no),
      DE: de,
      WIN: won.length,
      SB: won.reduce((s, r) => s + score(opp(r)), 0),
      BWG: won.filter((r) => r.black === p.no).length,
    };
  }
  const rows = await o.locator(tid('standing-row')).all();
  assert.equal(rows.length, 4);
  for (const row of rows) {
    const no = Number(await row.getAttribute('data-no'));
    const e = expected[no];
    const text = (await row.locator(tid('standing-score')).innerText()).trim();
    assert.equal(text, String(e.score), `score of ${no}`);
    for (const tb of ['DE', 'WIN', 'SB', 'BWG']) {
      const cell = (await row.locator(`[data-tb="${tb}"]`).innerText()).trim();
      assert.equal(cell, String(e[tb]).replace('.5', '½').replace(/^0½$/, '½'), `${tb} of ${no}`);
    }
  }
  // The rows are in rank order: scores never go up.
  const scores = [];
  for (const row of rows) scores.push(expected[Number(await row.getAttribute('data-no'))].score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  // The crosstable and the downloads are there.
  assert.equal(await o.locator(tid('cross-row')).count(), 4);
  const pgn = await (await o.request.get(`/api/tournament/${id}/pgn`)).text();
  assert.equal((pgn.match(/\[Event "周末循环赛"\]/g) ?? []).length, 6);
  for (const c of [org, ...P]) await c.context.close();
});

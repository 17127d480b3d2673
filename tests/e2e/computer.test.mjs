// SPDX-License-Identifier: GPL-3.0-or-later
// A whole game against the computer (level 1), played by clicking squares, to its end by the rules; then the PGN
// download, read back with python-chess.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardState, chooseMove, clickMove, launch, newPage, startServer, tid, waitTurnOrEnd, startComputerGame } from './lib.mjs';

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

test('a full game against the computer, by clicks, to its end; the PGN reads back in python-chess', { timeout: 900_000 }, async () => {
  const { page } = await newPage(browser, server.base, { lang: 'zh' });
  const gameId = await startComputerGame(page);

  const history = [];
  let moves = 0;
  const MAX_MOVES = 250;
  for (;;) {
    const st = await waitTurnOrEnd(page, 'white', 120_000);
    if (st.status === 'finished' || st.status === 'aborted') break;
    if (moves >= MAX_MOVES) break;
    history.push(st.fen);
    const uci = chooseMove(st.fen, history);
    assert.ok(uci, `no move in ${st.fen}`);
    const plyBefore = st.ply;
    await clickMove(page, uci);
    // The server's move_made comes back: the ply advances.
    await page.waitForFunction(
      ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
      [tid('board'), plyBefore],
      { timeout: 30_000, polling: 50 },
    );
    moves++;
  }
  let st = await boardState(page);
  if (st.status !== 'finished') {
    // Did not end by the rules within the cap: resign so that the game is finished.
    console.log(`# no end after ${moves} moves; resigning`);
    await page.click(tid('resign'));
    await page.click(tid('resign-confirm'));
    await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
    st = await boardState(page);
  }
  const result = await page.textContent(tid('result'));
  console.log(`# game ${gameId} after ${moves} moves of ours: ${result.replace(/\s+/g, ' ')}`);
  assert.match(result, /1-0|0-1|1\/2-1\/2/);
  assert.match(result, /将死|逼和|和棋|认输|超时|重复|回合/);

  // The move list shows the SAN moves.
  const list = await page.textContent(tid('move-list'));
  assert.ok(list.includes('1.'), list);

  // Download the PGN and read it back with python-chess.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(tid('download-pgn'))]);
  const dir = mkdtempSync(join(tmpdir(), 'gx-pgn-'));
  const file = join(dir, 'game.pgn');
  await download.saveAs(file);
  const pgn = readFileSync(file, 'utf8');
  assert.match(pgn, /\[Result "/);
  const out = execFileSync(
    'python3',
    [
      '-c',
      [
        'import sys, chess.pgn',
        'g = chess.pgn.read_game(open(sys.argv[1], encoding="utf-8"))',
        'assert g is not None, "no game"',
        'assert not g.errors, g.errors',
        'n = len(list(g.mainline_moves()))',
        'print(n, g.headers["Result"], g.end().board().fen())',
      ].join('\n'),
      file,
    ],
    { encoding: 'utf8' },
  );
  const [n, res] = out.trim().split(' ');
  console.log(`# python-chess read ${n} plies, result ${res}`);
  assert.equal(Number(n), st.ply);
  assert.ok(['1-0', '0-1', '1/2-1/2'].includes(res));
});

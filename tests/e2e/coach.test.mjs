// SPDX-License-Identifier: GPL-3.0-or-later
// The review as a coach (issue 38), in a zh-CN browser: a beginner's game against level 1 in which we hang a piece.
// Its review's first key moment is our move, marked "??", said in words that name the piece and its square and
// carry no evaluation; the computer's errors wait behind a toggle and the figures behind "详情". "Learn from your
// mistakes" puts the exercise on the main board, accepts another move that keeps the piece, and gives the game back.
// Screenshots of both, zh and en, desktop and phone, go to docs/screenshots/review-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci, opposite, parseSquare } from 'chessops/util';
import { chooseMove, clickMove, clickSquare, hangingMove, launch, newPage, startServer, tid, waitTurnOrEnd, startComputerGame } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOTS = resolve(HERE, '../../docs/screenshots');
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

const ZH_PIECE = { knight: '马', bishop: '象', rook: '车', queen: '后' };

function position(fen) {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

/** Whether a square is attacked by `by` in `pos`. */
function attacked(pos, sq, by) {
  return pos.kingAttackers(sq, by, pos.board.occupied).nonEmpty();
}

/**
 * Another move than `avoid` that keeps everything: a quiet move after which no piece of ours stands where the
 * opponent attacks it and does not already, and the opponent has no mate in one — the piece that was hung moved to
 * a safe square first.
 */
function savingMoves(fen, avoid, piece) {
  const pos = position(fen);
  const me = pos.turn;
  const them = opposite(me);
  const exposed = (p) => {
    const out = new Set();
    for (const sq of p.board[me]) {
      const role = p.board.get(sq).role;
      if (role === 'pawn' || role === 'king') continue;
      if (attacked(p, sq, them)) out.add(sq);
    }
    return out;
  };
  const before = exposed(pos);
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const uci = makeUci({ from, to });
      if (avoid.includes(uci) || pos.board.get(to) || pos.board.get(from).role === 'king') continue;
      const p = pos.clone();
      p.play({ from, to });
      const now = exposed(p);
      if ([...now].some((sq) => !before.has(sq) || sq === to)) continue;
      let mate = false;
      for (const [f2, d2] of p.allDests()) {
        for (const t2 of d2) {
          const q = p.clone();
          q.play({ from: f2, to: t2 });
          if (q.isCheckmate()) mate = true;
        }
      }
      if (mate) continue;
      out.push({ uci, same: from === parseSquare(piece) });
    }
  }
  // The hung piece's other squares first.
  return out.sort((a, b) => Number(b.same) - Number(a.same)).map((m) => m.uci);
}

/** No evaluation in a text: no "+0.52", "−1.20", "评估", percentage or centipawns. */
function assertNoNumbers(text, what) {
  assert.doesNotMatch(text, /[+−-]?\d+\.\d\d/, `${what}: ${text}`);
  assert.doesNotMatch(text, /%|评估|厘兵|evaluation|centipawn/i, `${what}: ${text}`);
}

test('a hung piece against level 1: our "??" first, said in words, and learned on the main board', { timeout: 400_000 }, async () => {
  const { page } = await newPage(browser, server.base, { lang: 'zh' });
  const gameId = await startComputerGame(page);

  // A few sound moves, then a piece hung (lib.mjs hangingMove) — whatever the computer answers.
  let hang = null;
  for (let i = 0; i < 30 && hang === null; i++) {
    const st = await waitTurnOrEnd(page, 'white', 60_000);
    assert.ok(!['finished', 'aborted'].includes(st.status), 'the game goes on');
    // 1. e4 opens the bishop's and the queen's diagonals: a piece can be hung from the next move on.
    const h = i > 0 ? hangingMove(st.fen) : null;
    await clickMove(page, h ? h.uci : i === 0 ? 'e2e4' : chooseMove(st.fen));
    await page.waitForFunction(
      ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
      [tid('board'), st.ply],
      { timeout: 30_000, polling: 50 },
    );
    if (h) hang = { ...h, ply: st.ply + 1, fen: st.fen };
  }
  assert.ok(hang, 'found a piece to hang');
  const end = await waitTurnOrEnd(page, 'white', 60_000);
  if (end.status !== 'finished') {
    await page.click(tid('resign'));
    await page.click(tid('resign-confirm'));
  }
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
  const finalFen = (await page.$eval(tid('board'), (el) => el.dataset.fen));

  // The review comes by itself.
  await page.waitForSelector(tid('review-moment'), { timeout: 180_000 });
  const review = (await page.evaluate(async (id) => (await fetch(`/api/game/${id}/review`)).json(), gameId)).review;
  const judged = review.moves[hang.ply - 1];

  // The first key moment is ours, the hung piece, marked "??", in words naming the piece and its square.
  const first = await page.$eval(tid('review-moment'), (li) => ({
    ply: Number(li.dataset.ply),
    side: li.dataset.side,
    move: li.querySelector('a').textContent,
    text: li.querySelector('.moment-text').textContent,
  }));
  assert.equal(first.side, 'white', `the learner's own move first: ${JSON.stringify(first)}`);
  assert.equal(first.ply, hang.ply, `the hung ${hang.role} first: ${JSON.stringify(first)} / ${JSON.stringify(judged)}`);
  assert.ok(first.move.endsWith('??'), `marked ??: ${first.move}`);
  const n = Math.ceil(hang.ply / 2);
  assert.ok(first.move.startsWith(`${n}.${ZH_PIECE[hang.role]}`), `the move once, with Chinese letters: ${first.move}`);
  assert.ok(first.text.includes(ZH_PIECE[hang.role]) && first.text.includes(hang.to), `names the piece and square: ${first.text}`);
  assert.ok(!first.text.startsWith(first.move.replace(/^\d+\./, '')), `the move is not repeated: ${first.text}`);
  assertNoNumbers(first.text, 'the sentence');

  // Only our moments (at most five); the computer's behind the toggle; no figures but behind 详情.
  const sides = await page.$$eval(tid('review-moment'), (els) => els.map((e) => e.dataset.side));
  assert.ok(sides.length <= 5 && sides.every((s) => s === 'white'), `ours only: ${sides}`);
  const panelText = await page.$eval(tid('review-panel'), (el) => {
    const c = el.cloneNode(true);
    c.querySelectorAll('details, svg').forEach((d) => d.remove());
    return c.textContent;
  });
  assertNoNumbers(panelText.replace(/准确率 \d+%/g, ''), 'the review panel outside 详情');
  assert.equal(await page.$eval(tid('review-details'), (d) => d.open), false, '详情 is closed');
  const computerErrors = review.moves.filter((m) => m.ply % 2 === 0 && ['mistake', 'blunder', 'missed_win'].includes(m.class) && m.best);
  if (computerErrors.length) {
    await page.click(tid('review-show-others'));
    await page.waitForSelector(`${tid('review-moment')}[data-side="black"]`);
    assert.match(await page.textContent(tid('review-panel')), /显示电脑的失误/);
    await page.click(tid('review-show-others'));
  }
  // Accuracy waits for ten moves.
  const ourMoves = Math.ceil(review.moves.length / 2);
  const accText = await page.textContent(tid('review-accuracy'));
  if (ourMoves < 10) assert.doesNotMatch(accText, /准确率/, accText);

  await page.screenshot({ path: join(SHOTS, 'review-zh-desktop.png') });

  // Learn from your mistakes: the exercise of the hung piece, on the main board.
  await page.click(tid('review-learn'));
  const exercises = review.moves.filter((m) => m.ply % 2 === 1 && m.exercise);
  const index = exercises.findIndex((m) => m.ply === hang.ply);
  assert.ok(index >= 0, `the hung piece is an exercise: ${JSON.stringify(exercises.map((m) => m.ply))}`);
  for (let i = 0; i < index; i++) await page.click(tid('review-learn-next'));
  await page.waitForFunction(
    ([sel, fen]) => document.querySelector(sel)?.dataset.learn === '1' && document.querySelector(sel)?.dataset.fen === fen,
    [tid('board'), hang.fen],
    { timeout: 10_000 },
  );
  assert.equal(await page.$$eval('[data-testid="review-learn-board"]', (e) => e.length), 0, 'no second board');
  // The board is in view.
  const box = await page.locator(tid('board')).boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box.y < viewport.height && box.y + box.height > 0, `the board is in view: ${JSON.stringify(box)}`);

  // Another move that keeps the piece (not the engine's, not the game's) is right, and said why in words. Our
  // picker of "safe" moves looks one move ahead only: of its first three, one at least must be accepted (each
  // refusal puts the exercise's position back).
  const alternatives = savingMoves(hang.fen, [hang.uci, judged.best], hang.uci.slice(0, 2));
  assert.ok(alternatives.length, 'a saving move exists');
  const refused = [];
  let feedback = '';
  for (const alt of alternatives.slice(0, 3)) {
    await page.waitForFunction(([sel, fen]) => document.querySelector(sel)?.dataset.fen === fen, [tid('board'), hang.fen]);
    await clickSquare(page, alt.slice(0, 2));
    await clickSquare(page, alt.slice(2, 4));
    await page.waitForFunction((sel) => /✓|✗/.test(document.querySelector(sel)?.textContent ?? ''), tid('review-learn-feedback'), { timeout: 60_000 });
    feedback = await page.textContent(tid('review-learn-feedback'));
    assertNoNumbers(feedback, 'the answer');
    if (/✓/.test(feedback)) break;
    refused.push(`${alt}: ${feedback}`);
  }
  assert.match(feedback, /✓/, `a move that keeps the ${hang.role} is right; refused: ${refused.join(' | ')}`);
  if (refused.length) console.log(`(refused before: ${refused.join(' | ')})`);
  const settle = () => page.waitForTimeout(400); // the board's animation, before a picture
  await settle();
  await page.screenshot({ path: join(SHOTS, 'review-learn-zh-desktop.png') });

  // Phone and English pictures of the same.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator(tid('board')).scrollIntoViewIfNeeded();
  await settle();
  await page.screenshot({ path: join(SHOTS, 'review-learn-zh-phone.png') });
  await page.click(tid('review-learn-close'));
  await page.waitForFunction(
    ([sel, fen]) => document.querySelector(sel)?.dataset.learn === undefined && document.querySelector(sel)?.dataset.fen === fen,
    [tid('board'), finalFen],
  );
  assert.equal(await page.$$eval(tid('review-learn-bar'), (e) => e.length), 0, 'the exercise is gone');
  await page.locator(tid('review-panel')).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'review-zh-phone.png') });
  await page.click(tid('lang-switch'));
  await page.waitForFunction(() => document.documentElement.lang.startsWith('en'));
  await page.waitForSelector(tid('review-moment'));
  const enText = await page.$eval(`${tid('review-moment')} .moment-text`, (el) => el.textContent);
  assertNoNumbers(enText, 'the English sentence');
  await page.locator(tid('review-panel')).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'review-en-phone.png') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'review-en-desktop.png') });
  await page.click(tid('review-learn'));
  for (let i = 0; i < index; i++) await page.click(tid('review-learn-next'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.learn === '1', tid('board'));
  await page.click(tid('review-learn-solution'));
  await page.waitForFunction((sel) => /The answer/.test(document.querySelector(sel)?.textContent ?? ''), tid('review-learn-feedback'));
  await settle();
  await page.screenshot({ path: join(SHOTS, 'review-learn-en-desktop.png') });
});

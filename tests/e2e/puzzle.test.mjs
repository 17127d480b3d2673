// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles, as a guest uses them (the puzzles are tests/e2e/fixtures/puzzles.csv, hand-composed, which
// run.sh imports before the server starts): in Chinese on a desktop, a back-rank mate solved by clicking the
// from-square and the to-square, the rating going up; a wrong move refused with its reason and taken back, an
// illegal one explained, the solution played out, the rating going down; the hints (the piece, then the move) on
// a knight fork, which then counts as failed; the dashboard kept in the browser; the theme chooser in Chinese
// giving a fork for 双重打击. Then a mate in 2 in English on a 360-px phone, stepping through the line; a streak
// (over at the first mistake, best kept); the daily puzzle. GX_PUZZLE_SHOTS=1 also renews
// docs/screenshots/puzzle-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { boardState, chromeText, launch, newPage, startServer, tid } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOTS = process.env.GX_PUZZLE_SHOTS ? (process.env.GX_PUZZLE_SHOTS_DIR ?? join(resolve(HERE, '../..'), 'docs/screenshots')) : null;
const CJK = /[\u3400-\u9fff]/;
// Chinese characters and full-width punctuation (none of them in the English UI).
const CJK_ALL = /[\u3400-\u9fff\uff00-\uffef]/;

/** Every visible string of the page is in `lang` (names and elements marked translate="no" aside). */
async function checkLang(page, lang, where) {
  const text = await chromeText(page);
  if (lang === 'en') {
    assert.deepEqual(text.split('\n').filter((l) => CJK_ALL.test(l)), [], `${where}: Chinese in English mode`);
  } else {
    assert.deepEqual([...text.matchAll(/\b[A-Za-z]{4,}\b/g)].map((m) => m[0]), [], `${where}: English in Chinese mode`);
    assert.ok(CJK.test(text), `${where}: no Chinese at all`);
  }
}

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
  // The fixture must be in the server's database (run.sh imports it): every test below picks its puzzles by id.
  const r = await fetch(`${server.base}/api/puzzle/gx001`);
  assert.equal(r.status, 200, 'puzzle gx001 of tests/e2e/fixtures/puzzles.csv: run the specs with tests/e2e/run.sh, which imports it');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  // Let the board's animation end.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SHOTS, `puzzle-${name}.png`) });
  console.log(`# screenshot ${join(SHOTS, `puzzle-${name}.png`)}`);
}

const BOARD = tid('puzzle-board');

/** The FEN after `moves` from `fen` (chessops, independent of the page). */
function fenAfter(fen, moves) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  for (const u of moves) {
    const m = parseUci(u);
    assert.ok(pos.isLegal(m), `${u} is legal in ${makeFen(pos.toSetup())}`);
    pos.play(m);
  }
  return makeFen(pos.toSetup());
}

async function board(page) {
  return page.$eval(BOARD, (el) => ({ ...el.dataset }));
}

/** The centre of a square of the puzzle board, in page coordinates. */
async function squareCentre(page, square) {
  const box = await page.locator(BOARD).boundingBox();
  const orientation = await page.$eval(BOARD, (el) => el.dataset.orientation);
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

async function clickSquare(page, square) {
  const c = await squareCentre(page, square);
  await page.mouse.click(c.x, c.y);
}

/** Opens `path` and waits until the puzzle is on the board after its setup move; returns the puzzle shown. */
async function openPuzzle(page, path) {
  await page.goto(path);
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ready === '1', BOARD);
  return board(page);
}

/** Clicks the from-square and the to-square of `uci` and waits for the server's verdict and the page's update. */
async function tryMove(page, uci) {
  const [resp] = await Promise.all([
    page.waitForResponse((r) => /\/api\/puzzle\/[^/]+\/try$/.test(new URL(r.url()).pathname)),
    (async () => {
      await clickSquare(page, uci.slice(0, 2));
      await clickSquare(page, uci.slice(2, 4));
    })(),
  ]);
  assert.deepEqual(JSON.parse(resp.request().postData()).moves.at(-1), uci, 'the move sent is the one clicked');
  const verdict = await resp.json();
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.busy === '0', BOARD);
  return verdict;
}

/** Waits for the round's `POST …/round` caused by `action`; returns the answer. */
async function roundAfter(page, action) {
  const [resp] = await Promise.all([
    page.waitForResponse((r) => /\/api\/puzzle\/[^/]+\/round$/.test(new URL(r.url()).pathname)),
    action(),
  ]);
  assert.equal(resp.status(), 200, `round: ${await resp.text()}`);
  return { body: JSON.parse(resp.request().postData()), answer: await resp.json() };
}

async function ratingText(page) {
  return (await page.textContent(tid('puzzle-rating'))).trim();
}

/** The puzzle's moves after the setup move from the server (the trainer's own call). */
async function puzzleOf(page, id) {
  return page.evaluate((i) => fetch(`/api/puzzle/${i}`).then((r) => r.json()), id);
}

test('a guest in Chinese: solves by clicking, fails one, takes hints; rating, dashboard, theme chooser', { timeout: 300_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh', width: 1280, height: 900 });
  await page.goto('/');
  const [firstNext] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next'),
    page.click(tid('puzzle-nav')),
  ]);
  await page.waitForURL(/\/puzzle$/);
  const first = await firstNext.json();
  assert.ok(first.puzzle.rating <= 1100, `a fresh guest's first puzzle is at most 1100: ${first.puzzle.id} ${first.puzzle.rating}`);
  assert.equal(new URL(firstNext.url()).searchParams.get('rating'), null, 'a new guest sends no rating: the server starts them');
  await page.waitForSelector(`${BOARD}[data-ready="1"]`);
  const start = await ratingText(page);
  assert.equal(start, '1000?', 'a new guest: 1000, provisional');
  // The "?" is said in words on the page (a tooltip would not show on a phone).
  assert.match(await page.textContent(tid('puzzle-provisional-note')), /表示等级分还不确定/);

  // 1. A back-rank mate in 1 (白方走棋), solved by clicking d1 then d8.
  let b = await openPuzzle(page, '/puzzle/gx001');
  assert.equal(b.puzzle, 'gx001');
  assert.equal(b.orientation, 'white');
  assert.equal(b.fen, fenAfter('r5k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1', ['a8a2']), 'the setup move has been played');
  assert.match(await page.textContent(tid('puzzle-prompt')), /白方走棋/);
  const solved = await roundAfter(page, async () => {
    const v = await tryMove(page, 'd1d8');
    assert.equal(v.verdict, 'solved');
  });
  assert.equal(solved.body.win, true);
  assert.equal(solved.body.hints, 0);
  assert.deepEqual(solved.body.rating, { rating: 1000, deviation: 250, volatility: 0.06 }, "the guest's rating is sent: a new player's");
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="solved"]`);
  assert.match(await page.textContent(tid('puzzle-result')), /解出来了/);
  await page.waitForSelector(`${tid('puzzle-change')}[data-after]`);
  const up = Number(await page.getAttribute(tid('puzzle-change'), 'data-after'));
  assert.ok(up > 1000, `solving raises the rating: ${up}`);
  // Numbered for people: 第 N 题 with a short number, the id in the link.
  const facts = await page.textContent(`${tid('puzzle-result')} .puzzle-facts`);
  assert.match(facts, /第 \d{1,7} 题/, facts);
  assert.ok(!facts.includes('gx001'), `the number, not the id: ${facts}`);
  assert.equal(await page.getAttribute(tid('puzzle-permalink'), 'href'), '/puzzle/gx001');
  const afterWin = await ratingText(page);
  assert.notEqual(afterWin, start);
  assert.equal(Number(afterWin.replace('?', '')), up);
  // The motifs, by name and with their sentence.
  const motifs = await page.$$eval(`${tid('puzzle-motifs')} li`, (els) => els.map((e) => ({ id: e.dataset.motif, text: e.textContent })));
  assert.ok(motifs.some((m) => m.id === 'mate_in_1' || m.id === 'back_rank_mate'), `motifs: ${JSON.stringify(motifs)}`);
  assert.ok(motifs.every((m) => CJK.test(m.text)), 'motif names in Chinese');
  await checkLang(page, 'zh', 'a solved puzzle');
  await shot(page, 'solved-zh-desktop');

  // 2. Black to play (the board turned round): a wrong move, an illegal one, then the solution.
  b = await openPuzzle(page, '/puzzle/gx005');
  assert.equal(b.orientation, 'black');
  assert.match(await page.textContent(tid('puzzle-prompt')), /黑方走棋/);
  const startFen = b.fen;
  const lost = await roundAfter(page, async () => {
    const v = await tryMove(page, 'd8d7');
    assert.equal(v.verdict, 'wrong');
  });
  assert.equal(lost.body.win, false);
  assert.equal(lost.body.rating.rating, up, 'the rating sent is the one the browser keeps');
  const reason = await page.textContent(`${tid('puzzle-feedback')}[data-kind="wrong"]`);
  assert.match(reason, /不对/);
  // In Chinese letters, as the move list (the choice's default in Chinese): 车xd7, never Rxd7.
  assert.match(reason, /[王后车象马]x?[a-h][1-8]/, reason);
  assert.doesNotMatch(reason, /[KQRBN]x?[a-h][1-8]/, reason);
  await shot(page, 'wrong-zh-desktop');
  assert.equal((await board(page)).fen, startFen, 'the wrong move is taken back');
  const down = lost.answer.rating.after;
  assert.ok(down < up, `a wrong move lowers the rating: ${up} → ${down}`);
  await page.waitForFunction(([sel, r]) => document.querySelector(sel)?.textContent.replace('?', '').trim() === String(r), [tid('puzzle-rating'), down]);
  const illegal = await tryMove(page, 'd8e6');
  assert.equal(illegal.verdict, 'illegal');
  const why = await page.textContent(tid('puzzle-reason'));
  assert.equal(why.trim(), illegal.reason.zh, 'the rules core explains the illegal move');
  assert.equal((await board(page)).fen, startFen, 'the illegal move is taken back');
  await shot(page, 'illegal-zh-desktop');
  await page.click(tid('puzzle-solution'));
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="failed"]`);
  assert.equal((await board(page)).fen, fenAfter('3r2k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', ['a1a7', 'd8d1']), 'the solution is played out');
  assert.match(await page.textContent(tid('puzzle-result')), /没有解出/);

  // 3. The knight fork: the first hint lights the knight, the second shows the move; it counts as failed.
  b = await openPuzzle(page, '/puzzle/gx003');
  await page.click(tid('puzzle-hint'));
  b = await board(page);
  assert.equal(b.hint, 'e4', 'the first hint: the piece to move');
  assert.equal(b.hintMove, '');
  // The board's data says the hint at once; the board draws its square on the next frame.
  await page.waitForSelector('cg-board square.puzzle-hint');
  const lit = await page.$eval('cg-board square.puzzle-hint', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  const e4 = await squareCentre(page, 'e4');
  assert.ok(Math.abs(lit.x - e4.x) < 3 && Math.abs(lit.y - e4.y) < 3, `the lit square is e4: ${JSON.stringify([lit, e4])}`);
  await page.click(tid('puzzle-hint'));
  assert.equal((await board(page)).hintMove, 'e4f6', 'the second hint: the move');
  await page.waitForFunction(() => document.querySelectorAll('.cg-wrap svg line, .cg-wrap svg path').length > 0);
  await shot(page, 'hint-zh-desktop');
  const fork = await roundAfter(page, async () => {
    const v1 = await tryMove(page, 'e4f6');
    assert.equal(v1.verdict, 'correct');
    assert.equal(v1.reply, 'g8g7');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '3', BOARD);
    const v2 = await tryMove(page, 'f6d7');
    assert.equal(v2.verdict, 'solved');
  });
  assert.equal(fork.body.win, false, 'a hint makes the round a loss');
  assert.equal(fork.body.hints, 2);
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="failed"]`);
  assert.match(await page.textContent(tid('puzzle-result')), /提示/);
  assert.ok(fork.answer.rating.after < down, `${down} → ${fork.answer.rating.after}`);

  // 4. The dashboard: three rounds, kept in the browser.
  await page.click(tid('puzzle-tab-dashboard'));
  await page.waitForSelector(tid('puzzle-dash-history'));
  const rows = await page.$$eval(`${tid('puzzle-dash-history')} tbody tr`, (els) => els.map((e) => [e.dataset.id, e.dataset.win]));
  assert.deepEqual(rows, [['gx003', '0'], ['gx005', '0'], ['gx001', '1']]);
  assert.equal((await page.textContent(tid('puzzle-dash-rounds'))).trim(), '3');
  const themes = await page.$$eval(`${tid('puzzle-dash-themes')} tbody tr`, (els) => els.map((e) => e.dataset.theme));
  assert.ok(themes.length > 0, 'results by theme');
  await checkLang(page, 'zh', 'the dashboard');
  await shot(page, 'dashboard-zh-desktop');
  await context.close();
});

test('a fresh guest in zh-CN on a phone starts easy; the difficulty is chosen and kept; in English too', { timeout: 180_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh', width: 360, height: 740, mobile: true });
  const nextResp = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next');
  const [firstNext] = await Promise.all([nextResp(), page.goto('/puzzle')]);
  const first = await firstNext.json();
  assert.ok(first.puzzle.rating <= 1100, `a fresh guest's first puzzle is at most 1100: ${first.puzzle.rating}`);
  assert.equal(first.newcomer.rating, 1000);
  await page.waitForSelector(`${BOARD}[data-puzzle="${first.puzzle.id}"][data-ready="1"]`);
  assert.equal(await ratingText(page), '1000?');
  const note = page.locator(tid('puzzle-provisional-note'));
  assert.ok(await note.isVisible(), 'the note on the "?" is visible on a phone');
  assert.match(await note.textContent(), /再做几题就准了/);
  // The five difficulties, in Chinese, "normal" until chosen.
  const options = await page.$$eval(`${tid('puzzle-difficulty')} option`, (els) => els.map((e) => [e.value, e.textContent]));
  assert.deepEqual(options, [['easiest', '最简单'], ['easier', '较简单'], ['normal', '正常'], ['harder', '较难'], ['hardest', '最难']]);
  assert.equal(await page.$eval(tid('puzzle-difficulty'), (el) => el.value), 'normal');
  await checkLang(page, 'zh', 'a new guest on a phone');
  await shot(page, 'start-zh-phone');

  // 最难: the server is asked for 600 above the rating, and the puzzle is harder than the easiest band.
  const [hard] = await Promise.all([nextResp(), page.selectOption(tid('puzzle-difficulty'), 'hardest')]);
  assert.equal(new URL(hard.url()).searchParams.get('difficulty'), 'hardest');
  const hp = (await hard.json()).puzzle;
  assert.ok(hp.rating > 1100, `最难 from 1000 gives a harder puzzle: ${hp.id} ${hp.rating}`);
  await page.waitForSelector(`${BOARD}[data-puzzle="${hp.id}"][data-ready="1"]`);
  // Kept in this browser: after a reload the choice is still there and still sent.
  const [again] = await Promise.all([nextResp(), page.reload()]);
  assert.equal(new URL(again.url()).searchParams.get('difficulty'), 'hardest');
  await page.waitForSelector(`${BOARD}[data-ready="1"]`);
  assert.equal(await page.$eval(tid('puzzle-difficulty'), (el) => el.value), 'hardest');
  const [easy] = await Promise.all([nextResp(), page.selectOption(tid('puzzle-difficulty'), 'easiest')]);
  assert.equal(new URL(easy.url()).searchParams.get('difficulty'), 'easiest');
  assert.ok((await easy.json()).puzzle.rating <= 1100);
  await context.close();

  // A desktop in Chinese, with the choice made: the picture of the trainer's top.
  const zh = await newPage(browser, server.base, { lang: 'zh', width: 1280, height: 900 });
  await zh.page.goto('/puzzle');
  await zh.page.waitForSelector(`${BOARD}[data-ready="1"]`);
  await zh.page.selectOption(tid('puzzle-difficulty'), 'easier');
  await zh.page.waitForSelector(`${BOARD}[data-ready="1"]`);
  await shot(zh.page, 'difficulty-zh-desktop');
  await zh.context.close();

  // In English, on a desktop and on a phone: the same, in English only.
  for (const [width, height, mobile, name] of [[1280, 900, false, 'start-en-desktop'], [360, 740, true, 'start-en-phone']]) {
    const en = await newPage(browser, server.base, { lang: 'en', width, height, mobile });
    const [n] = await Promise.all([en.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next'), en.page.goto('/puzzle')]);
    assert.ok((await n.json()).puzzle.rating <= 1100);
    await en.page.waitForSelector(`${BOARD}[data-ready="1"]`);
    assert.match(await en.page.textContent(tid('puzzle-provisional-note')), /not settled yet/);
    const labels = await en.page.$$eval(`${tid('puzzle-difficulty')} option`, (els) => els.map((e) => e.textContent));
    assert.deepEqual(labels, ['Easiest', 'Easier', 'Normal', 'Harder', 'Hardest']);
    await checkLang(en.page, 'en', `a new guest (${name})`);
    await shot(en.page, name);
    await en.context.close();
  }
});

test('the theme chooser in Chinese: 双重打击 gives a fork', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh', width: 1280, height: 900 });
  await page.goto('/puzzle');
  await page.waitForSelector(`${BOARD}[data-ready="1"]`);
  await page.waitForSelector(`${tid('puzzle-theme')} option[value="seed-4"]`, { state: 'attached' });
  const options = await page.$$eval(`${tid('puzzle-theme')} option`, (els) => els.map((e) => ({ value: e.value, text: e.textContent, disabled: e.disabled })));
  const seeds = options.filter((o) => o.value.startsWith('seed-'));
  const { seeds: all } = await page.evaluate(() => fetch('/api/puzzle/themes?all=1').then((r) => r.json()));
  assert.deepEqual(seeds.map((o) => o.value), all.filter((t) => t.count > 0).map((t) => `seed-${t.number}`), 'the seeds’ tactics that have puzzles, in order');
  assert.ok(seeds.length < 18, 'the fixture has no puzzle for some tactics: they are not listed');
  assert.ok(options.every((o) => !/\(0\)/.test(o.text) && !o.disabled), `no empty theme: ${JSON.stringify(options)}`);
  assert.equal(options.findIndex((o) => o.value.startsWith('seed-')), 1, 'the tactics come first, after “any”');
  const seed4 = options.find((o) => o.value === 'seed-4');
  assert.match(seed4.text, /双重打击/);
  assert.match(seed4.text, /捉双/);
  assert.equal(seed4.disabled, false, 'the fixture has a fork');
  const [resp] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next' && new URL(r.url()).searchParams.get('theme') === 'seed-4'),
    page.selectOption(tid('puzzle-theme'), 'seed-4'),
  ]);
  const { puzzle } = await resp.json();
  assert.ok(puzzle.motifs.some((m) => m.id === 'fork'), `motifs of ${puzzle.id}: ${puzzle.motifs.map((m) => m.id)}`);
  await page.waitForSelector(`${BOARD}[data-puzzle="${puzzle.id}"][data-ready="1"]`);
  assert.equal(await page.$eval(tid('puzzle-theme'), (el) => el.value), 'seed-4');
  await checkLang(page, 'zh', 'the theme chooser');
  await shot(page, 'theme-zh-desktop');
  // Solving it shows the fork explained.
  for (let i = 1; i < puzzle.moves.length; i += 2) {
    const v = await tryMove(page, puzzle.moves[i]);
    assert.ok(v.verdict === 'correct' || v.verdict === 'solved', JSON.stringify(v));
    if (v.verdict === 'correct') await page.waitForFunction(([sel, n]) => document.querySelector(sel)?.dataset.ply === String(n), [BOARD, i + 2]);
  }
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="solved"]`);
  const fork = await page.textContent(`${tid('puzzle-motifs')} li[data-motif="fork"]`);
  assert.match(fork, /捉双/);
  // The theme is remembered: the next puzzle is asked for with it.
  const [again] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next'), page.click(tid('puzzle-next'))]);
  assert.equal(new URL(again.url()).searchParams.get('theme'), 'seed-4');
  await context.close();
});

test('a mate in 2 in English on a phone: the reply, the line stepped through', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en', width: 360, height: 740, mobile: true });
  const b = await openPuzzle(page, '/puzzle/gx002');
  assert.match(await page.textContent(tid('puzzle-prompt')), /White to play/);
  const box = await page.locator(BOARD).boundingBox();
  assert.ok(box.width >= 340, `the board is full width: ${box.width}`);
  const side = await page.locator('.puzzle-side').boundingBox();
  assert.ok(side.y >= box.y + box.height - 1, 'the panel is below the board');
  assert.equal(b.fen, fenAfter('2r3k1/5ppp/1q6/8/8/8/4RPPP/4R1K1 b - - 0 1', ['b6b2']));
  await shot(page, 'play-en-phone');
  const v1 = await tryMove(page, 'e2e8');
  assert.equal(v1.verdict, 'correct');
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '3', BOARD);
  assert.equal((await board(page)).fen, fenAfter('2r3k1/5ppp/1q6/8/8/8/4RPPP/4R1K1 b - - 0 1', ['b6b2', 'e2e8', 'c8e8']), 'the reply is played');
  const v2 = await tryMove(page, 'e1e8');
  assert.equal(v2.verdict, 'solved');
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="solved"]`);
  // The text of the result, less what is marked translate="no" (the moves, and the "(马f3)" that shows what the
  // Chinese letters look like).
  const text = await page.$eval(tid('puzzle-result'), (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('[translate="no"]').forEach((x) => x.remove());
    return copy.textContent;
  });
  assert.match(text, /Solved/);
  assert.match(text, /Puzzle \d{1,7} · rated/, 'the short number in English');
  assert.ok(!CJK.test(text), `English only: ${text}`);
  // English letters in English until the learner chooses the Chinese ones; then the line follows the choice.
  assert.match(await page.textContent(tid('puzzle-line')), /Re8\+/);
  await page.check(tid('puzzle-letters'));
  assert.match(await page.textContent(tid('puzzle-line')), /车e8\+/);
  await page.uncheck(tid('puzzle-letters'));
  assert.match(await page.textContent(tid('puzzle-line')), /Re8\+/);
  // Back through the line with ← (and the buttons), forward with →.
  assert.equal((await board(page)).ply, '4');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  let now = await board(page);
  assert.equal(now.ply, '2');
  assert.equal(now.fen, fenAfter('2r3k1/5ppp/1q6/8/8/8/4RPPP/4R1K1 b - - 0 1', ['b6b2', 'e2e8']));
  await page.click(tid('puzzle-fwd'));
  assert.equal((await board(page)).ply, '3');
  const href = await page.getAttribute(tid('puzzle-analysis'), 'href');
  const q = new URL(href, server.base).searchParams;
  assert.equal(q.get('fen'), fenAfter('2r3k1/5ppp/1q6/8/8/8/4RPPP/4R1K1 b - - 0 1', ['b6b2']));
  assert.equal(q.get('moves'), 'e2e8,c8e8,e1e8');
  // The analysis board opens on that position with the line in its move list, at its start.
  const analysis = await context.newPage();
  await analysis.goto(new URL(href, server.base).href);
  await analysis.waitForSelector(`${tid('move-list')} [data-ply="3"]`);
  assert.match(await analysis.textContent(tid('move-list')), /Re8\+.*Rxe8.*Rxe8#/s);
  const start = await boardState(analysis);
  assert.equal(start.ply, 0);
  assert.equal(start.fen, q.get('fen'));
  await analysis.close();
  await page.click(tid('puzzle-fwd'));
  await checkLang(page, 'en', 'a solved puzzle');
  await shot(page, 'solved-en-phone');
  await page.click(tid('puzzle-tab-dashboard'));
  await page.waitForSelector(tid('puzzle-dash-history'));
  await checkLang(page, 'en', 'the dashboard');
  await page.click(tid('puzzle-tab-train'));
  await page.waitForSelector(`${BOARD}[data-ready="1"]`);
  await page.waitForSelector(`${tid('puzzle-theme')} option[value="seed-4"]`, { state: 'attached' });
  await checkLang(page, 'en', 'the trainer with its themes');
  await context.close();
});

test('a streak: rising ratings, over at the first mistake, the best kept; the daily puzzle', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh', width: 1280, height: 900 });
  const nextResp = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/next');
  const [first] = await Promise.all([nextResp(), page.goto('/puzzle/streak')]);
  const p1 = (await first.json()).puzzle;
  assert.equal(new URL(first.url()).searchParams.get('rating'), '1000', 'a streak starts low');
  await page.waitForSelector(`${BOARD}[data-puzzle="${p1.id}"][data-ready="1"]`);
  assert.equal(await page.locator(tid('puzzle-hint')).count(), 0, 'no hints in a streak');
  for (let i = 1; i < p1.moves.length; i += 2) {
    const v = await tryMove(page, p1.moves[i]);
    if (v.verdict === 'correct') await page.waitForFunction(([sel, n]) => document.querySelector(sel)?.dataset.ply === String(n), [BOARD, i + 2]);
  }
  await page.waitForSelector(`${tid('puzzle-streak')}[data-streak="1"]`);
  const [second] = await Promise.all([nextResp(), page.click(tid('puzzle-next'))]);
  const p2 = (await second.json()).puzzle;
  assert.ok(Number(new URL(second.url()).searchParams.get('rating')) > 1000, 'the next one is harder');
  assert.notEqual(p2.id, p1.id);
  await page.waitForSelector(`${BOARD}[data-puzzle="${p2.id}"][data-ready="1"]`);
  // A wrong move (any legal move of the solver but the solution's) ends it; nothing is rated.
  const pos = Chess.fromSetup(parseFen(fenAfter(p2.fen, [p2.moves[0]])).unwrap()).unwrap();
  let wrong = null;
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const u = `${'abcdefgh'[from & 7]}${(from >> 3) + 1}${'abcdefgh'[to & 7]}${(to >> 3) + 1}`;
      const after = pos.clone();
      after.play({ from, to });
      if (u !== p2.moves[1].slice(0, 4) && !after.isCheckmate() && pos.board.get(from).role !== 'pawn') wrong ??= u;
    }
  }
  assert.ok(wrong, 'a wrong move to try');
  let rounds = 0;
  page.on('request', (r) => {
    if (/\/round$/.test(new URL(r.url()).pathname)) rounds++;
  });
  const v = await tryMove(page, wrong);
  assert.equal(v.verdict, 'wrong');
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="failed"]`);
  assert.match(await page.textContent(tid('puzzle-result')), /连胜结束/);
  assert.equal(await page.getAttribute(tid('puzzle-streak'), 'data-best'), '1');
  assert.equal(rounds, 0, 'a streak is not rated');
  await shot(page, 'streak-zh-desktop');

  // The daily puzzle: the one the server names for today.
  const [daily] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/puzzle/daily'),
    page.click(tid('puzzle-tab-daily')),
  ]);
  const d = await daily.json();
  await page.waitForSelector(`${BOARD}[data-puzzle="${d.puzzle.id}"][data-ready="1"]`);
  const shown = await board(page);
  const whole = await puzzleOf(page, d.puzzle.id);
  assert.deepEqual(whole.puzzle.solution, d.puzzle.solution);
  assert.equal(shown.orientation, Chess.fromSetup(parseFen(d.puzzle.fen).unwrap()).unwrap().turn === 'white' ? 'black' : 'white');
  await context.close();
});

test('an account: the rating and the dashboard are the server’s', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'zh', width: 1280, height: 900 });
  await page.goto('/register');
  const name = `solver${Date.now() % 1_000_000}`;
  await page.fill(tid('username'), name);
  await page.fill(tid('password'), 'tactics-trainer-1');
  await page.click(tid('register'));
  await page.waitForFunction((n) => document.querySelector('[data-testid="me"]')?.textContent === n, name);
  await openPuzzle(page, '/puzzle/gx004');
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.rating !== '', tid('puzzle-rating'));
  const before = Number(await page.getAttribute(tid('puzzle-rating'), 'data-rating'));
  const { body, answer } = await roundAfter(page, async () => {
    const v1 = await tryMove(page, 'e2c4');
    assert.equal(v1.verdict, 'correct');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ply === '3', BOARD);
    const v2 = await tryMove(page, 'b3c4');
    assert.equal(v2.verdict, 'solved');
  });
  assert.equal(body.win, true);
  assert.equal(body.rating, undefined, 'an account sends no rating: the server keeps it');
  assert.equal(answer.rating.before, before);
  assert.ok(answer.rating.after > before, `${before} → ${answer.rating.after}`);
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="solved"]`);
  // 牵制 and 绝对牵制 say the same sentence about this pin: one item, the sentence once.
  const items = await page.$$eval(`${tid('puzzle-motifs')} li`, (els) =>
    els.map((e) => ({ ids: e.dataset.motifs, text: e.querySelector('.puzzle-motif-text')?.textContent ?? '' })),
  );
  const pin = items.find((i) => i.ids.split(' ').includes('absolute_pin'));
  assert.ok(pin && pin.ids.split(' ').includes('pin'), `pin and absolute pin in one item: ${JSON.stringify(items)}`);
  assert.match(await page.textContent(`${tid('puzzle-motifs')} li[data-motif="${pin.ids.split(' ')[0]}"]`), /牵制.*绝对牵制|绝对牵制.*牵制/s);
  const sentences = items.map((i) => i.text).filter((x) => x);
  assert.equal(new Set(sentences).size, sentences.length, `each sentence once: ${JSON.stringify(sentences)}`);
  await shot(page, 'pin-zh-desktop');
  // The browser keeps nothing of it; the dashboard reads the server.
  assert.equal(await page.evaluate(() => localStorage.getItem('gx.puzzle.guest')), null);
  await page.click(tid('puzzle-tab-dashboard'));
  await page.waitForSelector(tid('puzzle-dash-history'));
  const rows = await page.$$eval(`${tid('puzzle-dash-history')} tbody tr`, (els) => els.map((e) => [e.dataset.id, e.dataset.win]));
  assert.deepEqual(rows, [['gx004', '1']]);
  assert.equal((await page.textContent(tid('puzzle-dash-rating'))).replace('?', '').trim(), String(answer.rating.after));
  const themes = await page.$$eval(`${tid('puzzle-dash-themes')} tbody tr`, (els) => els.map((e) => e.dataset.theme));
  assert.ok(themes.includes('pin'), `themes: ${themes}`);
  await context.close();
});

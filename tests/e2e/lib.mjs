// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the end-to-end tests: the server under test, headless Chromium (Debian's), clicking squares on
// the chessground board, and a small move chooser (chessops) that plays to win against a weak engine.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { pawnAttacks } from 'chessops/attacks';
import { makeSquare, makeUci, opposite } from 'chessops/util';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * A fresh database: a SQLite file in `dir`, or with GUOXIANG_SERVER_TEST_DB=postgres a new schema on the PostgreSQL
 * that $GUOXIANG_TEST_POSTGRES names.
 */
function freshDatabase(dir) {
  if (process.env.GUOXIANG_SERVER_TEST_DB !== 'postgres') return `sqlite://${join(dir, 'e2e.db')}`;
  const pg = process.env.GUOXIANG_TEST_POSTGRES;
  if (!pg) throw new Error('GUOXIANG_SERVER_TEST_DB=postgres needs GUOXIANG_TEST_POSTGRES (.ci/postgres.sh)');
  const schema = `e2e_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const r = spawnSync('psql', [pg, '-qc', `CREATE SCHEMA ${schema}`], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`psql could not create schema ${schema}: ${r.stderr || r.error}`);
  return `${pg}${pg.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
}

/**
 * The server to test: $GX_BASE if set (already running), else the binary $GX_BIN (or `bin`) started on a free
 * port with a fresh database (see freshDatabase). Returns {base, database, stop} (`database`: $GX_DATABASE for a running
 * server, when run.sh started it). `own`: always start one of its own, even when $GX_BASE is set (for a spec that
 * must not see what the other specs wrote: their players' and tournaments' names). `args`: more `serve` options.
 */
export async function startServer(bin = process.env.GX_BIN, { own = false, args = [] } = {}) {
  if (process.env.GX_BASE && !own) {
    return { base: process.env.GX_BASE.replace(/\/$/, ''), database: process.env.GX_DATABASE, stop: async () => {} };
  }
  if (!bin) throw new Error('set GX_BIN (the guoxiang binary) or GX_BASE (a running server)');
  const dir = mkdtempSync(join(tmpdir(), 'gx-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = freshDatabase(dir);
  const proc = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--database', database, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  let log = '';
  proc.stderr.on('data', (d) => {
    log += d.toString();
    if (log.length > 100_000) log = log.slice(-50_000);
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${log}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    // For the shell commands a spec runs on the same database (`guoxiang user admin NAME --database …`).
    database,
    log: () => log,
    stop: async () => {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => {
            proc.kill('SIGKILL');
            r();
          }, 5000);
          proc.on('exit', () => {
            clearTimeout(t);
            r();
          });
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (its own cookies: its own guest) and a page in it. */
export async function newPage(browser, base, { lang = 'zh', width = 1280, height = 900, mobile = false } = {}) {
  const context = await browser.newContext({
    baseURL: base,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    viewport: { width, height },
    deviceScaleFactor: 1,
    isMobile: mobile,
    hasTouch: mobile,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return { context, page };
}

export const tid = (id) => `[data-testid="${id}"]`;

/** Waits until the element with test id `id` contains `text`. */
export const hasText = (page, id, text, timeout = 30_000) =>
  page.waitForFunction(([sel, t]) => document.querySelector(sel)?.textContent?.includes(t), [tid(id), text], { timeout });

/** The board's state as the page mirrors it. */
export async function boardState(page) {
  return page.$eval(tid('board'), (el) => ({
    fen: el.dataset.fen,
    turn: el.dataset.turn,
    myColor: el.dataset.myColor,
    status: el.dataset.status,
    live: el.dataset.live === '1',
    ply: Number(el.dataset.ply),
    orientation: el.dataset.orientation,
  }));
}

/** Clicks the centre of a square of the main board (or of another board: `board` is its selector). */
export async function clickSquare(page, square, board = tid('board')) {
  // chessground forgets the board's place on a scroll event, which comes with the next frame: if the page has just
  // scrolled (a click elsewhere brought something into view), wait for it, or the click lands on the old place.
  // And a board partly out of view (or under the sticky header) is brought into view first.
  await page.$eval(board, (el) => {
    const r = el.getBoundingClientRect();
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    if (r.top < header || r.bottom > window.innerHeight) el.scrollIntoView({ block: 'center' });
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await page.locator(board).boundingBox();
  const orientation = (await page.$eval(board, (el) => el.dataset.orientation)) ?? 'white';
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  await page.mouse.click(box.x + (col + 0.5) * size, box.y + (row + 0.5) * size);
}

/** Plays a UCI move by clicking its two squares (and the promotion piece). */
export async function clickMove(page, uci) {
  await clickSquare(page, uci.slice(0, 2));
  await clickSquare(page, uci.slice(2, 4));
  if (uci.length === 5) {
    const role = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[uci[4]];
    await page.click(tid(`promote-${role}`));
  }
}

/** Plays `uci` on `page` (whose turn it must be, as `color`) and waits until `other` has it too. */
export async function playAndWait(page, other, color, uci) {
  const st = await waitTurnOrEnd(page, color, 30_000);
  await clickMove(page, uci);
  await other.waitForFunction(
    ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
    [tid('board'), st.ply],
    { timeout: 30_000, polling: 50 },
  );
}

/** Waits until the page's game is over or it is `color`'s turn on the live board; returns the state. */
export async function waitTurnOrEnd(page, color, timeout = 60_000) {
  await page.waitForFunction(
    ([sel, c]) => {
      const el = document.querySelector(sel);
      if (!el) return false;
      const over = el.dataset.status === 'finished' || el.dataset.status === 'aborted';
      return over || (el.dataset.turn === c && el.dataset.live === '1');
    },
    [tid('board'), color],
    { timeout, polling: 50 },
  );
  return boardState(page);
}

/** From the home page, an untimed game against the computer at level 1 with White; its id once the board is ours. */
export async function startComputerGame(page) {
  await page.goto('/');
  await page.click(tid('play-computer'));
  await page.selectOption(tid('level'), '1');
  await page.selectOption(tid('color'), 'white');
  await page.fill(tid('time-control'), '-');
  await page.click(tid('start-game'));
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const gameId = page.url().split('/').pop();
  await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
  return gameId;
}

// ---- a small player for the tests ----

const VALUE = { pawn: 100, knight: 300, bishop: 320, rook: 500, queen: 900, king: 0 };

function position(fen) {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const piece = pos.board.get(from);
      const promo = piece.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0);
      if (promo) out.push({ from, to, promotion: 'queen' });
      else out.push({ from, to });
    }
  }
  return out;
}

function material(pos, color) {
  let s = 0;
  for (const sq of pos.board.occupied) {
    const p = pos.board.get(sq);
    s += (p.color === color ? 1 : -1) * VALUE[p.role];
  }
  return s;
}

function kingDist(a, b) {
  return Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
}

/** Static evaluation for `me` of a position (the side to move is the opponent after my move). */
function evaluate(pos, me, seen) {
  if (pos.isCheckmate()) return pos.turn === me ? -100000 : 100000;
  if (pos.isStalemate() || pos.isInsufficientMaterial()) return material(pos, me) > 0 ? -50000 : 0;
  const key = makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
  const rep = seen.get(key) ?? 0;
  let s = material(pos, me);
  if (rep >= 1) s -= 300 * rep; // avoid repetitions: we want a result
  // Endgame technique when ahead: corner the enemy king, bring ours close, restrict its moves.
  if (s > 300) {
    const theirs = pos.board.kingOf(me === 'white' ? 'black' : 'white');
    const mine = pos.board.kingOf(me);
    const cx = Math.max(3 - (theirs & 7), (theirs & 7) - 4);
    const cy = Math.max(3 - (theirs >> 3), (theirs >> 3) - 4);
    s += 10 * (cx + cy) - 4 * kingDist(theirs, mine);
    if (pos.turn !== me) s -= 3 * legalMoves(pos).length;
  }
  if (pos.isCheck() && pos.turn !== me) s += 15;
  // Push pawns a little.
  for (const sq of pos.board.pieces(me, 'pawn')) s += me === 'white' ? sq >> 3 : 7 - (sq >> 3);
  return s;
}

/** A move for the side to move in `fen`: 2-ply material search with endgame hints. `history` holds past FENs. */
export function chooseMove(fen, history = []) {
  const pos = position(fen);
  const me = pos.turn;
  const seen = new Map();
  for (const f of history) {
    const k = f.split(' ').slice(0, 4).join(' ');
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  let best = null;
  let bestScore = -Infinity;
  for (const m of legalMoves(pos)) {
    const p1 = pos.clone();
    p1.play(m);
    let worst;
    if (p1.isEnd()) {
      worst = evaluate(p1, me, seen);
    } else {
      worst = Infinity;
      for (const r of legalMoves(p1)) {
        const p2 = p1.clone();
        p2.play(r);
        const v = p2.isEnd() ? evaluate(p2, me, seen) : evaluate(p2, me, seen);
        if (v < worst) worst = v;
        if (worst < bestScore) break;
      }
    }
    // Tie-break deterministically but not always the first move.
    const jitter = ((m.from * 7 + m.to * 13) % 5) * 0.1;
    if (worst + jitter > bestScore) {
      bestScore = worst + jitter;
      best = m;
    }
  }
  if (!best) return null;
  const uci = makeUci(best);
  return uci;
}

/** Whether `uci` is legal in `fen`. */
export function isLegalUci(fen, uci) {
  const pos = position(fen);
  return legalMoves(pos).some((m) => makeUci(m).slice(0, 4) === uci.slice(0, 4));
}

/** A square of the side to move's piece that can capture something (else one that can move), for showing targets. */
export function pieceToShow(fen) {
  const pos = position(fen);
  const moves = legalMoves(pos);
  const capture = moves.find((m) => pos.board.get(m.to) && pos.board.get(m.from).role !== 'pawn');
  const m = capture ?? moves.find((x) => pos.board.get(x.from).role !== 'pawn') ?? moves[0];
  return makeSquare(m.from);
}

export function squareName(sq) {
  return makeSquare(sq);
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Text of the page's visible body, without elements marked translate="no" (names) or with a lang of their own. */
export async function chromeText(page) {
  return page.evaluate(() => {
    const root = document.body.cloneNode(true);
    for (const el of root.querySelectorAll('[translate="no"], [lang], script, style, [hidden]')) el.remove();
    return root.innerText ?? root.textContent ?? '';
  });
}

export async function attributesText(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
      if (el.closest('[translate="no"], [lang]')) continue;
      for (const a of ['placeholder', 'title', 'aria-label']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out.join('\n');
  });
}

// ---- 学棋 / Learn ----

/** The course as `guoxiang learn --json` prints it: one lesson per line, in course order. */
export function learnLessons(bin = process.env.GX_BIN) {
  if (!bin) throw new Error('set GX_BIN (the guoxiang binary) to read the course');
  const out = execFileSync(bin, ['learn', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** The first lesson of every chapter, in course order. */
export function firstLessons(lessons) {
  const seen = new Map();
  for (const l of lessons) if (!seen.has(l.chapter) || seen.get(l.chapter).order > l.order) seen.set(l.chapter, l);
  return [...seen.values()].sort((a, b) => a.order - b.order);
}

/** Runs `action` (a click that makes a try) and waits for the server's verdict and the page's update; returns it. */
export async function learnTry(page, action) {
  const [resp] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/learn/try' && r.request().method() === 'POST'),
    action(),
  ]);
  const verdict = await resp.json();
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.busy === '0', tid('board'));
  return verdict;
}

/** A move of the side to move that is against the rules: a piece sent to an empty square it cannot reach. */
export function illegalTry(fen, prefer) {
  const pos = position(fen);
  const ctx = pos.ctx();
  const froms = [...pos.board[pos.turn]];
  if (prefer !== undefined) froms.sort((a, b) => (a === prefer ? -1 : b === prefer ? 1 : 0));
  for (const from of froms) {
    const dests = pos.dests(from, ctx);
    for (let to = 0; to < 64; to++) {
      if (to !== from && !pos.board.occupied.has(to) && !dests.has(to)) return makeSquare(from) + makeSquare(to);
    }
  }
  return null;
}

/** The learner's answers of one step, as the course gives them. */
export function stepAnswers(step) {
  if (step.kind === 'squares') return step.answer ?? step.targets;
  if (step.kind === 'choice' || step.kind === 'legal_moves') return step.answer;
  return step.solutions[0];
}

/**
 * Completes the step shown on the lesson page with the course's answers (clicks on the board, squares, buttons);
 * waits for the step's success. Returns the verdicts.
 */
export async function solveStep(page, step) {
  const verdicts = [];
  const answers = stepAnswers(step);
  if (step.kind === 'moves') {
    for (const uci of answers) verdicts.push(await learnTry(page, () => clickMove(page, uci)));
  } else if (step.kind === 'squares') {
    for (const sq of answers) verdicts.push(await learnTry(page, () => clickSquare(page, sq)));
  } else if (step.kind === 'choice') {
    if (answers.length === 1) verdicts.push(await learnTry(page, () => page.click(tid(`choice-${answers[0]}`))));
    else {
      for (const i of answers) await page.click(tid(`choice-${i}`));
      verdicts.push(await learnTry(page, () => page.click(tid('lesson-check'))));
    }
  } else if (step.kind === 'legal_moves') {
    for (const u of answers) await page.click(tid(`candidate-${u}`));
    verdicts.push(await learnTry(page, () => page.click(tid('lesson-check'))));
  } else {
    throw new Error(`cannot solve a ${step.kind} step from the course's answers`);
  }
  await page.waitForSelector(tid('lesson-step-done'));
  return verdicts;
}

/** On a lesson page: past the intro (if any), to the step with the given index. */
export async function waitStep(page, index) {
  // The intro (with its start button) or a step: whichever the lesson opens on, once it has rendered.
  await page.waitForSelector(`${tid('lesson-start')}, ${tid('lesson-step')}`);
  if (await page.locator(tid('lesson-start')).count()) await page.click(tid('lesson-start'));
  await page.waitForSelector(`${tid('lesson-step')}[data-step="${index}"]`);
  await page.waitForSelector(tid('lesson-prompt'));
}

/** Opens a lesson at step `index` (the steps before it marked done in the browser: a lesson resumes there). */
export async function openStep(page, lessonId, index) {
  await page.goto('/learn');
  await page.evaluate(
    ([id, n]) =>
      localStorage.setItem('gx.learn.progress', JSON.stringify({ lessons: { [id]: { steps: [...Array(n).keys()], stars: 0, done: false } } })),
    [lessonId, index],
  );
  await page.goto(`/learn/${lessonId}`);
  await waitStep(page, index);
}

/**
 * A move of a knight, bishop, rook or queen, capturing nothing, that hangs it: to a square an enemy pawn attacks, or
 * failing that to a square some enemy piece attacks and none of ours defends (the computer's openings vary from game
 * to game, so the first kind is not always there). Returns {uci, role, to} (`to` a square name), or null.
 */
export function hangingMove(fen) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const me = pos.turn;
  let undefended = null;
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    if (!['knight', 'bishop', 'rook', 'queen'].includes(piece.role)) continue;
    for (const to of dests) {
      if (pos.board.get(to)) continue;
      const found = { uci: makeUci({ from, to }), role: piece.role, to: makeSquare(to) };
      if (pawnAttacks(me, to).intersect(pos.board.pieces(opposite(me), 'pawn')).nonEmpty()) return found;
      const occupied = pos.board.occupied.without(from).with(to);
      const enemies = pos.kingAttackers(to, opposite(me), occupied);
      const friends = pos.kingAttackers(to, me, occupied).without(from);
      if (undefended === null && enemies.nonEmpty() && friends.isEmpty()) undefended = found;
    }
  }
  return undefended;
}

/** A move of the side to move in `fen` onto an empty square an enemy piece other than the king attacks, or null. */
export function guardedMove(fen) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const me = pos.turn;
  const enemyKing = pos.board.kingOf(opposite(me));
  for (const [from, dests] of pos.allDests()) {
    if (pos.board.get(from).role === 'king') continue;
    for (const to of dests) {
      if (pos.board.get(to)) continue;
      const occupied = pos.board.occupied.without(from).with(to);
      const guards = pos.kingAttackers(to, opposite(me), occupied).without(enemyKing);
      if (guards.nonEmpty()) return makeUci({ from, to });
    }
  }
  return null;
}

/**
 * Solves the puzzle on the trainer's board (`/puzzle`) by clicking the solver's moves of its line (the trainer plays
 * the replies); waits for the result. Returns the puzzle's id.
 */
export async function solveTrainerPuzzle(page) {
  const board = tid('puzzle-board');
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ready === '1', board);
  const id = await page.$eval(board, (el) => el.dataset.puzzle);
  const p = await page.evaluate((i) => fetch(`/api/puzzle/${i}`).then((r) => r.json()), id);
  // Lichess's shape: the solution is the line after the setup move, the solver's moves and the replies in turn.
  for (const uci of p.puzzle.solution.filter((_, i) => i % 2 === 0)) {
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.busy !== '1', board);
    const tried = page.waitForResponse((r) => /\/api\/puzzle\/[^/]+\/try$/.test(new URL(r.url()).pathname));
    await clickSquare(page, uci.slice(0, 2), board);
    await clickSquare(page, uci.slice(2, 4), board);
    const v = await (await tried).json();
    if (v.verdict === 'wrong' || v.verdict === 'illegal') throw new Error(`${id}: ${uci} judged ${v.verdict}`);
  }
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="solved"]`);
  return id;
}

/** Does the lesson shown on `page` from its first step with the course's answers, to its end. */
export async function doLessonSteps(page, lesson) {
  for (let i = 0; i < lesson.steps.length; i++) {
    await waitStep(page, i);
    const verdicts = await solveStep(page, lesson.steps[i]);
    if (!verdicts.every((v) => v.ok)) throw new Error(`${lesson.id} step ${i}: an answer refused`);
    await page.click(tid('lesson-next'));
  }
  await page.waitForSelector(tid('lesson-done'));
}

/**
 * Fails the puzzle on the trainer's board with a quiet legal move that is not its solution's first move (no capture,
 * no check: not another way to win), then asks for the solution; waits for the result.
 */
export async function failTrainerPuzzle(page) {
  const board = tid('puzzle-board');
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ready === '1', board);
  const { puzzle: id, fen } = await page.$eval(board, (el) => ({ ...el.dataset }));
  const p = await page.evaluate((i) => fetch(`/api/puzzle/${i}`).then((r) => r.json()), id);
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  let wrong = null;
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const move = { from, to };
      const after = pos.clone();
      if (pos.board.get(to) || makeUci(move) === p.puzzle.solution[0]) continue;
      if (pos.board.get(from)?.role === 'pawn' && (to >> 3 === 0 || to >> 3 === 7)) continue;
      after.play(move);
      if (!after.isCheck()) wrong ??= makeUci(move);
    }
  }
  if (!wrong) throw new Error(`${id}: no quiet wrong move in ${fen}`);
  // The wrong move is taken back (the round already counts as failed); then the solution is shown.
  const round = page.waitForResponse((r) => /\/api\/puzzle\/[^/]+\/round$/.test(new URL(r.url()).pathname));
  await clickSquare(page, wrong.slice(0, 2), board);
  await clickSquare(page, wrong.slice(2, 4), board);
  await round;
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.busy !== '1', board);
  // A DOM click: on a phone the board, moving as the page settles, may be over the button for a moment.
  await page.waitForSelector(`${tid('puzzle-solution')}:not([disabled])`);
  await page.$eval(tid('puzzle-solution'), (el) => el.click());
  await page.waitForSelector(`${tid('puzzle-result')}[data-result="failed"]`);
  return id;
}

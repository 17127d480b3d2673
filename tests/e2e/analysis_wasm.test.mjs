// SPDX-License-Identifier: GPL-3.0-or-later
// The engine in the learner's browser (issue 43): with `guoxiang serve --analysis-workers 0` the server never
// analyses for the board (its analysis endpoints answer 503), and the analysis board still shows engine lines that
// deepen, several of them, with the evaluation bar — from a Web Worker running our WebAssembly, with no request to
// /api/analyse and no /ws/analysis socket. GX_WASM_BENCH=1 also times `guoxiang bench` in Chromium (the node count
// must be the native one; docs/benchmarks.md).
// A game's review too is searched in the browser (the server leaves reviews to browsers when it has no analysis
// workers): a game against the computer, resigned, shows "reviewing in your browser" with its progress, and the
// review the server made of the browser's searches and checked; screenshots (zh and en, phone and desktop) go to
// docs/screenshots/review-browser-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseMove, clickMove, launch, newPage, startServer, tid, waitTurnOrEnd, startComputerGame } from './lib.mjs';

const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

let server;
let browser;

before(async () => {
  server = await startServer(process.env.GX_BIN, { own: true, args: ['--analysis-workers', '0'] });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('--analysis-workers 0: the server refuses to analyse, with a reason', async () => {
  const login = await fetch(`${server.base}/api/guest`, { method: 'POST', headers: { origin: server.base } });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const r = await fetch(`${server.base}/api/analyse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.base },
    body: JSON.stringify({ moves: ['e2e4'] }),
  });
  // A guest's session may analyse on a server that analyses; this one refuses, naming why.
  assert.equal(r.status, 503);
  assert.match(await r.text(), /analysis_off/);
  // The stream too: an `analyse` is answered by an error naming the option.
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  await page.goto('/');
  const answer = await page.evaluate(
    () =>
      new Promise(async (resolve) => {
        // A guest's session (the stream needs one), then the stream.
        await fetch('/api/guest', { method: 'POST' });
        const ws = new WebSocket(`ws://${location.host}/ws/analysis`);
        ws.onopen = () => ws.send(JSON.stringify({ t: 'analyse', id: 1, moves: ['e2e4'] }));
        ws.onmessage = (ev) => resolve(JSON.parse(ev.data));
        ws.onclose = () => resolve(null);
      }),
  );
  assert.equal(answer?.t, 'error', JSON.stringify(answer));
  assert.match(answer.message_en, /analysis-workers 0/);
  await context.close();
});

test('the analysis board analyses in a Web Worker running WebAssembly', { timeout: 120_000 }, async () => {
  const { page, context } = await newPage(browser, server.base, { lang: 'en' });
  const serverAnalysis = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/analyse')) serverAnalysis.push(r.url());
  });
  page.on('websocket', (ws) => {
    if (ws.url().includes('/ws/analysis')) serverAnalysis.push(ws.url());
  });
  const wasm = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push({ url: r.url(), type: r.headers()['content-type'] });
  });
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));

  await page.goto('/analysis?moves=e2e4%20e7e5%20g1f3');
  await page.waitForSelector(tid('engine-lines'));
  // Three lines (MultiPV), then the engine deepens: depth 6, then at least 10, always for the board's position.
  await page.selectOption(tid('engine-multipv'), '3');
  const depthAtLeast = (d) =>
    page.waitForFunction(
      ([lines, board, depth]) => {
        const l = document.querySelector(lines);
        const b = document.querySelector(board);
        return l && b && l.dataset.fen === b.dataset.fen && Number(l.dataset.depth) >= depth && l.querySelectorAll('.engine-line').length >= 3;
      },
      [tid('engine-lines'), tid('board'), d],
      { timeout: 60_000 },
    );
  await depthAtLeast(6);
  await depthAtLeast(10);
  const firsts = await page.$$eval(`${tid('engine-lines')} .engine-line`, (els) => els.map((e) => e.dataset.first));
  assert.equal(firsts.length, 3);
  assert.equal(new Set(firsts).size, 3, `three different first moves: ${firsts}`);
  for (const m of firsts) assert.match(m, /^[a-h][1-8][a-h][1-8][qrbn]?$/);

  // A new position is taken at once: one more move, and the lines are about it within a few seconds.
  await page.goto('/analysis?moves=e2e4%20e7e5%20g1f3%20b8c6');
  await depthAtLeast(4);

  assert.ok(workers.some((u) => /worker/.test(u)), `a worker ran: ${workers}`);
  assert.ok(wasm.length >= 1, 'the engine module was fetched');
  assert.ok(wasm.every((w) => w.type === 'application/wasm'), JSON.stringify(wasm));
  assert.deepEqual(serverAnalysis, [], 'no analysis asked of the server');
  assert.deepEqual(errors, []);

  if (process.env.GX_WASM_BENCH) {
    // Both modules: the one fetched, and the other named in the worker's script.
    const workerUrl = workers.find((u) => /worker/.test(u));
    const script = await (await fetch(workerUrl)).text();
    const names = script.match(/guoxiang-engine-(simd|scalar)-[\w-]+\.wasm/g) ?? [];
    for (const url of new Set(names.map((n) => new URL(`/assets/${n}`, server.base).href))) {
      const r = await page.evaluate(async (u) => {
        const bytes = await (await fetch(u)).arrayBuffer();
        const { instance } = await WebAssembly.instantiate(bytes, { env: { gx_now_ms: () => performance.now(), gx_progress: () => {} } });
        const t0 = performance.now();
        const nodes = instance.exports.gx_bench(10);
        return { nodes, ms: performance.now() - t0 };
      }, url);
      console.log(`chromium bench ${url.split('/').pop()}: ${r.nodes} nodes, ${Math.round(r.ms)} ms, ${Math.round((r.nodes * 1000) / r.ms)} nodes/s`);
    }
  }
  await context.close();
});

/** A game against the computer (level 1, White, untimed): four moves, then resign. Its id. */
async function shortGame(page) {
  const gameId = await startComputerGame(page);
  for (let i = 0; i < 4; i++) {
    const st = await waitTurnOrEnd(page, 'white', 60_000);
    if (['finished', 'aborted'].includes(st.status)) break;
    await clickMove(page, chooseMove(st.fen));
    await page.waitForFunction(
      ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
      [tid('board'), st.ply],
      { timeout: 30_000, polling: 50 },
    );
  }
  const end = await waitTurnOrEnd(page, 'white', 60_000);
  if (end.status !== 'finished') {
    await page.click(tid('resign'));
    await page.click(tid('resign-confirm'));
  }
  await page.waitForSelector(`${tid('board')}[data-status="finished"]`);
  return gameId;
}

for (const [lang, device] of [
  ['zh', 'phone'],
  ['en', 'desktop'],
  ['zh', 'desktop'],
  ['en', 'phone'],
]) {
  test(`a game's review is searched in the browser and checked by the server (${lang}, ${device})`, { timeout: 240_000 }, async () => {
    const size = device === 'phone' ? { width: 390, height: 844, mobile: true } : {};
    const { page, context } = await newPage(browser, server.base, { lang, ...size });
    const workers = [];
    page.on('worker', (w) => workers.push(w.url()));
    const uploads = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/review/browser')) uploads.push(r.status());
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const gameId = await shortGame(page);

    // The server leaves the review to the browser: its state says so, and the panel searches here with a progress bar.
    await page.waitForSelector(tid('review-local'), { timeout: 60_000 });
    // Its searches counted as they go (the shot shows some done), unless they were over between two looks.
    await page
      .waitForFunction(
        ([bar, made]) => Number(document.querySelector(bar)?.dataset.done) > 2 || document.querySelector(made),
        [`${tid('review-progress')}[data-where="browser"]`, tid('review-browser-made')],
        { timeout: 60_000, polling: 'raf' },
      )
      .catch(() => {});
    const state = await page.evaluate(async (id) => (await fetch(`/api/game/${id}/review`)).json(), gameId);
    assert.ok(['queued', 'done'].includes(state.status), JSON.stringify(state));
    if (state.status === 'queued') assert.equal(state.browser, true, JSON.stringify(state));
    await page.locator(tid('review-panel')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `review-browser-${lang}-${device}.png`) });

    // Then the review the server made of the browser's searches, its marks checked, with a word saying so.
    await page.waitForSelector(tid('review-browser-made'), { timeout: 180_000 });
    await page.waitForSelector(tid('review-accuracy'));
    const done = await page.evaluate(async (id) => (await fetch(`/api/game/${id}/review`)).json(), gameId);
    assert.equal(done.status, 'done');
    assert.equal(done.review.browser, true);
    assert.equal(done.review.moves.length, state.review?.moves.length ?? done.review.moves.length);
    assert.ok(done.review.moves.every((m) => typeof m.class === 'string' && m.eval), JSON.stringify(done.review.moves[0]));
    assert.deepEqual(uploads, [200], 'one upload, kept');
    assert.ok(workers.some((u) => /review_worker/.test(u)), `the review's worker ran: ${workers}`);
    const note = await page.textContent(tid('review-browser-made'));
    assert.match(note, lang === 'zh' ? /浏览器.*服务器/ : /browser.*server/);
    await page.locator(tid('review-panel')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `review-browser-done-${lang}-${device}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

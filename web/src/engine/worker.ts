// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis engine in the learner's browser (issue 43): a Web Worker running our engine compiled to WebAssembly
// (the SIMD build where the browser has WebAssembly SIMD, the scalar one otherwise). It speaks the messages of
// `/ws/analysis` (crates/protocol/src/analysis.rs): `analyse` and `stop` in; `started`, `info` after each depth,
// `done` and `error` out. It searches one depth per call, in slices of a bounded number of nodes (the table keeps
// the work between slices), and yields between slices, so a new position or a stop is taken within a fraction of
// a second.

import { MAX_ANALYSIS_DEPTH, MAX_ANALYSIS_MS, MAX_MULTIPV } from '../protocol_analysis';
import type { AnalysisClientMessage, AnalysisLine, AnalysisServerMessage } from '../protocol_analysis';
import { hasSimd, WasmEngine } from './wasm';

/** The first slice of a depth, in nodes (a few tenths of a second); doubled while the depth is not done. */
const SLICE_NODES = 100_000;

const scope = self as unknown as {
  postMessage(m: AnalysisServerMessage): void;
  onmessage: ((ev: MessageEvent<AnalysisClientMessage>) => void) | null;
};

const url = hasSimd()
  ? new URL('../../engine/guoxiang-engine-simd.wasm', import.meta.url)
  : new URL('../../engine/guoxiang-engine-scalar.wasm', import.meta.url);
const engine: Promise<WasmEngine> = fetch(url)
  .then((r) => {
    if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
    return r.arrayBuffer();
  })
  .then((b) => WasmEngine.load(b));

/** The search that should run; a new `analyse` or a `stop` replaces it, and the running loop notices. */
let current = 0;

function post(m: AnalysisServerMessage): void {
  scope.postMessage(m);
}

function error(id: number | null, zh: string, en: string, code: 'bad_request' | 'internal'): void {
  post({ t: 'error', id, code, message_zh: zh, message_en: en });
}

const yieldNow = () => new Promise<void>((r) => setTimeout(r, 0));

async function analyse(m: Extract<AnalysisClientMessage, { t: 'analyse' }>): Promise<void> {
  const mine = ++current;
  let eng: WasmEngine;
  try {
    eng = await engine;
  } catch (e) {
    error(m.id, `浏览器中的引擎无法加载：${String(e)}`, `the engine could not load in this browser: ${String(e)}`, 'internal');
    return;
  }
  if (mine !== current) return;
  let fen: string;
  try {
    fen = eng.setPosition(m.fen, m.moves ?? []);
  } catch (e) {
    error(m.id, `局面无效：${String(e)}`, `bad position: ${String(e)}`, 'bad_request');
    return;
  }
  const multipv = Math.min(Math.max(m.multipv ?? 1, 1), MAX_MULTIPV);
  const maxDepth = Math.min(Math.max(m.depth ?? MAX_ANALYSIS_DEPTH, 1), MAX_ANALYSIS_DEPTH);
  post({ t: 'started', id: m.id, fen, multipv, depth: maxDepth, max_ms: MAX_ANALYSIS_MS });
  const t0 = performance.now();
  let nodes = 0;
  let lines: AnalysisLine[] = [];
  let depth = 0;
  const done = (reason: 'depth_limit' | 'time_limit' | 'stopped' | 'game_over') => {
    const time_ms = Math.round(performance.now() - t0);
    post({ t: 'done', id: m.id, fen, reason, depth, nodes, time_ms, lines });
  };
  let slice = SLICE_NODES;
  for (let d = 1; d <= maxDepth; ) {
    const r = eng.search(d, d === 1 ? 0 : slice, multipv);
    nodes += r.nodes;
    if (d === 1 && r.lines.length === 0) return done('game_over');
    if (r.lines.length > 0 && r.lines[0].depth >= d) {
      lines = r.lines;
      depth = d;
      const time_ms = Math.round(performance.now() - t0);
      post({ t: 'info', id: m.id, fen, depth, nodes, nps: Math.round((nodes * 1000) / Math.max(time_ms, 1)), time_ms, lines });
      d++;
      slice = SLICE_NODES;
    } else slice *= 2;
    if (performance.now() - t0 >= MAX_ANALYSIS_MS) return done('time_limit');
    await yieldNow();
    if (mine !== current) return;
  }
  done('depth_limit');
}

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.t === 'analyse') void analyse(m);
  else if (m.t === 'stop') {
    current++;
    post({ t: 'ack', id: m.id });
  }
};

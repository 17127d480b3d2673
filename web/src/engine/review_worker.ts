// SPDX-License-Identifier: GPL-3.0-or-later
// A game review's searches in the learner's browser (issue 43; docs/review.md, "Reviews made in the browser"): a Web
// Worker of its own running our engine compiled to WebAssembly (SIMD where the browser has it). In: `{t: 'review',
// fen, moves, nodes}`; out: `progress` after each search, then `done` with the judgements' JSON text (which the page
// sends to the server, which makes and checks the review) or `error`. The page ends it by ending the worker.

import { hasSimd, WasmEngine } from './wasm';

export type ReviewWorkerIn = { t: 'review'; fen?: string; moves: string[]; nodes: number };
export type ReviewWorkerOut =
  | { t: 'progress'; done: number; total: number }
  | { t: 'done'; judgements: string }
  | { t: 'error'; message: string };

const scope = self as unknown as {
  postMessage(m: ReviewWorkerOut): void;
  onmessage: ((ev: MessageEvent<ReviewWorkerIn>) => void) | null;
};

const url = hasSimd()
  ? new URL('../../engine/guoxiang-engine-simd.wasm', import.meta.url)
  : new URL('../../engine/guoxiang-engine-scalar.wasm', import.meta.url);

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.t !== 'review') return;
  void (async () => {
    try {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
      const engine = await WasmEngine.load(await r.arrayBuffer());
      let last = 0;
      const judgements = engine.judgeGame(m.fen, m.moves, m.nodes, (done, total) => {
        const now = performance.now();
        if (now - last >= 200 || done === total) {
          last = now;
          scope.postMessage({ t: 'progress', done, total });
        }
      });
      scope.postMessage({ t: 'done', judgements });
    } catch (e) {
      scope.postMessage({ t: 'error', message: String(e) });
    }
  })();
};

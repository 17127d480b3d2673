// SPDX-License-Identifier: GPL-3.0-or-later
// Nodes per second of the engine built for the browser (web/engine/*.wasm, `npm run build`), in node, on the
// positions of `guoxiang bench` (one thread): `node web/tools/bench-engine-wasm.mjs [depth]`. The node count must be
// the native binary's (`guoxiang bench | tail -1`); compare its nodes/s. The same bench runs in Chromium through
// tests/e2e/analysis_wasm.test.mjs (docs/benchmarks.md).
import { readFileSync } from 'node:fs';

const depth = Number(process.argv[2] ?? 10);
for (const flavour of ['simd', 'scalar']) {
  const bytes = readFileSync(new URL(`../engine/guoxiang-engine-${flavour}.wasm`, import.meta.url));
  const { instance } = await WebAssembly.instantiate(bytes, { env: { gx_now_ms: () => performance.now(), gx_progress: () => {} } });
  const t0 = performance.now();
  const nodes = instance.exports.gx_bench(depth);
  const ms = performance.now() - t0;
  console.log(`${flavour}: ${nodes} nodes in ${Math.round(ms)} ms: ${Math.round((nodes * 1000) / ms)} nodes/s`);
}

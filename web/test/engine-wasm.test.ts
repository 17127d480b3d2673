// SPDX-License-Identifier: GPL-3.0-or-later
// The engine built for the browser (web/engine/*.wasm, made by `npm run build`) answers as the native engine: the
// table is that of crates/engine-wasm/tests/parity.rs, which checks it against guoxiang_engine itself. Both the
// SIMD and the scalar module, and the errors of a bad position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WasmEngine } from '../src/engine/wasm';

const CASES: [string, string, number, string, object][] = [
  ['', '', 9, 'e2e4', { cp: 21 }],
  ['', 'e2e4 e7e5 g1f3 b8c6 f1b5', 9, 'g8f6', { cp: -9 }],
  ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', '', 8, 'e2a6', { cp: -20 }],
  ['6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', '', 8, 'd1d8', { mate: 1 }],
  ['8/8/4k3/8/2P5/4K3/8/8 w - - 0 1', '', 10, 'e3e4', { cp: 171 }],
];

for (const flavour of ['simd', 'scalar']) {
  test(`the ${flavour} module finds the native engine's moves and scores`, async () => {
    const bytes = readFileSync(new URL(`../engine/guoxiang-engine-${flavour}.wasm`, import.meta.url));
    for (const [fen, moves, depth, best, score] of CASES) {
      // A fresh engine per case, as the Rust test (the table carries over between searches).
      const e = await WasmEngine.load(bytes);
      e.setPosition(fen || undefined, moves ? moves.split(' ') : []);
      const r = e.search(depth, 0, 1);
      assert.equal(r.depth, depth);
      assert.equal(r.lines[0].pv[0], best, `${fen} ${moves}`);
      assert.deepEqual(r.lines[0].score, score, `${fen} ${moves}`);
      assert.equal(r.lines[0].pv.length, r.lines[0].pv_san.length);
    }
  });
}

test('the module names what is wrong with a position, and keeps working', async () => {
  const e = await WasmEngine.load(readFileSync(new URL('../engine/guoxiang-engine-scalar.wasm', import.meta.url)));
  assert.throws(() => e.setPosition('not a fen', []), /bad FEN/);
  assert.throws(() => e.setPosition(undefined, ['e2e4', 'e2e4']), /move 2: e2e4/);
  assert.equal(e.setPosition(undefined, ['e2e4']), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  const r = e.search(4, 0, 3);
  assert.equal(r.lines.length, 3);
  assert.deepEqual(
    r.lines.map((l) => l.multipv),
    [1, 2, 3],
  );
  // A node limit before the depth is done: no line at that depth (the worker then searches the depth again).
  e.newGame();
  const cut = e.search(30, 2000, 1);
  assert.ok(cut.lines.every((l) => l.depth < 30));
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The unit-test runner itself: node --test with tsx loads our TypeScript and chessops as the bundle does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionFromFen, INITIAL_FEN, fenOf } from '../src/chess';

test('the start position round-trips through chessops', () => {
  const pos = positionFromFen(INITIAL_FEN);
  assert.ok(pos);
  assert.equal(fenOf(pos), INITIAL_FEN);
  assert.equal(positionFromFen('not a fen'), null);
});

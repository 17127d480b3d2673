// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board's move tree: variations kept, promoted and deleted; navigation; PGN in and out without loss.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fenAt,
  fromMoves,
  fromPgn,
  isMainline,
  lineEnd,
  mainline,
  movesTo,
  newTree,
  next,
  nodeAt,
  play,
  prev,
  promote,
  remove,
  sibling,
  toPgn,
} from '../src/analysis/tree';
import type { MoveNode, Tree } from '../src/analysis/tree';

const sans = (ns: MoveNode[]) => ns.map((n) => n.san).join(' ');

/** The content of a tree as nested text: every move with its comments and NAGs, variations in brackets. */
function shape(t: Tree): string {
  const one = (ns: MoveNode[]): string =>
    ns
      .map(
        (n) =>
          `${n.startingComments.map((c) => `<${c}>`).join('')}${n.san}${n.nags.map((x) => `$${x}`).join('')}` +
          `${n.comments.map((c) => `{${c}}`).join('')}` +
          (n.children.length ? ` ${one(n.children.slice(0, 1))}` : '') +
          n.children
            .slice(1)
            .map((v) => ` (${one([v])})`)
            .join(''),
      )
      .join(' ');
  return `${t.comments.map((c) => `{${c}}`).join('')}${one(t.children.slice(0, 1))}${t.children
    .slice(1)
    .map((v) => ` (${one([v])})`)
    .join('')}`;
}

test('another move at a point of the line makes a variation and keeps the main line', () => {
  const t = fromMoves(null, ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  const main = mainline(t).map((n) => n.id);
  const at = main.slice(0, 2); // after 1. e4 e5
  const v = play(t, at, 'f2f4');
  assert.ok(v);
  assert.equal(sans(mainline(t)), 'e4 e5 Nf3 Nc6', 'the main line is still there');
  assert.equal(nodeAt(t, v)?.san, 'f4');
  assert.equal(isMainline(t, v), false);
  // Playing the main move again follows it rather than adding a copy.
  assert.deepEqual(play(t, at, 'g1f3'), main.slice(0, 3));
  assert.equal(nodeAt(t, at)?.children.length, 2);
  // An illegal move is refused.
  assert.equal(play(t, at, 'e1e3'), null);
  // Castling given as king takes rook is stored in the standard form.
  const c = fromMoves(null, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5']);
  const end = lineEnd(c, []);
  const castled = play(c, end, 'e1h1');
  assert.ok(castled);
  assert.equal(nodeAt(c, castled)?.uci, 'e1g1');
  assert.equal(nodeAt(c, castled)?.san, 'O-O');
});

test('navigation: along the line, between variations, to both ends', () => {
  const t = fromMoves(null, ['d2d4', 'd7d5', 'c2c4']);
  const [d4, d5] = mainline(t).map((n) => n.id);
  const nf6 = play(t, [d4], 'g8f6');
  assert.ok(nf6);
  const e6 = play(t, [d4], 'e7e6');
  assert.ok(e6);
  assert.deepEqual(next(t, []), [d4]);
  assert.deepEqual(next(t, [d4]), [d4, d5], '→ follows the main continuation');
  assert.deepEqual(prev(t, nf6), [d4]);
  assert.deepEqual(prev(t, []), []);
  assert.deepEqual(sibling(t, [d4, d5], 1), nf6, '↓ goes to the next variation');
  assert.deepEqual(sibling(t, nf6, 1), e6);
  assert.deepEqual(sibling(t, e6, 1), e6, 'no further variation: stays');
  assert.deepEqual(sibling(t, e6, -1), nf6);
  assert.deepEqual(lineEnd(t, nf6), nf6, 'End of a variation without continuation is itself');
  assert.equal(lineEnd(t, []).length, 3);
  assert.deepEqual(movesTo(t, e6), ['d2d4', 'e7e6']);
  assert.equal(fenAt(t, []), newTree().fen);
  assert.match(fenAt(t, e6), /^rnbqkbnr\/pppp1ppp\/4p3\/8\/3P4\//);
});

test('promote a variation one level, or to the main line; delete one', () => {
  const t = fromMoves(null, ['e2e4', 'e7e5', 'g1f3']);
  const [e4, e5] = mainline(t).map((n) => n.id);
  const c5 = play(t, [e4], 'c7c5')!;
  const nf3 = play(t, c5, 'g1f3')!;
  const nc3 = play(t, c5, 'b1c3')!; // a variation inside the variation
  assert.equal(sans(mainline(t)), 'e4 e5 Nf3');
  // One level up: Nc3 becomes the main continuation after 1…c5, the Sicilian is still a variation.
  assert.equal(promote(t, nc3), true);
  assert.equal(nodeAt(t, c5)?.children[0].id, nc3[2]);
  assert.equal(sans(mainline(t)), 'e4 e5 Nf3');
  // Again: the Sicilian becomes the main line; the old main line is its first variation.
  assert.equal(promote(t, nc3), true);
  assert.equal(sans(mainline(t)), 'e4 c5 Nc3');
  assert.equal(nodeAt(t, [e4])?.children[1].id, e5);
  assert.equal(promote(t, nc3), false, 'already the main line');
  // To the main line at once from two levels down.
  assert.equal(promote(t, nf3, true), true);
  assert.equal(sans(mainline(t)), 'e4 c5 Nf3');
  assert.equal(isMainline(t, nf3), true);
  // Delete: the variation goes with everything after it, and the path to show is its parent.
  assert.deepEqual(remove(t, [e4, e5]), [e4]);
  assert.equal(nodeAt(t, [e4])?.children.map((c) => c.san).join(','), 'c5');
  assert.deepEqual(remove(t, []), []);
});

const NESTED = `[Event "Club championship"]
[Site "Beijing"]
[White "Wang"]
[Black "Li"]
[Result "1-0"]

{ A game with everything. } 1. e4 { king's pawn } e5 2. Nf3 $1 Nc6 (2... d6 { Philidor } 3. d4 (3. Bc4 $6 Be7 { solid } (3... Nf6 $2)) 3... exd4) 3. Bb5 $14 { the Spanish } a6 (3... Nf6 4. O-O (4. d3 { quiet }) Nxe4) 4. Ba4 Nf6 5. O-O 1-0`;

test('a PGN with nested variations, comments and NAGs comes back out the same', () => {
  const read = fromPgn(NESTED);
  assert.ok(read);
  assert.deepEqual(read.problems, []);
  const t = read.tree;
  assert.equal(t.headers.get('White'), 'Wang');
  assert.equal(sans(mainline(t)), 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O');
  const before = shape(t);
  assert.equal(
    before,
    '{A game with everything.}e4{king\'s pawn} e5 Nf3$1 Nc6 Bb5$14{the Spanish} a6 Ba4 Nf6 O-O (Nf6 O-O Nxe4 (d3{quiet})) ' +
      '(d6{Philidor} d4 exd4 (Bc4$6 Be7{solid} (Nf6$2)))',
  );
  const out = toPgn(t);
  assert.match(out, /\[Result "1-0"\]/);
  assert.match(out, /\$14/);
  assert.match(out, /\{ Philidor \}/);
  const again = fromPgn(out);
  assert.ok(again);
  assert.equal(shape(again.tree), before, 'the same moves, variations, comments and NAGs');
  assert.deepEqual([...again.tree.headers], [...t.headers]);
  assert.equal(toPgn(again.tree), out, 'and the same text on the second round');
});

test('a PGN from a set-up position, with a starting comment in a variation, round-trips', () => {
  const pgn = `[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]
[SetUp "1"]

40. e4 ({ or slowly } 40. e3 Kd7) 40... Ke7 *`;
  const read = fromPgn(pgn);
  assert.ok(read);
  const t = read.tree;
  assert.equal(t.fen, '4k3/8/8/8/8/8/4P3/4K3 w - - 0 40');
  assert.equal(shape(t), 'e4 Ke7 (<or slowly>e3 Kd7)');
  const out = toPgn(t);
  const again = fromPgn(out);
  assert.ok(again);
  assert.equal(shape(again.tree), shape(t));
  assert.equal(again.tree.fen, t.fen);
});

test('a move that cannot be played is reported with its number, and the rest of the game is kept', () => {
  const read = fromPgn('1. e4 e5 2. Nf3 (2. Ke3 Nc6) Nc6 3. Bb5 *');
  assert.ok(read);
  assert.deepEqual(read.problems, [{ san: 'Ke3', moveNumber: '2.' }]);
  assert.equal(sans(mainline(read.tree)), 'e4 e5 Nf3 Nc6 Bb5');
  assert.equal(fromPgn(''), null);
});

test('variations played on the board are exported', () => {
  const t = fromMoves(null, ['e2e4', 'e7e5']);
  const e4 = mainline(t)[0].id;
  play(t, [e4], 'c7c5');
  const out = toPgn(t);
  assert.match(out, /1\. e4 e5 \( 1\.\.\. c5 \) \*/);
  assert.doesNotMatch(out, /\[White/, 'no header is invented');
});

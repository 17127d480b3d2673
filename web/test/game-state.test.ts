// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's reducer: the server's snapshot and events, clocks, offers, the end of the game, resyncs, and the
// player's own actions (navigation, refused moves, the move box).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fenOf } from '../src/chess';
import type { GameSnapshot, ServerMessage, VersionedGameEvent } from '../src/protocol';
import { claimNow, initialState, isOver, myColor, myTurn, ply, reduce, shownPly, turn } from '../src/pages/game/ctrl';
import type { Action, GameState } from '../src/pages/game/ctrl';

const ID = 'g1';
const ALICE = { id: 'u-alice', name: 'alice', is_engine: false, engine_level: null };
const BOB = { id: 'u-bob', name: 'bob', is_engine: false, engine_level: null };

function snapshot(over: Partial<GameSnapshot> = {}): GameSnapshot {
  return {
    id: ID,
    white: ALICE,
    black: BOB,
    rated: false,
    variant: { kind: 'standard' },
    time_control: '300+3',
    fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    turn: 'white',
    moves: [],
    clocks: { white_ms: 300_000, black_ms: 300_000 },
    clock_running: null,
    status: { status: 'created' },
    draw_offer: null,
    may_offer_draw: [true, true],
    takeback_offer: null,
    rematch_offer: null,
    disconnected: [false, false],
    version: 0,
    ...over,
  };
}

const server = (msg: ServerMessage, now = 1000, rtt = 0): Action => ({ kind: 'server', msg, now, rtt });
const snapMsg = (s: GameSnapshot, now = 1000): Action => server({ t: 'game_snapshot', game_id: ID, snapshot: s }, now);
const events = (evs: VersionedGameEvent[], now = 1000): Action => server({ t: 'game_events', game_id: ID, events: evs }, now);
const move = (version: number, by: 'white' | 'black', uci: string, san: string, clocks: { white_ms: number; black_ms: number } | null = null) =>
  ({ version, type: 'move_made', by, uci, san, fen: '', ply: version, clocks }) as VersionedGameEvent;

function run(st: GameState, ...actions: Action[]): GameState {
  return actions.reduce(reduce, st);
}

/** Alice (white) sees a fresh game. */
function started(me = ALICE.id): GameState {
  return run(initialState(ID, me), snapMsg(snapshot()));
}

test('a snapshot sets the position, our colour and the orientation', () => {
  const st = run(
    initialState(ID, BOB.id),
    snapMsg(
      snapshot({
        moves: [
          { uci: 'e2e4', san: 'e4', clock_ms: 299_000 },
          { uci: 'e7e5', san: 'e5', clock_ms: 298_000 },
        ],
        status: { status: 'started' },
        version: 2,
        clock_running: 'white',
      }),
    ),
  );
  assert.equal(ply(st), 2);
  assert.equal(myColor(st), 'black');
  assert.equal(st.orientation, 'black', 'black sees the board from its side');
  assert.equal(turn(st), 'white');
  assert.equal(myTurn(st), false);
  assert.deepEqual(
    st.line.moves.map((m) => m.san),
    ['e4', 'e5'],
  );
  assert.equal(st.clock?.running, 'white');
  // A spectator sees it from White's side.
  assert.equal(run(initialState(ID, 'someone'), snapMsg(snapshot())).orientation, 'white');
  assert.equal(myColor(run(initialState(ID, 'someone'), snapMsg(snapshot()))), null);
});

test('moves are applied in order, with clocks, and the game starts after two plies', () => {
  let st = started();
  assert.equal(myTurn(st), true);
  st = reduce(st, events([move(1, 'white', 'e2e4', 'e4', { white_ms: 299_500, black_ms: 300_000 })], 5000));
  assert.equal(ply(st), 1);
  assert.equal(st.status.status, 'created');
  assert.equal(st.clock?.white_ms, 299_500);
  assert.equal(st.clock?.at, 5000);
  st = reduce(st, events([move(2, 'black', 'e7e5', 'e5', { white_ms: 299_500, black_ms: 297_000 })]));
  assert.equal(st.status.status, 'started');
  assert.equal(st.version, 2);
  assert.equal(fenOf(st.line.positions[2]), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  // A repeated frame changes nothing.
  const again = reduce(st, events([move(2, 'black', 'e7e5', 'e5')]));
  assert.equal(ply(again), 2);
});

test('the state before an action is not changed by it', () => {
  const st = started();
  const before = st.line.moves.length;
  const next = reduce(st, events([move(1, 'white', 'e2e4', 'e4')]));
  assert.equal(st.line.moves.length, before);
  assert.equal(st.line.positions.length, 1);
  assert.equal(ply(next), 1);
});

test('a clocks frame sets both times, corrected by half the round trip', () => {
  const st = reduce(
    started(),
    server({ t: 'clocks', game_id: ID, white_ms: 100_000, black_ms: 90_000, running: 'black', server_time_ms: 0 }, 2000, 200),
  );
  assert.deepEqual(st.clock, { white_ms: 100_000, black_ms: 90_000, running: 'black', at: 1900 });
  // Another game's clocks are not ours.
  const other = reduce(st, server({ t: 'clocks', game_id: 'other', white_ms: 1, black_ms: 1, running: null, server_time_ms: 0 }));
  assert.equal(other.clock?.white_ms, 100_000);
  assert.equal(other, st, 'another game’s message leaves the state as it is (the page is not redrawn)');
  assert.equal(reduce(st, server({ t: 'live_games', games: [] })), st);
});

test('a gap in the versions asks for a resync; the snapshot that follows clears it', () => {
  let st = reduce(started(), events([move(1, 'white', 'e2e4', 'e4')]));
  st = reduce(st, events([move(3, 'white', 'g1f3', 'Nf3')]));
  assert.equal(st.resync, true);
  assert.equal(ply(st), 1, 'nothing is applied past the gap');
  st = reduce(
    st,
    snapMsg(
      snapshot({
        moves: [
          { uci: 'e2e4', san: 'e4', clock_ms: null },
          { uci: 'e7e5', san: 'e5', clock_ms: null },
          { uci: 'g1f3', san: 'Nf3', clock_ms: null },
        ],
        version: 3,
        status: { status: 'started' },
      }),
    ),
  );
  assert.equal(st.resync, false);
  assert.equal(ply(st), 3);
  assert.equal(st.version, 3);
  // A move that cannot be played here (we missed something) also asks for a resync.
  const bad = reduce(st, events([move(4, 'black', 'e2e4', 'e4')]));
  assert.equal(bad.resync, true);
  assert.equal(ply(bad), 3);
});

test('after a reconnection the snapshot replaces the state but keeps the orientation', () => {
  let st = reduce(started(), { kind: 'flip' });
  assert.equal(st.orientation, 'black');
  st = reduce(st, snapMsg(snapshot({ moves: [{ uci: 'd2d4', san: 'd4', clock_ms: null }], version: 1, disconnected: [false, true] }), 7000));
  assert.equal(st.orientation, 'black');
  assert.equal(ply(st), 1);
  assert.deepEqual(st.disconnected, [false, true]);
  assert.deepEqual(st.goneSince, [0, 7000]);
  st = reduce(st, events([{ version: 2, type: 'player_reconnected', who: 'black' }]));
  assert.deepEqual(st.disconnected, [false, false]);
});

test('draw offers: made, declined (no re-offer), cleared by the opponent’s move', () => {
  let st = reduce(started(), events([move(1, 'white', 'e2e4', 'e4'), { version: 2, type: 'draw_offered', by: 'white' }]));
  assert.equal(st.drawOffer, 'white');
  st = reduce(st, events([{ version: 3, type: 'draw_declined', by: 'black' }]));
  assert.equal(st.drawOffer, null);
  assert.deepEqual(st.mayOfferDraw, [false, true], 'white may not offer again at once');
  st = reduce(st, events([{ version: 4, type: 'draw_offered', by: 'black' }]));
  assert.deepEqual(st.mayOfferDraw, [true, true], 'an offer from the other side frees the re-offer');
  st = reduce(st, events([move(5, 'black', 'e7e5', 'e5')]));
  assert.equal(st.drawOffer, 'black', 'the offerer’s own move keeps the offer');
  st = reduce(st, events([move(6, 'white', 'g1f3', 'Nf3')]));
  assert.equal(st.drawOffer, null, 'the opponent’s move declines it');
});

test('an offer armed with our move is used up when the move is sent', () => {
  let st = reduce(started(), { kind: 'toggle_offer' });
  assert.equal(st.offerWithMove, true);
  st = reduce(st, { kind: 'move_sent' });
  assert.equal(st.offerWithMove, false);
});

test('a refused move’s message, marks and typed text are cleared by our next move', () => {
  let st = reduce(started(), { kind: 'typed', text: 'Ke2' });
  st = reduce(st, { kind: 'illegal', illegal: { msg: { kind: 'reason', zh: '王不能这样走', en: 'the king cannot move so' }, squares: ['e1', 'e2'] } });
  assert.deepEqual(st.illegal?.squares, ['e1', 'e2']);
  assert.equal(st.typed, 'Ke2');
  st = reduce(st, { kind: 'move_sent' });
  assert.equal(st.illegal, null, 'sending a move clears the refusal');
  st = reduce(st, { kind: 'illegal', illegal: { msg: { kind: 'generic' }, squares: ['e1', 'e2'] } });
  st = reduce(st, events([move(1, 'white', 'e2e4', 'e4')]));
  assert.equal(st.illegal, null);
  assert.equal(st.typed, '', 'our move empties the move box');
});

test('the opponent’s move clears the refusal but keeps what we are typing', () => {
  let st = reduce(started(BOB.id), { kind: 'typed', text: 'e5' });
  st = reduce(st, { kind: 'illegal', illegal: { msg: { kind: 'unreadable', text: 'zz' }, squares: [] } });
  st = reduce(st, events([move(1, 'white', 'e2e4', 'e4')]));
  assert.equal(st.illegal, null);
  assert.equal(st.typed, 'e5');
  assert.equal(myTurn(st), true);
});

test('the end of the game clears refusals, typed text, offers and confirmations, and stops the clock', () => {
  let st = reduce(started(), events([move(1, 'white', 'e2e4', 'e4'), move(2, 'black', 'e7e5', 'e5')]));
  st = run(
    st,
    server({ t: 'clocks', game_id: ID, white_ms: 290_000, black_ms: 280_000, running: 'white', server_time_ms: 0 }),
    { kind: 'typed', text: 'Qh9' },
    { kind: 'illegal', illegal: { msg: { kind: 'unreadable', text: 'Qh9' }, squares: [] } },
    { kind: 'resign_confirm', on: true },
    { kind: 'toggle_offer' },
    events([{ version: 3, type: 'draw_offered', by: 'black' }]),
  );
  st = reduce(
    st,
    events(
      [
        {
          version: 4,
          type: 'game_ended',
          result: '0-1',
          termination: 'resignation',
          winner: 'black',
          message_zh: '白方认输',
          message_en: 'White resigned',
          clocks: { white_ms: 289_000, black_ms: 280_000 },
        },
      ],
      9000,
    ),
  );
  assert.equal(isOver(st), true);
  assert.equal(st.status.status === 'finished' && st.status.result, '0-1');
  assert.equal(st.illegal, null);
  assert.equal(st.typed, '');
  assert.equal(st.resignConfirm, false);
  assert.equal(st.offerWithMove, false);
  assert.equal(st.drawOffer, null);
  assert.deepEqual(st.clock, { white_ms: 289_000, black_ms: 280_000, running: null, at: 9000 });
  assert.equal(myTurn(st), false);
});

test('an aborted game is over, and so is a finished snapshot', () => {
  const ab = reduce(
    reduce(started(), { kind: 'illegal', illegal: { msg: { kind: 'generic' }, squares: ['a1'] } }),
    events([{ version: 1, type: 'aborted', reason: 'first_move_timeout', by: 'white', message_zh: '', message_en: '' }]),
  );
  assert.equal(ab.status.status, 'aborted');
  assert.equal(ab.illegal, null);
  assert.equal(ab.clock?.running, null);
  const fin = run(
    initialState(ID, ALICE.id),
    { kind: 'typed', text: 'e4' },
    snapMsg(snapshot({ status: { status: 'finished', result: '1-0', termination: 'time_forfeit', winner: 'white', message_zh: '', message_en: '' } })),
  );
  assert.equal(isOver(fin), true);
  assert.equal(fin.typed, '');
});

test('navigation: goto clamps, follows the game at the end, and a new move keeps us following', () => {
  let st = reduce(started(), events([move(1, 'white', 'e2e4', 'e4'), move(2, 'black', 'e7e5', 'e5')]));
  st = reduce(st, { kind: 'goto', ply: -5 });
  assert.equal(st.viewPly, 0);
  assert.equal(myTurn(st), false, 'no moves while looking back');
  st = reduce(st, { kind: 'goto', ply: 99 });
  assert.equal(st.viewPly, null);
  assert.equal(shownPly(st), 2);
  st = reduce(st, { kind: 'goto', ply: 1 });
  assert.equal(shownPly(st), 1);
  st = reduce(st, events([move(3, 'white', 'g1f3', 'Nf3')]));
  assert.equal(st.viewPly, 1, 'looking two plies back stays there');
});

test('takebacks: offered, done (the line shrinks), and a short game is again not started', () => {
  let st = reduce(started(), events([move(1, 'white', 'e2e4', 'e4'), move(2, 'black', 'e7e5', 'e5'), move(3, 'white', 'g1f3', 'Nf3')]));
  st = reduce(st, events([{ version: 4, type: 'takeback_offered', by: 'black' }]));
  assert.equal(st.takebackOffer, 'black');
  st = reduce(st, events([{ version: 5, type: 'takeback_done', plies: 2, fen: '', clocks: { white_ms: 1, black_ms: 2 } }]));
  assert.equal(ply(st), 1);
  assert.equal(st.takebackOffer, null);
  assert.equal(st.status.status, 'created');
  assert.equal(st.clock?.black_ms, 2);
});

test('rematch offers and refusals, and a rejected claim message cleared by the next move', () => {
  let st = reduce(started(), server({ t: 'rematch_offered', game_id: ID, by: 'black' }));
  assert.equal(st.rematchBy, 'black');
  st = reduce(st, server({ t: 'rematch_declined', game_id: ID, by: 'black' }));
  assert.equal(st.rematchBy, null);
  assert.equal(st.rematchDeclined, true);
  st = reduce(
    st,
    events([{ version: 1, type: 'draw_claim_rejected', by: 'white', kind: 'fifty_moves', penalty_ms: 0, message_zh: '不能', message_en: 'no' }]),
  );
  assert.deepEqual(st.claimRejected, { zh: '不能', en: 'no' });
  st = reduce(st, events([move(2, 'white', 'e2e4', 'e4')]));
  assert.equal(st.claimRejected, null);
});

test('a threefold repetition can be claimed by the side to move', () => {
  let st = started();
  const shuffle: [string, string][] = [
    ['g1f3', 'Nf3'],
    ['g8f6', 'Nf6'],
    ['f3g1', 'Ng1'],
    ['f6g8', 'Ng8'],
    ['g1f3', 'Nf3'],
    ['g8f6', 'Nf6'],
    ['f3g1', 'Ng1'],
    ['f6g8', 'Ng8'],
  ];
  shuffle.forEach(([uci, san], i) => {
    st = reduce(st, events([move(i + 1, i % 2 === 0 ? 'white' : 'black', uci, san)]));
  });
  assert.equal(claimNow(st), 'threefold_repetition');
  const bob = reduce(st, { kind: 'user', id: BOB.id });
  assert.equal(claimNow(bob), null, 'not the side to move');
});

test('rematch offers come as game events and in the snapshot', () => {
  const over = { status: 'finished', result: '1-0', termination: 'resignation', winner: 'white', message_zh: '', message_en: '' } as const;
  let st = run(initialState(ID, ALICE.id), snapMsg(snapshot({ status: over, rematch_offer: 'black' })));
  assert.equal(st.rematchBy, 'black');
  st = reduce(st, events([{ version: 1, type: 'rematch_declined', by: 'white' }]));
  assert.equal(st.rematchBy, null);
  assert.equal(st.rematchDeclined, true);
  st = reduce(st, events([{ version: 2, type: 'rematch_offered', by: 'white' }]));
  assert.deepEqual([st.rematchBy, st.rematchDeclined], ['white', false]);
  st = reduce(st, events([{ version: 3, type: 'rematch_agreed' }]));
  assert.equal(st.rematchBy, null);
});

test('rule sets: a touch-move obligation and a counted illegal move are shown until the next move', () => {
  let st = reduce(
    started(),
    events([{ version: 1, type: 'piece_touched', by: 'white', square: 'g1', binding: true, message_zh: '你已摸了马g1，必须走马', message_en: 'move it' }]),
  );
  assert.deepEqual(st.ruleNotice, { zh: '你已摸了马g1，必须走马', en: 'move it' });
  st = reduce(st, events([{ version: 2, type: 'piece_adjusted', by: 'white', square: 'b1' }]));
  assert.equal(st.version, 2);
  assert.deepEqual(st.ruleNotice, { zh: '你已摸了马g1，必须走马', en: 'move it' });
  st = reduce(st, events([move(3, 'white', 'g1f3', 'Nf3')]));
  assert.equal(st.ruleNotice, null);
  st = reduce(
    st,
    events([
      { version: 4, type: 'illegal_move_counted', by: 'black', uci: 'e8e6', count: 1, limit: 2, penalty_ms: 120000, message_zh: '送王', message_en: 'illegal' },
    ]),
  );
  assert.deepEqual(st.ruleNotice, { zh: '送王', en: 'illegal' });
  assert.equal(ply(st), 1, 'the illegal move is not in the line');
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The game page shows a stored game from the archive's view (`GET /api/game/{id}`): what the view says is what
// the page shows (rated, variant, time control, side to move, the clocks left and after each move, how it ended:
// the server's words, who aborted and why), nothing made up in its place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameView } from '../src/protocol_http';
import { archivedSnapshot, initialState, isOver, ply, reduce } from '../src/pages/game/ctrl';

const START_960 = 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1';

function stored(over: Partial<GameView> = {}): GameView {
  return {
    id: 'g9',
    white: { id: 'u-alice', name: 'alice', is_engine: false, engine_level: null },
    black: { id: 'u-bob', name: 'bob', is_engine: false, engine_level: null },
    rated: true,
    source: 'lobby',
    time_control: '300+3',
    initial_ms: 300_000,
    increment_ms: 3000,
    speed: 'blitz',
    initial_fen: START_960,
    chess960: true,
    fen: 'bbqnnrkr/pppppppp/8/8/4P3/8/PPPP1PPP/BBQNNRKR b HFhf - 0 1',
    turn: 'black',
    moves_uci: ['e2e4'],
    moves_san: ['e4'],
    white_ms: 297_500,
    black_ms: 300_000,
    running: null,
    status: 'finished',
    result: '0-1',
    termination: 'resignation',
    winner: 'black',
    draw_offer: null,
    takeback_offer: null,
    end: { status: 'finished', result: '0-1', termination: 'resignation', winner: 'black', message_zh: '白方认输', message_en: 'White resigns' },
    move_clocks_ms: [297_500],
    version: 3,
    created_at_ms: 1_700_000_000_000,
    at_ms: 1_700_000_100_000,
    ...over,
  };
}

test('a stored game keeps what its view says: rated, Chess960 start, time control, turn, clocks, version, the end', () => {
  const s = archivedSnapshot(stored());
  assert.equal(s.rated, true);
  assert.deepEqual(s.variant, { kind: 'chess960', fen: START_960 });
  assert.equal(s.time_control, '300+3');
  assert.equal(s.turn, 'black');
  assert.deepEqual(s.clocks, { white_ms: 297_500, black_ms: 300_000 });
  assert.equal(s.clock_running, null);
  assert.equal(s.version, 3);
  assert.deepEqual(s.moves, [{ uci: 'e2e4', san: 'e4', clock_ms: 297_500 }]);
  assert.deepEqual(s.status, { status: 'finished', result: '0-1', termination: 'resignation', winner: 'black', message_zh: '白方认输', message_en: 'White resigns' });
});

test('a stored aborted game says who aborted it and why, as the server stored it', () => {
  const aborted = (end: GameView['end']) =>
    archivedSnapshot(stored({ status: 'aborted', result: '*', termination: 'aborted', winner: null, end })).status;
  assert.deepEqual(aborted({ status: 'aborted', reason: 'player', by: 'black' }), { status: 'aborted', reason: 'player', by: 'black' });
  assert.deepEqual(aborted({ status: 'aborted', reason: 'first_move_timeout', by: 'white' }), {
    status: 'aborted',
    reason: 'first_move_timeout',
    by: 'white',
  });
});

test('a view without an end: a finished row keeps its result without words; a game in play is created or started', () => {
  assert.deepEqual(archivedSnapshot(stored({ end: null })).status, {
    status: 'finished',
    result: '0-1',
    termination: 'resignation',
    winner: 'black',
    message_zh: '',
    message_en: '',
  });
  const playing = { status: 'started', result: '*', termination: null, winner: null, end: null } as const;
  assert.deepEqual(archivedSnapshot(stored({ ...playing, moves_uci: ['e2e4', 'e7e5'], moves_san: ['e4', 'e5'] })).status, { status: 'started' });
  assert.deepEqual(archivedSnapshot(stored({ ...playing, status: 'live' })).status, { status: 'created' });
  // A live game's view keeps whose clock runs and the pending offers.
  const s = archivedSnapshot(stored({ ...playing, running: 'black', draw_offer: 'white', takeback_offer: 'white' }));
  assert.equal(s.clock_running, 'black');
  assert.equal(s.draw_offer, 'white');
  assert.equal(s.takeback_offer, 'white');
});

test('a stored game from a set-up position, without a clock, stays so', () => {
  const fen = '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1';
  const s = archivedSnapshot(stored({ chess960: false, initial_fen: fen, fen, turn: 'white', moves_uci: [], moves_san: [], time_control: '-', white_ms: null, black_ms: null }));
  assert.deepEqual(s.variant, { kind: 'from_position', fen });
  assert.equal(s.time_control, '-');
  assert.equal(s.clocks, null);
  assert.deepEqual(archivedSnapshot(stored({ chess960: false, initial_fen: null })).variant, { kind: 'standard' });
});

test('the archived action shows the stored game over, its moves on the board and its clocks stopped', () => {
  const st = reduce(initialState('g9', 'u-bob'), { kind: 'archived', game: stored(), now: 5000 });
  assert.ok(isOver(st));
  assert.equal(ply(st), 1);
  assert.equal(st.version, 3);
  assert.equal(st.initialFen, START_960);
  assert.deepEqual(st.clock, { white_ms: 297_500, black_ms: 300_000, running: null, at: 5000 });
  assert.equal(st.orientation, 'black');
});

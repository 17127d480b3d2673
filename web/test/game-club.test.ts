// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's reducer under club rules: an adjournment from the offer to the opening (the sealed move is known
// only to the page that sealed it), a claim for the arbiter and the arbiter's acts, a pause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameSnapshot, VersionedGameEvent } from '../src/protocol';
import { canPlay, initialState, mustSeal, reduce } from '../src/pages/game/ctrl';
import type { Action, GameState } from '../src/pages/game/ctrl';
import { countdown } from '../src/pages/game/club';

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
    time_control: '5400+30',
    fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    turn: 'white',
    moves: [
      { uci: 'e2e4', san: 'e4', clock_ms: 5_400_000 },
      { uci: 'e7e5', san: 'e5', clock_ms: 5_400_000 },
    ],
    clocks: { white_ms: 5_400_000, black_ms: 5_400_000 },
    clock_running: 'white',
    status: { status: 'started' },
    draw_offer: null,
    may_offer_draw: [true, true],
    takeback_offer: null,
    rematch_offer: null,
    disconnected: [false, false],
    version: 2,
    rules: 'adjournment',
    ...over,
  };
}

const run = (st: GameState, ...actions: Action[]): GameState => actions.reduce(reduce, st);
const snap = (s: GameSnapshot): Action => ({ kind: 'server', msg: { t: 'game_snapshot', game_id: ID, snapshot: s }, now: 0, rtt: 0 });
const ev = (...events: VersionedGameEvent[]): Action => ({ kind: 'server', msg: { t: 'game_events', game_id: ID, events }, now: 0, rtt: 0 });

test('an adjournment: offered, called, sealed, a time agreed, opened', () => {
  let st = run(initialState(ID, ALICE.id), snap(snapshot()));
  st = run(st, ev({ version: 3, type: 'adjournment_offered', by: 'black' }));
  assert.equal(st.adjourn?.offered_by, 'black');
  st = run(st, ev({ version: 4, type: 'adjournment_called', to_seal: 'white' }));
  assert.ok(mustSeal(st), 'white is on move and must seal');
  st = run(st, { kind: 'seal_confirm', move: { uci: 'g1f3', san: 'Nf3' } });
  assert.equal(st.sealing?.san, 'Nf3');
  st = run(st, { kind: 'sealed_sent', san: 'Nf3' }, ev({ version: 5, type: 'move_sealed', by: 'white', clocks: null }));
  assert.equal(st.adjourn?.sealed_by, 'white');
  assert.equal(st.mySealed, 'Nf3');
  assert.ok(st.paused && !canPlay(st));
  st = run(st, ev({ version: 6, type: 'resumption_proposed', by: 'black', at_ms: 1_800_000_000_000 }));
  assert.equal(st.adjourn?.proposed_at_ms, 1_800_000_000_000);
  st = run(st, ev({ version: 7, type: 'resumption_scheduled', at_ms: 1_800_000_000_000 }));
  assert.equal(st.adjourn?.resume_at_ms, 1_800_000_000_000);
  assert.equal(st.adjourn?.proposed_by, null);
  st = run(
    st,
    ev(
      { version: 8, type: 'resumed', clocks: null },
      { version: 9, type: 'sealed_move_opened', by: 'white', text: 'Nf3', valid: true, message_zh: '合乎规则', message_en: 'legal' },
      { version: 10, type: 'move_made', by: 'white', uci: 'g1f3', san: 'Nf3', fen: '', ply: 3, clocks: null },
    ),
  );
  assert.equal(st.adjourn, null);
  assert.equal(st.mySealed, null);
  // The opening's message stays with the move it announces.
  assert.equal(st.ruleNotice?.en, 'legal');
  assert.ok(canPlay(st));
  assert.equal(st.line.moves.length, 3);
});

test('a snapshot of an adjourned game shows it sealed; the move itself is not in it', () => {
  const adjournment = {
    offered_by: null,
    called: false,
    sealed_by: 'white' as const,
    proposed_by: null,
    proposed_at_ms: null,
    resume_at_ms: null,
    resumed: false,
  };
  const st = run(initialState(ID, BOB.id), snap(snapshot({ adjournment, paused: true })));
  assert.equal(st.adjourn?.sealed_by, 'white');
  assert.equal(st.mySealed, null);
  assert.ok(!canPlay(st));
});

test('a claim for the arbiter, decided; the arbiter pauses and restarts', () => {
  let st = run(initialState(ID, ALICE.id), snap(snapshot({ rules: undefined })));
  st = run(st, { kind: 'server', msg: { t: 'arbiter', game_id: ID }, now: 0, rtt: 0 });
  assert.ok(st.arbiter);
  st = run(st, ev({ version: 3, type: 'arbiter_called', by: 'black', reason: 'a phone rang' }));
  assert.deepEqual(st.dispute, { by: 'black', reason: 'a phone rang' });
  const acted = (version: number, act: string): VersionedGameEvent => ({
    version,
    type: 'arbiter_acted',
    arbiter: 'wang',
    arbiter_id: 'u9',
    act,
    message_zh: '裁判',
    message_en: `the arbiter: ${act}`,
  });
  st = run(st, ev(acted(4, 'decide')));
  assert.equal(st.dispute, null);
  st = run(st, ev(acted(5, 'pause'), { version: 6, type: 'adjourned', clocks: null }));
  assert.ok(st.paused && !canPlay(st));
  st = run(st, ev(acted(7, 'resume'), { version: 8, type: 'resumed', clocks: null }));
  assert.ok(!st.paused && canPlay(st));
  assert.deepEqual(
    st.notes.map((n) => n.act),
    ['decide', 'pause', 'resume'],
  );
});

test('the countdown to a resumption', () => {
  assert.equal(countdown(61_000), '1:01');
  assert.equal(countdown(3_600_000 + 5_000), '1:00:05');
  assert.equal(countdown(-5), '0:00');
});

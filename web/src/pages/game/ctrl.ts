// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's state and its reducer: `reduce(state, action)` is a pure function from the server's messages
// (snapshot + versioned events, clocks, rematch offers) and the player's actions to the next state. Nothing here
// touches the DOM, the socket or the clock: the time (`now`) and the round trip (`rtt`) come with the action.

import { claimable, fenOf, replay } from '../../chess';
import type { ClaimKind, Line } from '../../chess';
import type { Chess } from 'chessops/chess';
import type {
  AdjournmentInfo,
  ArbiterNote,
  Color,
  DisputeInfo,
  GameSnapshot,
  GameStatus,
  GameResult,
  ServerMessage,
  TerminationCode,
  Variant,
  VersionedGameEvent,
} from '../../protocol';
import type { GameView } from '../../protocol_http';
import type { ClockState } from '../../ui/clock';

export const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');
const idx = (c: Color): 0 | 1 => (c === 'white' ? 0 : 1);

/** Why the last try was refused: the server's reason, or our own short message (shown until the next move). */
export type IllegalMsg = { kind: 'generic' } | { kind: 'reason'; zh: string; en: string } | { kind: 'unreadable'; text: string };

export interface Illegal {
  msg: IllegalMsg;
  /** Squares to mark on the board, most important first. */
  squares: string[];
}

export interface Opening {
  zh: string;
  en: string;
  eco: string;
}

export interface GameState {
  gameId: string;
  /** The signed-in user's id (null: nobody), to know which side we play. */
  me: string | null;
  snap: GameSnapshot | null;
  line: Line;
  initialFen: string | null;
  version: number;
  status: GameStatus;
  drawOffer: Color | null;
  takebackOffer: Color | null;
  mayOfferDraw: [boolean, boolean];
  disconnected: [boolean, boolean];
  /** `now` when each side was seen leaving (for the claim-victory countdown). */
  goneSince: [number, number];
  clock: ClockState | null;
  /** The ply shown, or null to follow the game. */
  viewPly: number | null;
  orientation: Color;
  offerWithMove: boolean;
  rematchBy: Color | null;
  rematchDeclined: boolean;
  resignConfirm: boolean;
  illegal: Illegal | null;
  /** What is in the move box. */
  typed: string;
  opening: Opening | null;
  claimRejected: { zh: string; en: string } | null;
  /** Under a rule set: what the touched pieces oblige, or the last counted illegal move (cleared by a move). */
  ruleNotice: { zh: string; en: string } | null;
  /** Touch-move: "I adjust" said — the next piece picked is adjusted, not touched. */
  adjusting: boolean;
  /** A move that would allow a draw claim (FIDE 9.2.1.1, 9.3.1): claim with it, or just play it. */
  pendingClaim: { uci: string; kind: ClaimKind } | null;
  /** Set by the action that found a gap or an unreplayable move: the page must subscribe again from `version`. */
  resync: boolean;
  /** An adjournment in progress (never the sealed move: the server does not send it). */
  adjourn: AdjournmentInfo | null;
  /** The clocks are stopped (the arbiter's pause, or a sealed move). */
  paused: boolean;
  /** A claim waiting for the arbiter. */
  dispute: DisputeInfo | null;
  /** What the arbiters did. */
  notes: ArbiterNote[];
  /** The server told us we are an arbiter of this game. */
  arbiter: boolean;
  /** The move we are about to seal, waiting for our confirmation. */
  sealing: { uci: string; san: string } | null;
  /** The move we sealed (known on this page only: the server never sends it back before the opening). */
  mySealed: string | null;
  /** The notice survives the next move (the opened sealed move's, shown with the move it announces). */
  keepNotice: boolean;
}

export type Action =
  | { kind: 'server'; msg: ServerMessage; now: number; rtt: number }
  /** A game read from the archive (it is no longer live): `GET /api/game/{id}`. */
  | { kind: 'archived'; game: GameView; now: number }
  | { kind: 'user'; id: string | null }
  | { kind: 'goto'; ply: number }
  | { kind: 'flip' }
  | { kind: 'illegal'; illegal: Illegal | null }
  | { kind: 'typed'; text: string }
  /** A move goes to the server: the offer armed with it and the pending claim are used up. */
  | { kind: 'move_sent' }
  | { kind: 'toggle_offer' }
  | { kind: 'resign_confirm'; on: boolean }
  | { kind: 'pending_claim'; claim: { uci: string; kind: ClaimKind } | null }
  | { kind: 'opening'; opening: Opening | null }
  | { kind: 'adjust_mode'; on: boolean }
  /** A move made while we must seal: ask to confirm (null: cancelled). */
  | { kind: 'seal_confirm'; move: { uci: string; san: string } | null }
  /** The sealed move went to the server. */
  | { kind: 'sealed_sent'; san: string }
  /** Nothing changed but a display setting: draw again. */
  | { kind: 'refresh' };

export function initialState(gameId: string, me: string | null): GameState {
  return {
    gameId,
    me,
    snap: null,
    line: replay(null, []),
    initialFen: null,
    version: 0,
    status: { status: 'created' },
    drawOffer: null,
    takebackOffer: null,
    mayOfferDraw: [true, true],
    disconnected: [false, false],
    goneSince: [0, 0],
    clock: null,
    viewPly: null,
    orientation: 'white',
    offerWithMove: false,
    rematchBy: null,
    rematchDeclined: false,
    resignConfirm: false,
    illegal: null,
    typed: '',
    opening: null,
    claimRejected: null,
    ruleNotice: null,
    adjusting: false,
    pendingClaim: null,
    resync: false,
    adjourn: null,
    paused: false,
    dispute: null,
    notes: [],
    arbiter: false,
    sealing: null,
    mySealed: null,
    keepNotice: false,
  };
}

// ---- derived ----

export function myColor(st: GameState): Color | null {
  const s = st.snap;
  if (!st.me || !s) return null;
  if (s.white.id === st.me) return 'white';
  if (s.black.id === st.me) return 'black';
  return null;
}
export const isOver = (st: GameState): boolean => st.status.status === 'finished' || st.status.status === 'aborted';
export const ply = (st: GameState): number => st.line.moves.length;
export const shownPly = (st: GameState): number => (st.viewPly === null ? ply(st) : st.viewPly);
export const livePos = (st: GameState): Chess => st.line.positions[ply(st)];
/** A Chess960 game: castling is sent as the king onto its rook. */
export const isChess960 = (st: GameState): boolean => st.snap?.variant.kind === 'chess960';
export const turn = (st: GameState): Color => livePos(st).turn;
/** The parts of the game's rule set (`online` when none; `docs/game.md`, "Rule sets"). */
export const ruleParts = (st: GameState): string[] => (st.snap?.rules ?? 'online').split('+');
/** Touch-move: picking up one's piece on one's turn touches it. */
export const touchMove = (st: GameState): boolean => ruleParts(st).includes('touch_move');
/** Illegal moves are sent to the server, which counts them (FIDE 7.5.5 or 送王), instead of only being explained. */
export const countsIllegal = (st: GameState): boolean =>
  ruleParts(st).some((p) => p === 'illegal_moves_count' || p === 'king_into_check');
export const myTurn = (st: GameState): boolean => !isOver(st) && myColor(st) === turn(st) && st.viewPly === null;
/** The adjournment is called and we are on move: our next move is sealed, not played. */
export const mustSeal = (st: GameState): boolean => !!st.adjourn?.called && myTurn(st);
/** Whether moves can be played now: not while the clocks are paused or a sealed move waits to be opened. */
export const canPlay = (st: GameState): boolean => !st.paused && !st.adjourn?.sealed_by;
/** The adjournment as the reducer builds it up from events. */
const noAdjournment: AdjournmentInfo = {
  offered_by: null,
  called: false,
  sealed_by: null,
  proposed_by: null,
  proposed_at_ms: null,
  resume_at_ms: null,
  resumed: false,
};
/** The draw the side to move could claim now (threefold repetition, fifty moves), if it is us. */
export const claimNow = (st: GameState): ClaimKind | null =>
  myColor(st) !== null && myColor(st) === turn(st) ? claimable(st.line.positions) : null;

// ---- the reducer ----

export function reduce(st: GameState, a: Action): GameState {
  const s = st.resync ? { ...st, resync: false } : st;
  switch (a.kind) {
    case 'server':
      return onServer(s, a.msg, a.now, a.rtt);
    case 'archived':
      return applySnapshot(s, archivedSnapshot(a.game), a.now, 0);
    case 'user':
      return { ...s, me: a.id };
    case 'goto': {
      const max = ply(s);
      const v = Math.max(0, Math.min(max, a.ply));
      return { ...s, viewPly: v === max ? null : v, illegal: null, pendingClaim: null };
    }
    case 'flip':
      return { ...s, orientation: opposite(s.orientation) };
    case 'illegal':
      return { ...s, illegal: a.illegal };
    case 'typed':
      return { ...s, typed: a.text };
    case 'move_sent':
      return { ...s, pendingClaim: null, offerWithMove: false, illegal: null };
    case 'toggle_offer':
      return { ...s, offerWithMove: !s.offerWithMove };
    case 'resign_confirm':
      return { ...s, resignConfirm: a.on };
    case 'pending_claim':
      return { ...s, pendingClaim: a.claim };
    case 'opening':
      return { ...s, opening: a.opening };
    case 'adjust_mode':
      return { ...s, adjusting: a.on };
    case 'seal_confirm':
      return { ...s, sealing: a.move };
    case 'sealed_sent':
      return { ...s, sealing: null, mySealed: a.san };
    case 'refresh':
      return s;
  }
}

function onServer(st: GameState, m: ServerMessage, now: number, rtt: number): GameState {
  switch (m.t) {
    case 'game_snapshot':
      return m.game_id === st.gameId ? applySnapshot(st, m.snapshot, now, rtt) : st;
    case 'game_events': {
      if (m.game_id !== st.gameId || !st.snap) return st;
      let s = st;
      for (const e of m.events) {
        if (e.version <= s.version) continue;
        if (e.version !== s.version + 1) return { ...s, resync: true };
        s = applyEvent(s, e, now);
        if (s.resync) return s;
      }
      return s;
    }
    case 'clocks':
      if (m.game_id !== st.gameId) return st;
      return {
        ...st,
        clock: { white_ms: m.white_ms, black_ms: m.black_ms, running: m.running, at: now - rtt / 2 },
      };
    case 'rematch_offered':
      return m.game_id === st.gameId ? { ...st, rematchBy: m.by, rematchDeclined: false } : st;
    case 'rematch_declined':
      return m.game_id === st.gameId ? { ...st, rematchBy: null, rematchDeclined: true } : st;
    case 'arbiter':
      return m.game_id === st.gameId ? { ...st, arbiter: true } : st;
    default:
      return st;
  }
}

/**
 * A game read from `GET /api/game/{id}` as the page's snapshot: players, rated, variant, time control, position,
 * moves with the clock after each, the clocks, offers, how it ended (the result with the server's sentence, or who
 * aborted and why) and version. Only what a live game's socket alone knows is left out: who is connected, the
 * re-offer rule and rematch offers (none: the game is no longer followed live).
 */
export function archivedSnapshot(v: GameView): GameSnapshot {
  const variant: Variant =
    v.initial_fen === null ? { kind: 'standard' } : v.chess960 ? { kind: 'chess960', fen: v.initial_fen } : { kind: 'from_position', fen: v.initial_fen };
  return {
    id: v.id,
    white: v.white,
    black: v.black,
    rated: v.rated,
    variant,
    time_control: v.time_control,
    fen: v.fen,
    turn: v.turn,
    moves: v.moves_uci.map((u, i) => ({ uci: u, san: v.moves_san[i] ?? u, clock_ms: v.move_clocks_ms[i] ?? null })),
    clocks: v.white_ms !== null && v.black_ms !== null ? { white_ms: v.white_ms, black_ms: v.black_ms } : null,
    clock_running: v.running,
    status: archivedStatus(v),
    draw_offer: v.draw_offer,
    may_offer_draw: [false, false],
    takeback_offer: v.takeback_offer,
    rematch_offer: null,
    disconnected: [false, false],
    version: v.version,
  };
}

/**
 * The view's status as the snapshot's: how it ended when the server says (`end`); a game being played is `created`
 * before both sides moved, else `started`. A stored finished game whose state the server could not read keeps its
 * result and termination without the server's sentence (the termination's own text is shown).
 */
function archivedStatus(v: GameView): GameStatus {
  if (v.end) return v.end;
  if (v.status === 'finished')
    return {
      status: 'finished',
      result: v.result as GameResult,
      termination: (v.termination ?? 'adjudication') as TerminationCode,
      winner: v.winner,
      message_zh: '',
      message_en: '',
    };
  return v.status === 'created' || v.moves_uci.length < 2 ? { status: 'created' } : { status: 'started' };
}

function applySnapshot(st: GameState, snap: GameSnapshot, now: number, rtt: number): GameState {
  const first = st.snap === null;
  const initialFen = snap.variant.kind === 'standard' ? null : snap.variant.fen;
  const line = replay(initialFen, snap.moves.map((m) => m.uci));
  // Keep the server's SAN.
  line.moves = line.moves.map((mv, i) => (snap.moves[i] ? { ...mv, san: snap.moves[i].san } : mv));
  const next: GameState = {
    ...st,
    snap,
    initialFen,
    line,
    version: snap.version,
    status: snap.status,
    drawOffer: snap.draw_offer,
    takebackOffer: snap.takeback_offer,
    rematchBy: snap.rematch_offer,
    mayOfferDraw: [...snap.may_offer_draw],
    disconnected: [...snap.disconnected],
    goneSince: [snap.disconnected[0] ? now : 0, snap.disconnected[1] ? now : 0],
    clock: snap.clocks ? { ...snap.clocks, running: snap.clock_running, at: now - rtt / 2 } : null,
    viewPly: st.viewPly !== null && st.viewPly < line.moves.length ? st.viewPly : null,
    resync: false,
    adjourn: snap.adjournment ?? null,
    paused: snap.paused ?? false,
    dispute: snap.dispute ?? null,
    notes: snap.arbiter_notes ?? [],
    mySealed: snap.adjournment?.sealed_by ? st.mySealed : null,
  };
  if (first) next.orientation = myColor(next) ?? 'white';
  return isOver(next) ? ended(next) : next;
}

/** What a finished game no longer needs: refusals and their marks, the typed text, offers and confirmations. */
function ended(st: GameState): GameState {
  return {
    ...st,
    illegal: null,
    typed: '',
    drawOffer: null,
    takebackOffer: null,
    offerWithMove: false,
    resignConfirm: false,
    pendingClaim: null,
    adjourn: null,
    paused: false,
    dispute: null,
    sealing: null,
  };
}

function withClocks(st: GameState, clocks: { white_ms: number; black_ms: number } | null, now: number): ClockState | null {
  return clocks && st.clock ? { ...st.clock, ...clocks, at: now } : st.clock;
}

function applyEvent(st: GameState, e: VersionedGameEvent, now: number): GameState {
  const s: GameState = { ...st, version: e.version };
  switch (e.type) {
    case 'move_made': {
      const next = replay(fenOf(livePos(s)), [e.uci]).positions[1];
      if (!next) return { ...st, resync: true };
      const line: Line = { positions: [...s.line.positions, next], moves: [...s.line.moves, { uci: e.uci, san: e.san }] };
      const mine = myColor(s) === e.by;
      const out: GameState = {
        ...s,
        line,
        clock:
          e.clocks && s.clock ? { ...e.clocks, running: s.clock.running ? opposite(e.by) : null, at: now } : s.clock,
        drawOffer: s.drawOffer && s.drawOffer !== e.by ? null : s.drawOffer,
        status: s.status.status === 'created' && line.moves.length >= 2 ? { status: 'started' } : s.status,
        // Any move makes the last refusal stale; our own also empties the move box.
        illegal: null,
        typed: mine ? '' : s.typed,
        resignConfirm: false,
        pendingClaim: null,
        claimRejected: null,
        ruleNotice: s.keepNotice ? s.ruleNotice : null,
        keepNotice: false,
        adjusting: false,
        viewPly: s.viewPly !== null && s.viewPly === line.moves.length - 1 ? null : s.viewPly,
      };
      return out;
    }
    case 'draw_offered': {
      const may: [boolean, boolean] = [...s.mayOfferDraw];
      may[idx(opposite(e.by))] = true;
      return { ...s, drawOffer: e.by, mayOfferDraw: may };
    }
    case 'draw_declined': {
      const may: [boolean, boolean] = [...s.mayOfferDraw];
      if (s.drawOffer) may[idx(s.drawOffer)] = false;
      return { ...s, drawOffer: null, mayOfferDraw: may };
    }
    case 'draw_claim_rejected':
      return { ...s, claimRejected: { zh: e.message_zh, en: e.message_en } };
    case 'piece_touched':
    case 'illegal_move_counted':
      return { ...s, ruleNotice: { zh: e.message_zh, en: e.message_en } };
    case 'piece_adjusted':
      return s;
    // Adjournment with a sealed move (docs/game.md): offered, called, sealed, a resumption time, the opening.
    case 'adjournment_offered':
      return { ...s, adjourn: { ...(s.adjourn ?? noAdjournment), offered_by: e.by } };
    case 'adjournment_called':
      return { ...s, adjourn: { ...(s.adjourn ?? noAdjournment), offered_by: null, called: true } };
    case 'move_sealed':
      return {
        ...s,
        adjourn: { ...(s.adjourn ?? noAdjournment), called: false, sealed_by: e.by },
        paused: true,
        sealing: null,
        clock: s.clock ? { ...s.clock, ...(e.clocks ?? {}), running: null, at: now } : null,
      };
    case 'resumption_proposed':
      return { ...s, adjourn: { ...(s.adjourn ?? noAdjournment), proposed_by: e.by, proposed_at_ms: e.at_ms } };
    case 'resumption_scheduled':
      return {
        ...s,
        adjourn: { ...(s.adjourn ?? noAdjournment), proposed_by: null, proposed_at_ms: null, resume_at_ms: e.at_ms },
      };
    case 'sealed_move_opened':
      return { ...s, adjourn: null, mySealed: null, ruleNotice: { zh: e.message_zh, en: e.message_en }, keepNotice: e.valid };
    case 'arbiter_called':
      return { ...s, dispute: { by: e.by, reason: e.reason } };
    case 'arbiter_acted':
      return {
        ...s,
        notes: [...s.notes, { arbiter: e.arbiter, act: e.act, message_zh: e.message_zh, message_en: e.message_en }],
        dispute: e.act === 'decide' ? null : s.dispute,
      };
    case 'adjourned':
      return { ...s, paused: true, clock: withClocks(s, e.clocks, now) };
    case 'resumed': {
      const adjourn = s.adjourn?.sealed_by ? { ...s.adjourn, resumed: true } : s.adjourn;
      const running = s.clock && !s.clock.running && ply(s) >= 2 ? turn(s) : (s.clock?.running ?? null);
      const clock = withClocks(s, e.clocks, now);
      return { ...s, paused: false, adjourn, clock: clock ? { ...clock, running } : clock };
    }
    case 'clock_update':
      return { ...s, clock: withClocks(s, e.clocks, now) };
    case 'takeback_offered':
      return { ...s, takebackOffer: e.by };
    case 'takeback_declined':
    case 'takeback_cancelled':
      return { ...s, takebackOffer: null };
    case 'takeback_done': {
      const keep = Math.max(0, ply(s) - e.plies);
      return {
        ...s,
        line: { positions: s.line.positions.slice(0, keep + 1), moves: s.line.moves.slice(0, keep) },
        takebackOffer: null,
        drawOffer: null,
        viewPly: null,
        illegal: null,
        clock: withClocks(s, e.clocks, now),
        status: keep < 2 ? { status: 'created' } : s.status,
      };
    }
    case 'player_disconnected': {
      const d: [boolean, boolean] = [...s.disconnected];
      const g: [number, number] = [...s.goneSince];
      d[idx(e.who)] = true;
      g[idx(e.who)] = now;
      return { ...s, disconnected: d, goneSince: g };
    }
    case 'player_reconnected': {
      const d: [boolean, boolean] = [...s.disconnected];
      d[idx(e.who)] = false;
      return { ...s, disconnected: d };
    }
    case 'game_ended':
      return ended({
        ...s,
        status: {
          status: 'finished',
          result: e.result,
          termination: e.termination,
          winner: e.winner,
          message_zh: e.message_zh,
          message_en: e.message_en,
        },
        clock: s.clock ? { ...s.clock, ...(e.clocks ?? {}), running: null, at: now } : null,
      });
    // The rematch, after the game (the offer also comes as a `rematch_offered` message, wherever the player is).
    case 'rematch_offered':
      return { ...s, rematchBy: e.by, rematchDeclined: false };
    case 'rematch_declined':
      return { ...s, rematchBy: null, rematchDeclined: true };
    case 'rematch_agreed':
      return { ...s, rematchBy: null, rematchDeclined: false };
    case 'aborted':
      return ended({
        ...s,
        status: { status: 'aborted', reason: e.reason, by: e.by },
        clock: s.clock ? { ...s.clock, running: null, at: now } : null,
      });
  }
}

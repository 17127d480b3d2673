// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: one round's state and rules, without the DOM — the line played so far, the server's verdict
// on a try taken in, hints (first the piece, then the move), the solution, when the round counts as won or lost,
// and stepping through the line afterwards. Pure functions over plain values.

import { fenOf, replay } from '../../chess';
import type { Line } from '../../chess';
import type { Puzzle, PuzzleText, RoundAnswer, Verdict } from './xhr';

/** Rated training (also the daily puzzle) or a streak (no rating, over at the first mistake). */
export type Mode = 'train' | 'daily' | 'streak';

export type Feedback =
  | { kind: 'good' }
  | { kind: 'wrong'; reason: PuzzleText | null }
  | { kind: 'illegal'; reason: PuzzleText | null }
  | { kind: 'error'; text: string }
  | null;

export interface RoundState {
  puzzle: Puzzle;
  mode: Mode;
  /** The moves after the setup move that are on the board (the solver's accepted tries and the replies). */
  played: string[];
  /** The setup move has been shown (the board starts on the position before it). */
  setupDone: boolean;
  /** A try is with the server, or the board is playing a reply or the solution. */
  busy: boolean;
  /** The try the server is judging (the board keeps showing it meanwhile). */
  pending: string | null;
  /** For the move to find now — 0: none, 1: the piece to move shown, 2: the move shown. */
  hints: number;
  /** Hints taken over the whole puzzle. */
  hintsUsed: number;
  mistakes: number;
  solutionShown: boolean;
  /** The puzzle is over (solved or its solution played out). */
  over: boolean;
  /** The round's result for the rating, fixed at the first of: a wrong move, the solution, the last move. */
  win: boolean | null;
  /** The round has been sent (`POST …/round`), once per puzzle. */
  sent: boolean;
  answer: RoundAnswer | null;
  feedback: Feedback;
  /** After the end: the ply of the line shown (0 = before the setup move). */
  view: number;
}

export function newRound(puzzle: Puzzle, mode: Mode): RoundState {
  return {
    puzzle,
    mode,
    played: [],
    setupDone: false,
    busy: false,
    pending: null,
    hints: 0,
    hintsUsed: 0,
    mistakes: 0,
    solutionShown: false,
    over: false,
    win: null,
    sent: false,
    answer: null,
    feedback: null,
    view: 0,
  };
}

/** The line on the board: the setup move (once shown) and what was played after it. */
export function lineOf(st: RoundState): Line {
  return replay(st.puzzle.fen, st.setupDone ? [st.puzzle.moves[0], ...st.played] : []);
}

/** The position shown: the current one while solving, the one stepped to afterwards. */
export function shownPly(st: RoundState): number {
  const n = lineOf(st).moves.length;
  return st.over ? Math.max(0, Math.min(st.view, n)) : n;
}

export function fenAt(st: RoundState, ply: number): string {
  const l = lineOf(st);
  return fenOf(l.positions[Math.max(0, Math.min(ply, l.positions.length - 1))]);
}

/** Whether the solver may move now. */
export function canMove(st: RoundState): boolean {
  return st.setupDone && !st.busy && !st.over;
}

/** The next move of the solution (the solver's), or null when the line is done. */
export function expectedMove(st: RoundState): string | null {
  return st.puzzle.moves[1 + st.played.length] ?? null;
}

/** The square the first hint marks (the piece to move), once asked for. */
export function hintSquare(st: RoundState): string | null {
  const m = expectedMove(st);
  return st.hints >= 1 && m && !st.over ? m.slice(0, 2) : null;
}

/** The move the second hint shows as an arrow, once asked for. */
export function hintMove(st: RoundState): string | null {
  const m = expectedMove(st);
  return st.hints >= 2 && m && !st.over ? m : null;
}

/** Asks for one more hint (at most two per move: the piece, then the move). Returns whether one was given. */
export function takeHint(st: RoundState): boolean {
  if (!canMove(st) || st.hints >= 2 || st.mode === 'streak') return false;
  st.hints++;
  st.hintsUsed++;
  return true;
}

/** Whether a hint or the solution has made the round a loss for the rating (lichess's rule). */
export function helped(st: RoundState): boolean {
  return st.hintsUsed > 0 || st.solutionShown;
}

function decide(st: RoundState, win: boolean): void {
  if (st.win === null) st.win = win && !helped(st);
}

/** The solver's try `uci` goes to the server. */
export function startTry(st: RoundState, uci: string): void {
  st.busy = true;
  st.pending = uci;
}

/** The server could not judge the try: it is taken back, with the error shown. */
export function tryFailed(st: RoundState, text: string): void {
  st.busy = false;
  st.pending = null;
  st.feedback = { kind: 'error', text };
}

/** What the page must do after a verdict: play the opponent's reply, end the round, or nothing more. */
export type Outcome = { reply: string } | { end: true } | { lost: true } | null;

/**
 * Takes the server's verdict on the solver's try `uci` into the state. A right move stays on the board (the reply
 * is played by the caller, see {@link playReply}); a wrong or illegal one is taken back with its reason. A wrong
 * move loses the round (and ends a streak).
 */
export function applyVerdict(st: RoundState, uci: string, v: Verdict): Outcome {
  st.busy = false;
  st.pending = null;
  switch (v.verdict) {
    case 'correct':
      st.played.push(uci);
      st.feedback = { kind: 'good' };
      st.hints = 0;
      st.busy = true;
      return { reply: v.reply };
    case 'solved':
      st.played.push(uci);
      st.hints = 0;
      finish(st, true);
      return { end: true };
    case 'wrong':
      st.mistakes++;
      st.feedback = { kind: 'wrong', reason: v.reason ?? null };
      decide(st, false);
      if (st.mode === 'streak') {
        st.over = true;
        st.view = lineOf(st).moves.length;
      }
      return { lost: true };
    case 'illegal':
      st.feedback = { kind: 'illegal', reason: v.reason ?? null };
      return null;
  }
}

/** The opponent's reply, after a right move. */
export function playReply(st: RoundState, reply: string): void {
  st.played.push(reply);
  st.busy = false;
}

function finish(st: RoundState, win: boolean): void {
  decide(st, win);
  st.over = true;
  st.busy = false;
  st.feedback = null;
  st.view = lineOf(st).moves.length;
}

/** The rest of the solution, from the position on the board (for playing it out move by move). */
export function solutionRest(st: RoundState): string[] {
  return st.puzzle.moves.slice(1 + st.played.length);
}

/** Marks the solution as asked for (the round is lost). */
export function startSolution(st: RoundState): void {
  st.solutionShown = true;
  st.busy = true;
  st.hints = 0;
  decide(st, false);
}

/** One move of the solution played out. */
export function solutionStep(st: RoundState, uci: string): void {
  st.played.push(uci);
}

export function endSolution(st: RoundState): void {
  finish(st, false);
}

/** Steps through the line after the end (clamped to the line). */
export function stepView(st: RoundState, ply: number): void {
  if (!st.over) return;
  st.view = Math.max(0, Math.min(ply, lineOf(st).moves.length));
}

/** Whether the round is to be sent now (the result is fixed and it was not sent yet; streaks are not rated). */
export function roundDue(st: RoundState): boolean {
  return st.win !== null && !st.sent && st.mode !== 'streak';
}

/** `+12`, `−8`, `±0`. */
export function signed(n: number): string {
  const r = Math.round(n);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : '±0';
}

/** A rating as shown: `1500?` while provisional. */
export function ratingText(rating: number, provisional: boolean): string {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** The rating a streak asks for after `n` puzzles solved: rising from 1000 by 60 a puzzle. */
export function streakRating(n: number): number {
  return 1000 + 60 * n;
}

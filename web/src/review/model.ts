// SPDX-License-Identifier: GPL-3.0-or-later
// A game's review (复盘) (GET /api/game/{id}/review, types generated from the server's), and the pure functions
// the review panel is built from: the marks of the move list, the evaluation graph, the moments worth a look and the
// exercises of "learn from your mistakes". No DOM here: unit-tested with node --test.

import type { GameReviewView, ReviewClass, ReviewComment, ReviewEval, ReviewState, ReviewText, ReviewedMove } from '../protocol_review';

// The answers' types are generated from the server's (crates/protocol/src/review.rs).
export type { GameReviewView, ReviewClass, ReviewComment, ReviewEval, ReviewState, ReviewText, ReviewedMove } from '../protocol_review';
export type { ReviewTryAnswer } from '../protocol_review';
/** The review of a game, as the panel uses it. */
export type GameReviewData = GameReviewView;

export type Mark = '?!' | '?' | '??';

/** The move list's mark of a class: ?! inaccuracy, ? mistake, ?? blunder (a missed win is a mistake). */
export function markOf(c: ReviewClass): Mark | null {
  switch (c) {
    case 'inaccuracy':
      return '?!';
    case 'mistake':
    case 'missed_win':
      return '?';
    case 'blunder':
      return '??';
    default:
      return null;
  }
}

/** Marks by ply. */
export function marksOf(r: GameReviewData): Map<number, Mark> {
  const out = new Map<number, Mark>();
  for (const m of r.moves) {
    const k = markOf(m.class);
    if (k) out.set(m.ply, k);
  }
  return out;
}

/** White's advantage in centipawns for the graph (mates as ±1000; `{mate: 0}` counts for the side that mated). */
export function whiteCp(e: ReviewEval, ply: number): number {
  if ('cp' in e) return Math.max(-1000, Math.min(1000, e.cp));
  if (e.mate === 0) return ply % 2 === 1 ? 1000 : -1000; // White's move mated when the ply is odd.
  return e.mate > 0 ? 1000 : -1000;
}

/** The graph's values: index 0 is the start (unknown), index i the position after ply i. */
export function graphValues(r: GameReviewData): (number | null)[] {
  return [null, ...r.moves.map((m) => whiteCp(m.eval, m.ply))];
}

/** The side that played a ply. */
export function moverOf(ply: number): 'white' | 'black' {
  return ply % 2 === 1 ? 'white' : 'black';
}

/** The errors worth a look: mistakes, blunders and missed wins (optionally with inaccuracies), in game order. */
export function moments(r: GameReviewData, color: 'white' | 'black' | null, withInaccuracies = false): ReviewedMove[] {
  return r.moves.filter(
    (m) =>
      (color === null || moverOf(m.ply) === color) &&
      m.best !== null &&
      (m.class === 'mistake' || m.class === 'blunder' || m.class === 'missed_win' || (withInaccuracies && m.class === 'inaccuracy')),
  );
}

/**
 * The key moments (关键时刻) of a review: the errors of `learner` (all errors when null), at most `max` of them, the
 * ones that lost most first; with `others`, the other side's errors too (listed after, by loss as well).
 */
export function keyMoments(r: GameReviewData, learner: 'white' | 'black' | null, others: boolean, max = 5): ReviewedMove[] {
  const byLoss = (list: ReviewedMove[]) => list.slice().sort((a, b) => b.loss - a.loss || a.ply - b.ply).slice(0, max);
  if (learner === null) return byLoss(moments(r, null));
  const mine = byLoss(moments(r, learner));
  return others ? [...mine, ...byLoss(moments(r, learner === 'white' ? 'black' : 'white'))] : mine;
}

/** Moves a side made in the reviewed game. */
export function movesOf(r: GameReviewData, side: 'white' | 'black'): number {
  return r.moves.filter((m) => moverOf(m.ply) === side).length;
}

/** A side's accuracy is shown once it has made this many moves (after one move it says nothing). */
export const ACCURACY_MIN_MOVES = 10;

/** The accuracy to show for a side, or null while it has made fewer than ten moves (or had no choice). */
export function shownAccuracy(r: GameReviewData, side: 'white' | 'black'): number | null {
  return movesOf(r, side) >= ACCURACY_MIN_MOVES ? r.accuracy[side] : null;
}

/**
 * The sentence of a comment in the page's language with the piece letters the learner chose: Chinese with Chinese
 * letters (`zh`) or SAN letters (`zh_latin`), English with SAN (`en`) or Chinese letters (`en_chinese`); a review
 * written before the second forms existed falls back to `zh`/`en`.
 */
export function commentText(c: ReviewComment | null | undefined, lang: 'zh' | 'en', chinese: boolean): string {
  if (!c) return '';
  if (lang === 'zh') return chinese ? c.zh : (c.zh_latin ?? c.zh);
  return chinese ? (c.en_chinese ?? c.en) : c.en;
}

/**
 * The sentence without the move in front (reviews written before the sentences stopped repeating the move began
 * with it: "马c3? 白白丢掉了…"), since the page writes the move once before it.
 */
export function withoutMove(text: string, sans: string[]): string {
  const t = text.trimStart();
  for (const s of sans) {
    for (const mark of ['??', '?!', '?', '!?', '!', '']) {
      const head = s + mark;
      if (t.startsWith(head + ' ')) return t.slice(head.length + 1).trimStart();
    }
  }
  return text;
}

/**
 * "Learn from your mistakes": the exercises of one side — the errors the server found real (material, a mate or
 * a result class lost: `exercise`), in game order.
 */
export function exercises(r: GameReviewData, color: 'white' | 'black'): ReviewedMove[] {
  return moments(r, color).filter((m) => m.exercise);
}

/** Where the run of exercises is: which one, and whether each was solved, given up or is still open. */
export interface LearnState {
  index: number;
  results: ('solved' | 'shown' | 'open')[];
}

export function startLearning(n: number): LearnState {
  return { index: 0, results: Array.from({ length: n }, () => 'open' as const) };
}

export type LearnEvent = { t: 'solved' } | { t: 'shown' } | { t: 'next' } | { t: 'previous' };

/** The learn mode's reducer: a solved exercise stays solved even if its answer is shown afterwards. */
export function learnStep(s: LearnState, e: LearnEvent): LearnState {
  const results = s.results.slice();
  switch (e.t) {
    case 'solved':
      results[s.index] = 'solved';
      return { ...s, results };
    case 'shown':
      if (results[s.index] === 'open') results[s.index] = 'shown';
      return { ...s, results };
    case 'next':
      return { ...s, index: Math.min(s.results.length, s.index + 1) };
    case 'previous':
      return { ...s, index: Math.max(0, s.index - 1) };
  }
}

/** True once every exercise was seen through (the index is past the last). */
export function learnFinished(s: LearnState): boolean {
  return s.index >= s.results.length;
}

/** Whether a review state needs polling (it is waiting or running). */
export function pending(s: ReviewState): boolean {
  return s.status === 'queued' || s.status === 'running';
}

/** Progress as a fraction 0–1 (0 while queued). */
export function progressOf(s: ReviewState): number {
  const p = s.progress;
  if (s.status === 'done') return 1;
  if (!p || p.total <= 0) return 0;
  return Math.max(0, Math.min(1, p.done / p.total));
}

/** A class's name in both languages (the review crate's names). */
export const CLASS_NAMES: Record<ReviewClass, ReviewText> = {
  only_move: { zh: '唯一着', en: 'Only move' },
  best: { zh: '最佳', en: 'Best' },
  excellent: { zh: '很好', en: 'Excellent' },
  good: { zh: '不错', en: 'Good' },
  inaccuracy: { zh: '欠准', en: 'Inaccuracy' },
  mistake: { zh: '错着', en: 'Mistake' },
  blunder: { zh: '败着', en: 'Blunder' },
  missed_win: { zh: '错失胜机', en: 'Missed win' },
};

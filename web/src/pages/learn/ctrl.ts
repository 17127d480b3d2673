// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: the lesson's state and rules, without the DOM — which step is shown, the tries so far (what is
// sent to the server, which judges every try), the stars of a lesson, and the progress (merging the browser's
// with the server's). Pure functions over plain values, so that they can be checked on their own.

import { positionFromFen, replay } from '../../chess';
import type {
  Bilingual as LearnText,
  LearnChapter,
  LearnLesson,
  LearnProgress,
  LearnStep,
  LearnTry,
  LearnVerdict,
  LessonProgress,
} from '../../protocol_http';

/** What the learner is told after a try. */
export type Feedback =
  | { kind: 'wrong'; reason: LearnText | null; hint: LearnText | null }
  | { kind: 'good'; text: LearnText | null }
  | { kind: 'done'; text: LearnText }
  | null;

export interface StepState {
  index: number;
  /** The learner's accepted moves (`moves` steps; for `escape`, the answers found so far). */
  moves: string[];
  /** Squares found (`squares` steps). */
  squares: string[];
  /** Chosen answers: choice indices or candidate moves. */
  picked: (number | string)[];
  /** The position shown now. */
  fen: string;
  /** The last move shown (a learner's move or the scripted reply), for highlighting. */
  lastMove: string | null;
  /** Stars still to collect (`stars` goal). */
  remaining: string[];
  /** Ways of answering the check found (`escape` goal). */
  found: string[];
  done: boolean;
  wrong: number;
  hintShown: boolean;
  feedback: Feedback;
  /** A try is on its way to the server. */
  busy: boolean;
  /** A `play` step met here that the server refused to record (its reason), shown under the step. */
  serverNote: LearnText | null;
}

export interface LessonState {
  lesson: LearnLesson;
  step: StepState;
  /** Wrong tries over the whole lesson (for the stars). */
  wrong: number;
  /** The intro is shown before step 1. */
  intro: boolean;
  finished: boolean;
}

export function newStep(step: LearnStep, index: number): StepState {
  return {
    index,
    moves: [],
    squares: [],
    picked: [],
    fen: step.fen,
    lastMove: null,
    remaining: step.kind === 'moves' && step.goal === 'stars' ? [...(step.stars ?? [])] : [],
    found: [],
    done: false,
    wrong: 0,
    hintShown: false,
    feedback: null,
    busy: false,
    serverNote: null,
  };
}

export function newLesson(lesson: LearnLesson): LessonState {
  return {
    lesson,
    step: newStep(lesson.steps[0], 0),
    wrong: 0,
    intro: !!lesson.intro && !!(lesson.intro.zh || lesson.intro.en),
    finished: lesson.steps.length === 0,
  };
}

export function currentStep(ls: LessonState): LearnStep {
  return ls.lesson.steps[ls.step.index];
}

export function isLastStep(ls: LessonState): boolean {
  return ls.step.index >= ls.lesson.steps.length - 1;
}

/** Goes on to the next step, or to the lesson's end. */
export function advance(ls: LessonState): void {
  ls.intro = false;
  if (isLastStep(ls)) {
    ls.finished = true;
    return;
  }
  const i = ls.step.index + 1;
  ls.step = newStep(ls.lesson.steps[i], i);
}

/** Starts the current step again (the position as the step gives it; the wrong tries stay counted). */
export function restartStep(ls: LessonState): void {
  const wrong = ls.step.wrong;
  ls.step = newStep(currentStep(ls), ls.step.index);
  ls.step.wrong = wrong;
}

/** Stars of a lesson: 3 without a wrong try, 2 with at most two, else 1. */
export function starsFor(wrong: number): number {
  if (wrong <= 0) return 3;
  if (wrong <= 2) return 2;
  return 1;
}

export function isEscape(step: LearnStep): boolean {
  return step.kind === 'moves' && step.goal === 'escape';
}

export function isStars(step: LearnStep): boolean {
  return step.kind === 'moves' && step.goal === 'stars';
}

/** Whether a choice step is answered with one click (one right answer) or with toggles and a check button. */
export function singleChoice(step: LearnStep): boolean {
  return Array.isArray(step.answer) && step.answer.length === 1;
}

/** The request for a new try: the step's whole history plus `item` (a move, a square, or the picked answers). */
export function tryBody(ls: LessonState, item: string | null): LearnTry {
  const step = currentStep(ls);
  const st = ls.step;
  const base = { lesson: ls.lesson.id, step: st.index };
  switch (step.kind) {
    case 'moves':
      return { ...base, moves: item === null ? [...st.moves] : [...st.moves, item] };
    case 'squares':
      return { ...base, squares: item === null ? [...st.squares] : [...st.squares, item] };
    case 'choice':
      return { ...base, choices: st.picked.filter((x): x is number => typeof x === 'number').sort((a, b) => a - b) };
    case 'legal_moves':
      return { ...base, selected: st.picked.filter((x): x is string => typeof x === 'string') };
    case 'play':
      return { ...base, moves: [...st.moves] };
  }
}

/** Takes the server's verdict on a try of `item` into the state. Returns whether the step is now done. */
export function applyVerdict(ls: LessonState, item: string | null, v: LearnVerdict): boolean {
  const step = currentStep(ls);
  const st = ls.step;
  st.busy = false;
  if (!v.ok) {
    st.wrong++;
    ls.wrong++;
    st.hintShown = true;
    const reason = v.reason && (v.reason.zh || v.reason.en) ? { zh: v.reason.zh, en: v.reason.en } : null;
    st.feedback = { kind: 'wrong', reason, hint: v.hint ?? step.hint };
    if (step.kind === 'choice' || step.kind === 'legal_moves') st.picked = [];
    if (v.restart) {
      st.moves = [];
      st.lastMove = null;
      st.fen = v.fen ?? step.fen;
      st.remaining = v.remaining ?? [...(step.stars ?? [])];
    }
    return false;
  }
  if (item !== null) {
    if (step.kind === 'moves') {
      st.moves.push(item);
      st.lastMove = v.reply ?? item;
    } else if (step.kind === 'squares') {
      if (!st.squares.includes(item)) st.squares.push(item);
    }
  }
  if (v.fen) st.fen = v.fen;
  if (isStars(step)) {
    if (v.remaining) st.remaining = v.remaining;
    else if (item) st.remaining = st.remaining.filter((s) => s !== item.slice(2, 4));
  }
  if (v.found) st.found = v.found;
  if (isEscape(step)) st.lastMove = null;
  if (v.done) {
    st.done = true;
    st.feedback = { kind: 'done', text: v.success ?? step.success };
    return true;
  }
  st.feedback = { kind: 'good', text: null };
  return false;
}

/** The body of `POST /api/learn/try` for a `play` step: the game played, which the server reads and judges. */
export function playTryBody(ls: LessonState, index: number, game: string): { lesson: string; step: number; game: string } {
  return { lesson: ls.lesson.id, step: index, game };
}

/**
 * The server's verdict on a `play` step's game into the step (`metHere`: what this page judged). The browser's
 * progress stays as judged here; a game met here but refused by the server (its progress, which a teacher sees,
 * does not have the step) shows the server's reason. A game missed here needs no second word.
 */
export function applyPlayVerdict(st: StepState, metHere: boolean, v: LearnVerdict): void {
  st.serverNote = metHere && !v.ok ? { zh: v.reason?.zh ?? '', en: v.reason?.en ?? '' } : null;
}

/** Who promoted first in a played line (`promote` goal): the side to move before the first five-letter UCI move. */
export function firstPromotion(line: { moves: { uci: string }[]; positions: { turn: 'white' | 'black' }[] }): 'white' | 'black' | null {
  const i = line.moves.findIndex((m) => m.uci.length === 5);
  return i < 0 ? null : line.positions[i].turn;
}

/** A `play` step judged here: whether the game's end meets the goal within the move budget. */
export function playGoalMet(step: LearnStep, result: { winner: 'white' | 'black' | null; me: 'white' | 'black'; myMoves: number }): boolean {
  if (step.max_moves && result.myMoves > step.max_moves) return false;
  switch (step.goal) {
    case 'win':
      return result.winner === result.me;
    case 'draw':
      return result.winner === null;
    default:
      return true;
  }
}

// ---- progress ----

export function emptyProgress(): LearnProgress {
  return { lessons: {} };
}

function mergeLesson(a: LessonProgress | undefined, b: LessonProgress | undefined): LessonProgress {
  const steps = new Set<number>([...(a?.steps ?? []), ...(b?.steps ?? [])]);
  return {
    steps: [...steps].filter((n) => Number.isInteger(n) && n >= 0).sort((x, y) => x - y),
    stars: Math.max(a?.stars ?? 0, b?.stars ?? 0),
    done: !!(a?.done || b?.done),
  };
}

/** Both progresses together: every step done in either, the best stars, done in either. */
export function mergeProgress(a: LearnProgress, b: LearnProgress): LearnProgress {
  const out: LearnProgress = { lessons: {} };
  const ids = new Set([...Object.keys(a.lessons ?? {}), ...Object.keys(b.lessons ?? {})]);
  for (const id of [...ids].sort()) out.lessons[id] = mergeLesson(a.lessons?.[id], b.lessons?.[id]);
  return out;
}

/** Whether `a` holds something `b` does not (so `b`'s owner should be told). */
export function hasNews(a: LearnProgress, b: LearnProgress): boolean {
  const merged = mergeProgress(a, b);
  return JSON.stringify(merged) !== JSON.stringify(mergeProgress(b, emptyProgress()));
}

/** The progress of one lesson after step `index`; with `stars`, the lesson is done. */
export function recordStep(p: LearnProgress, lessonId: string, index: number, stars?: number): LearnProgress {
  const entry: LessonProgress = { steps: [index], stars: stars ?? 0, done: stars !== undefined };
  return mergeProgress(p, { lessons: { [lessonId]: entry } });
}

/** Only one lesson's entry, for a PUT of what changed. */
export function lessonOnly(p: LearnProgress, lessonId: string): LearnProgress {
  const e = p.lessons[lessonId];
  return { lessons: e ? { [lessonId]: e } : {} };
}

/** A value read from storage or the network, made safe to use. */
export function cleanProgress(raw: unknown): LearnProgress {
  const out = emptyProgress();
  const lessons = (raw as { lessons?: unknown } | null)?.lessons;
  if (!lessons || typeof lessons !== 'object') return out;
  for (const [id, v] of Object.entries(lessons as Record<string, unknown>)) {
    if (!/^[a-z0-9_]+$/.test(id) || !v || typeof v !== 'object') continue;
    const e = v as Partial<LessonProgress>;
    out.lessons[id] = mergeLesson(
      {
        steps: Array.isArray(e.steps) ? e.steps.filter((n) => typeof n === 'number') : [],
        stars: typeof e.stars === 'number' ? Math.max(0, Math.min(3, Math.floor(e.stars))) : 0,
        done: e.done === true,
      },
      undefined,
    );
  }
  return out;
}

export function allLessons(chapters: LearnChapter[]): LearnLesson[] {
  return [...chapters].sort((a, b) => a.order - b.order).flatMap((c) => [...c.lessons].sort((a, b) => a.order - b.order));
}

/** The lessons the course asks for: those of the optional chapters (比赛规则) are left out. */
export function requiredLessons(chapters: LearnChapter[]): LearnLesson[] {
  return allLessons(chapters.filter((c) => !c.optional));
}

/** Lessons done out of the course's required ones (lessons no longer in the course, or optional, are not counted). */
export function countDone(chapters: LearnChapter[], p: LearnProgress): { done: number; total: number } {
  const lessons = requiredLessons(chapters);
  return { done: lessons.filter((l) => p.lessons[l.id]?.done).length, total: lessons.length };
}

/** The lesson after `id` in course order, or null after the last. */
export function lessonAfter(chapters: LearnChapter[], id: string): LearnLesson | null {
  const lessons = allLessons(chapters);
  const i = lessons.findIndex((l) => l.id === id);
  return i >= 0 && i + 1 < lessons.length ? lessons[i + 1] : null;
}

/** The first required lesson not done yet (where "continue" leads; the optional chapters are chosen, not led to). */
export function nextToLearn(chapters: LearnChapter[], p: LearnProgress): LearnLesson | null {
  return requiredLessons(chapters).find((l) => !p.lessons[l.id]?.done) ?? null;
}

const LETTER: Record<string, string> = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: '' };

/**
 * A candidate move of a `legal_moves` step in SAN: chessops' own for a legal move; for an illegal one the same
 * form (piece letter, x for a capture, the square; the from-square when the piece alone does not say which).
 */
export function candidateSan(fen: string, uci: string, all: string[] = []): string {
  const l = replay(fen, [uci]);
  if (l.moves.length === 1) return l.moves[0].san;
  const pos = positionFromFen(fen);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  if (!pos) return uci;
  const sq = (s: string) => (s.charCodeAt(0) - 97) + 8 * (Number(s[1]) - 1);
  const piece = pos.board.get(sq(from));
  if (!piece) return `${from}-${to}`;
  if (piece.role === 'king' && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2 && from[1] === to[1]) {
    return to[0] === 'g' ? 'O-O' : 'O-O-O';
  }
  const capture = pos.board.get(sq(to))?.color === (piece.color === 'white' ? 'black' : 'white') || (piece.role === 'pawn' && from[0] !== to[0]);
  const promo = uci.length === 5 ? '=' + (LETTER[{ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[uci[4]] ?? 'queen'] ?? 'Q') : '';
  if (piece.role === 'pawn') return (capture ? from[0] + 'x' : '') + to + promo;
  const twin = all.some((u) => u !== uci && u.slice(2, 4) === to && pos.board.get(sq(u.slice(0, 2)))?.role === piece.role);
  return LETTER[piece.role] + (twin ? from : '') + (capture ? 'x' : '') + to;
}

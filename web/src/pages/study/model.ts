// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies (no DOM): the study model of crates/learn/src/study.rs as JSON, and what the editor and present
// mode do with it. A position in a chapter is a path of numbers, as the server writes it: `[]` the start, `[i]` after
// mainline move i, `[i, v, j]` after move j of variation v of mainline move i, and so on. The operations change the
// chapter in place and return the path to show next. `follow` is the reducer of a reader's present mode.

import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import type { NormalMove } from 'chessops/types';

export type Path = number[];
export type Brush = 'green' | 'red' | 'yellow' | 'blue';
export const BRUSHES: Brush[] = ['green', 'red', 'yellow', 'blue'];

/** A text: one language, or both. */
export type Note = string | { zh: string; en: string };

export interface Shape {
  brush: Brush;
  orig: string;
  dest?: string;
}

/** An interactive step: the course file's fields (`kind`, `fen`, `prompt`, …), kept as they come. */
export type Step = Record<string, unknown> & { kind: string; fen: string };

export interface StudyNode {
  san: string;
  nags?: number[];
  before?: string;
  comment?: Note;
  shapes?: Shape[];
  step?: Step;
  variations?: StudyNode[][];
}

export interface Chapter {
  name: Note;
  fen: string;
  orientation?: 'white' | 'black';
  comment?: Note;
  shapes?: Shape[];
  step?: Step;
  moves: StudyNode[];
  tags?: [string, string][];
  result?: string;
}

export interface Study {
  title: Note;
  intro?: Note;
  lesson?: string;
  topics?: string[];
  chapters: Chapter[];
}

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The text of a note in a language (the other one when that one is empty). */
export function noteText(n: Note | undefined, lang: 'zh' | 'en'): string {
  if (!n) return '';
  if (typeof n === 'string') return n;
  return (lang === 'zh' ? n.zh || n.en : n.en || n.zh) ?? '';
}

/** A note from its two texts: one string when they are the same, nothing when both are empty. */
export function makeNote(zh: string, en: string): Note | undefined {
  const z = zh.trim();
  const e = en.trim();
  if (!z && !e) return undefined;
  if (z === e || !e) return z;
  if (!z) return e;
  return { zh: z, en: e };
}

/** Both texts of a note (a single text in both). */
export function noteBoth(n: Note | undefined): { zh: string; en: string } {
  if (!n) return { zh: '', en: '' };
  if (typeof n === 'string') return { zh: n, en: n };
  return { zh: n.zh, en: n.en };
}

export function newChapter(name: Note, fen: string = START_FEN): Chapter {
  return { name, fen, moves: [] };
}

// ----- paths -----

/** The line a path's last number indexes into (`null` for the start or a path that is not there). */
function lineOf(ch: Chapter, path: Path): StudyNode[] | null {
  let line = ch.moves;
  for (let k = 0; k + 2 < path.length; k += 2) {
    const v = line[path[k]]?.variations?.[path[k + 1]];
    if (!v) return null;
    line = v;
  }
  return line;
}

export function nodeAt(ch: Chapter, path: Path): StudyNode | null {
  if (!path.length) return null;
  return lineOf(ch, path)?.[path[path.length - 1]] ?? null;
}

export function pathExists(ch: Chapter, path: Path): boolean {
  return path.length === 0 || nodeAt(ch, path) !== null;
}

/** The moves (SAN) from the start to the position at `path`. */
export function movesTo(ch: Chapter, path: Path): string[] {
  const out: string[] = [];
  let line = ch.moves;
  for (let k = 0; k < path.length; k += 2) {
    const i = path[k];
    if (k + 1 < path.length) {
      // Into variation path[k+1] of move i: the mainline up to (not including) move i, then the variation.
      out.push(...line.slice(0, i).map((n) => n.san));
      line = line[i]?.variations?.[path[k + 1]] ?? [];
    } else out.push(...line.slice(0, i + 1).map((n) => n.san));
  }
  return out;
}

export function positionOf(fen: string): Chess | null {
  const s = parseFen(fen);
  if (s.isErr) return null;
  const p = Chess.fromSetup(s.value);
  return p.isErr ? null : p.value;
}

/** The position at a path and the last move to it (for the board's highlight); `null` if a move is not legal. */
export function positionAt(ch: Chapter, path: Path): { pos: Chess; last: NormalMove | null } | null {
  const pos = positionOf(ch.fen);
  if (!pos) return null;
  let last: NormalMove | null = null;
  for (const san of movesTo(ch, path)) {
    const m = parseSan(pos, san);
    if (!m || !('from' in m)) return null;
    pos.play(m);
    last = m;
  }
  return { pos, last };
}

export function fenAt(ch: Chapter, path: Path): string | null {
  const p = positionAt(ch, path);
  return p ? makeFen(p.pos.toSetup()) : null;
}

/** The path after playing `san` at `path`: the move already there, a variation starting with it, or a new one. */
export function play(ch: Chapter, path: Path, san: string): Path {
  const line = path.length ? lineOf(ch, path)! : ch.moves;
  const prefix = path.slice(0, -1);
  const next = path.length ? path[path.length - 1] + 1 : 0;
  const there = line[next];
  if (!there) {
    line.push({ san });
    return [...prefix, next];
  }
  if (there.san === san) return [...prefix, next];
  const vars = (there.variations ??= []);
  const v = vars.findIndex((l) => l[0]?.san === san);
  if (v >= 0) return [...prefix, next, v, 0];
  vars.push([{ san }]);
  return [...prefix, next, vars.length - 1, 0];
}

/** The position before `path` (`[]` stays). */
export function prev(path: Path): Path {
  if (!path.length) return [];
  const last = path[path.length - 1];
  if (last > 0) return [...path.slice(0, -1), last - 1];
  if (path.length === 1) return [];
  // The first move of a variation of move i: the position before move i of the parent line.
  return prev(path.slice(0, -2));
}

/** The position after the next move of the line shown (`path` when it is the line's end). */
export function next(ch: Chapter, path: Path): Path {
  const line = path.length ? lineOf(ch, path) : ch.moves;
  const i = path.length ? path[path.length - 1] + 1 : 0;
  return line?.[i] ? [...path.slice(0, -1), i] : path;
}

/** The end of the line shown. */
export function lineEnd(ch: Chapter, path: Path): Path {
  let p = path;
  for (let n = next(ch, p); !samePath(n, p); n = next(ch, p)) p = n;
  return p;
}

/** Deletes the move at `path` and what follows it in its line; a variation left empty goes. Returns where to go. */
export function remove(ch: Chapter, path: Path): Path {
  if (!path.length) return [];
  const line = lineOf(ch, path);
  if (!line) return [];
  const i = path[path.length - 1];
  line.splice(i);
  if (!line.length && path.length > 1) {
    const owner = nodeAt(ch, path.slice(0, -2));
    const vars = owner?.variations;
    if (vars) {
      vars.splice(path[path.length - 2], 1);
      if (!vars.length) delete owner.variations;
    }
  }
  return prev(path);
}

/** The annotations of a position: the chapter's own at the start, the node's after a move. */
export function annotated(ch: Chapter, path: Path): Chapter | StudyNode | null {
  return path.length ? nodeAt(ch, path) : ch;
}

export function setComment(ch: Chapter, path: Path, note: Note | undefined): void {
  const a = annotated(ch, path);
  if (!a) return;
  if (note === undefined) delete a.comment;
  else a.comment = note;
}

export function setShapes(ch: Chapter, path: Path, shapes: Shape[]): void {
  const a = annotated(ch, path);
  if (!a) return;
  if (shapes.length) a.shapes = shapes;
  else delete a.shapes;
}

export function setStep(ch: Chapter, path: Path, step: Step | undefined): void {
  const a = annotated(ch, path);
  if (!a) return;
  if (step) a.step = step;
  else delete a.step;
}

/** Turns a NAG on or off; the move-quality signs (1–6) exclude each other. */
export function toggleNag(ch: Chapter, path: Path, nag: number): void {
  const n = nodeAt(ch, path);
  if (!n) return;
  const had = n.nags?.includes(nag);
  let nags = (n.nags ?? []).filter((x) => x !== nag && !(nag <= 6 && x <= 6));
  if (!had) nags = [...nags, nag].sort((a, b) => a - b);
  if (nags.length) n.nags = nags;
  else delete n.nags;
}

/** The SAN of a legal move in a position. */
export function sanOf(pos: Chess, m: NormalMove): string {
  return makeSan(pos, m);
}

export function samePath(a: Path | null | undefined, b: Path | null | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The interactive steps of a chapter in the order a reader meets them (the start, then the lines, depth first). */
export function stepPaths(ch: Chapter): Path[] {
  const out: Path[] = [];
  if (ch.step) out.push([]);
  const walk = (line: StudyNode[], prefix: Path) => {
    line.forEach((n, i) => {
      if (n.step) out.push([...prefix, i]);
      (n.variations ?? []).forEach((v, vi) => walk(v, [...prefix, i, vi]));
    });
  };
  walk(ch.moves, []);
  return out;
}

// ----- present mode: a reader's state -----

/** Where a study is shown: a chapter and a path in it. */
export interface Place {
  chapter: number;
  path: Path;
}

export interface FollowState {
  /** The teacher presents now (a position was received and the teacher has not stopped). */
  live: boolean;
  /** This reader follows the teacher (until they explore alone). */
  following: boolean;
  /** The teacher stopped presenting and let the readers go (until the next position). */
  released: boolean;
  /** The teacher's last position. */
  teacher: Place | null;
  /** What this reader's board shows. */
  shown: Place;
}

export type FollowEvent =
  | { t: 'position'; place: Place }
  | { t: 'released' }
  | { t: 'release' }
  | { t: 'rejoin' }
  | { t: 'goto'; place: Place };

export function followStart(): FollowState {
  return { live: false, following: true, released: false, teacher: null, shown: { chapter: 0, path: [] } };
}

/**
 * The reader's present mode: the teacher's positions move the board while following; a reader explores alone
 * (`release`: their own choice) and `rejoin`s where the teacher is. When the teacher stops and lets everyone go
 * (`released`), each reader is free, and the teacher's next position brings them all back.
 */
export function follow(s: FollowState, e: FollowEvent): FollowState {
  switch (e.t) {
    case 'position':
      return { ...s, live: true, released: false, teacher: e.place, shown: s.following ? e.place : s.shown };
    case 'released':
      return { ...s, live: false, following: true, released: true };
    case 'release':
      return { ...s, following: false };
    case 'rejoin':
      return { ...s, following: true, shown: s.teacher ?? s.shown };
    case 'goto':
      // While the teacher presents, a reader who follows cannot wander off: only when let go.
      if (s.live && s.following) return s;
      return { ...s, shown: e.place };
  }
}

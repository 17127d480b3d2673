// SPDX-License-Identifier: GPL-3.0-or-later
// 班级 / Classes: what the pages compute from the server's answers, without the DOM (unit-tested in
// web/test/class-ctrl.test.ts): the dashboard's grid of students × assignments, the weakest themes, the order of a
// student's homework, where an assignment is done.

import type { Assignment, ClassProgress, Homework, Mark, WeakTheme } from './xhr';

export interface GridRow {
  username: string;
  name: string | null;
  /** One mark per assignment, in the order of `GridModel.assignments` (`open` when the server names none). */
  marks: Mark[];
  /** Assignments done on time. */
  done: number;
  puzzles: { solved: number; failed: number };
  /** Games played to the end. */
  games: number;
  lastSeen: number | null;
}

export interface GridModel {
  assignments: Assignment[];
  rows: GridRow[];
  /**
   * Per assignment: how many students did it on time (a `late` mark is also work not done by the due date: the
   * server does not tell the two apart).
   */
  doneBy: number[];
}

/** The dashboard's grid: the students by name, the assignments in the order given (oldest first). */
export function grid(p: ClassProgress): GridModel {
  const assignments = p.assignments;
  const rows = [...p.students]
    .sort((a, b) => a.username.localeCompare(b.username))
    .map((s) => {
      const marks = assignments.map((a) => markOf(a.students?.[s.username]));
      return {
        username: s.username,
        name: s.name ?? null,
        marks,
        done: marks.filter((m) => m === 'done').length,
        puzzles: { solved: s.puzzles?.solved ?? 0, failed: s.puzzles?.failed ?? 0 },
        games: s.games?.played ?? 0,
        lastSeen: s.last_seen ?? null,
      };
    });
  const doneBy = assignments.map((_, i) => rows.filter((r) => r.marks[i] === 'done').length);
  return { assignments: assignments.map(({ students: _s, ...a }) => a), rows, doneBy };
}

export function markOf(x: unknown): Mark {
  return x === 'done' || x === 'late' ? x : 'open';
}

/** A weak theme with the share of its tries that were solved (0 to 1). */
export interface Weak {
  theme: string;
  solved: number;
  failed: number;
  success: number;
}

/**
 * The themes the class does worst at: tried at least `minTries` times, the lowest share solved first (computed
 * from the counts: the server's `rate` is the share failed), at most `n`.
 */
export function weakest(themes: WeakTheme[], n = 5, minTries = 1): Weak[] {
  return themes
    .filter((w) => w.solved + w.failed >= minTries)
    .map((w) => ({ theme: w.theme, solved: w.solved, failed: w.failed, success: w.solved / Math.max(1, w.solved + w.failed) }))
    .sort((a, b) => a.success - b.success || b.failed - a.failed || a.theme.localeCompare(b.theme))
    .slice(0, n);
}

/** A student's homework in the order to do it: what is open first (the soonest due first, undated last), then the done. */
export function homeworkOrder(list: Homework[]): Homework[] {
  const due = (a: Homework) => a.due ?? Number.MAX_SAFE_INTEGER;
  return [...list].sort((a, b) => Number(a.done) - Number(b.done) || due(a) - due(b) || a.id.localeCompare(b.id));
}

/** Whether an open assignment's due date has passed at `now`. */
export function overdue(a: Homework, now: number): boolean {
  return !a.done && a.due != null && a.due < now;
}

/** The page where the assignment is done. */
export function workLink(a: Assignment): string {
  const e = encodeURIComponent;
  switch (a.kind) {
    case 'lesson':
      return a.lesson ? `/learn/${e(a.lesson)}` : '/learn';
    case 'chapter':
      return a.chapter ? `/learn#${e(a.chapter)}` : '/learn';
    case 'puzzles':
      if (a.puzzles?.length) return `/puzzle/${e(a.puzzles[0])}`;
      return a.theme ? `/puzzle?theme=${e(a.theme)}` : '/puzzle';
    case 'computer':
      return a.level ? `/?computer=${a.level}` : '/';
    case 'study':
      return a.study ? `/study/${e(a.study)}` : '/';
    case 'tournament':
      return a.tournament ? `/tournament/${e(a.tournament)}` : '/tournaments';
  }
}

/** A number the teacher typed, kept within [min, max]; NaN or empty gives `fallback`. */
export function clampInt(raw: string, min: number, max: number, fallback: number): number {
  const n = Math.floor(Number(raw));
  if (!raw.trim() || !Number.isFinite(n)) return fallback;
  return Math.max(min, Math.min(max, n));
}

/** A `datetime-local` or `date` input's value as milliseconds (a date alone: the end of that day), or undefined. */
export function dueFromInput(value: string): number | undefined {
  if (!value) return undefined;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59`) : new Date(value);
  const ms = d.getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

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
  done: number;
}

export interface GridModel {
  assignments: Assignment[];
  rows: GridRow[];
  /** Per assignment: how many students did it (on time or late). */
  doneBy: number[];
}

/** The dashboard's grid: the students by name, the assignments in the order given (oldest first). */
export function grid(p: ClassProgress): GridModel {
  const assignments = p.assignments;
  const rows = [...p.students]
    .sort((a, b) => a.username.localeCompare(b.username))
    .map((s) => {
      const marks = assignments.map((a) => markOf(a.students?.[s.username]));
      return { username: s.username, name: s.name ?? null, marks, done: marks.filter((m) => m !== 'open').length };
    });
  const doneBy = assignments.map((_, i) => rows.filter((r) => r.marks[i] !== 'open').length);
  return { assignments: assignments.map(({ students: _s, ...a }) => a), rows, doneBy };
}

export function markOf(x: unknown): Mark {
  return x === 'done' || x === 'late' ? x : 'open';
}

/**
 * The themes the class does worst at: tried at least `minTries` times, lowest success rate first (the rate
 * recomputed from the counts when the server's is missing), at most `n`.
 */
export function weakest(themes: WeakTheme[], n = 5, minTries = 1): WeakTheme[] {
  const rate = (w: WeakTheme) => (Number.isFinite(w.rate) ? w.rate : w.solved / Math.max(1, w.solved + w.failed));
  return themes
    .filter((w) => w.solved + w.failed >= minTries)
    .map((w) => ({ ...w, rate: rate(w) }))
    .sort((a, b) => a.rate - b.rate || b.failed - a.failed || a.theme.localeCompare(b.theme))
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

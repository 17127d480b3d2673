// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: what the browser keeps — a guest's puzzle rating, history and per-theme results (an
// account's are on the server), the chosen theme, and the best streak. Values read back are checked, so a broken
// or old entry gives the defaults instead of an error.

import { isDifficulty } from './xhr';
import type { Difficulty, Glicko } from './xhr';

const GUEST = 'gx.puzzle.guest';
const THEME = 'gx.puzzle.theme';
const DIFFICULTY = 'gx.puzzle.difficulty';
const STREAK = 'gx.puzzle.streak.best';

/** A guest's history is cut to this many rounds (newest kept). */
export const HISTORY_MAX = 200;

export interface HistoryEntry {
  id: string;
  win: boolean;
  rating_after: number;
  at: number;
  /** The motif ids of the puzzle (for the per-theme results). */
  motifs: string[];
  /** The puzzle's short number (第 1234 题), when it has one. */
  number?: number;
}

export interface GuestRecord {
  rating: Glicko;
  provisional: boolean;
  /** Newest first. */
  history: HistoryEntry[];
  themes: Record<string, { solved: number; failed: number }>;
}

/** A new player's rating until the server says where they start (1000 / 250, higher after the 学棋 course). */
export const DEFAULT_RATING: Glicko = { rating: 1000, deviation: 250, volatility: 0.06 };

export function emptyRecord(): GuestRecord {
  return { rating: { ...DEFAULT_RATING }, provisional: true, history: [], themes: {} };
}

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode: kept for this page only
  }
}

const num = (x: unknown, lo: number, hi: number): number | null =>
  typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi ? x : null;

/** A record read from storage, made safe to use. */
export function cleanRecord(raw: unknown): GuestRecord {
  const out = emptyRecord();
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Partial<GuestRecord>;
  const g = (r.rating ?? {}) as Partial<Glicko>;
  const rating = num(g.rating, 100, 4000);
  const deviation = num(g.deviation, 1, 500);
  const volatility = num(g.volatility, 0.0001, 1);
  if (rating !== null && deviation !== null && volatility !== null) out.rating = { rating, deviation, volatility };
  out.provisional = typeof r.provisional === 'boolean' ? r.provisional : out.rating.deviation > 110;
  if (Array.isArray(r.history)) {
    for (const e of r.history as Partial<HistoryEntry>[]) {
      if (!e || typeof e.id !== 'string' || typeof e.win !== 'boolean') continue;
      out.history.push({
        id: e.id,
        win: e.win,
        rating_after: num(e.rating_after, 0, 5000) ?? 0,
        at: num(e.at, 0, Number.MAX_SAFE_INTEGER) ?? 0,
        motifs: Array.isArray(e.motifs) ? e.motifs.filter((m): m is string => typeof m === 'string') : [],
        number: num(e.number, 1, Number.MAX_SAFE_INTEGER) ?? undefined,
      });
      if (out.history.length >= HISTORY_MAX) break;
    }
  }
  if (r.themes && typeof r.themes === 'object') {
    for (const [id, v] of Object.entries(r.themes as Record<string, unknown>)) {
      const s = (v ?? {}) as { solved?: unknown; failed?: unknown };
      const solved = num(s.solved, 0, 1e9);
      const failed = num(s.failed, 0, 1e9);
      if (solved !== null && failed !== null) out.themes[id] = { solved, failed };
    }
  }
  return out;
}

export function guestRecord(): GuestRecord {
  return cleanRecord(read(GUEST));
}

/** The record after one round: the new rating, the round on top of the history, the puzzle's motifs counted. */
export function withRound(rec: GuestRecord, e: HistoryEntry, rating: Glicko, provisional: boolean): GuestRecord {
  const themes = { ...rec.themes };
  for (const m of new Set(e.motifs)) {
    const s = themes[m] ?? { solved: 0, failed: 0 };
    themes[m] = e.win ? { solved: s.solved + 1, failed: s.failed } : { solved: s.solved, failed: s.failed + 1 };
  }
  return {
    rating,
    provisional,
    history: [e, ...rec.history.filter((h) => h.id !== e.id)].slice(0, HISTORY_MAX),
    themes,
  };
}

export function saveGuestRecord(rec: GuestRecord): void {
  write(GUEST, rec);
}

/** The theme chosen last (`seed-N` or a motif id), or null for any. */
export function savedTheme(): string | null {
  const v = read(THEME);
  return typeof v === 'string' && /^[a-z0-9_-]{1,40}$/.test(v) ? v : null;
}

export function saveTheme(theme: string | null): void {
  if (theme) write(THEME, theme);
  else {
    try {
      localStorage.removeItem(THEME);
    } catch {
      // nothing kept
    }
  }
}

/** The difficulty chosen in this browser (an account's is also kept on the server), null before a choice. */
export function savedDifficulty(): Difficulty | null {
  const v = read(DIFFICULTY);
  return isDifficulty(v) ? v : null;
}

export function saveDifficulty(d: Difficulty): void {
  write(DIFFICULTY, d);
}

export function bestStreak(): number {
  return num(read(STREAK), 0, 1e6) ?? 0;
}

export function saveBestStreak(n: number): void {
  if (n > bestStreak()) write(STREAK, Math.floor(n));
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The server's HTTP API (JSON). These shapes are not generated (they are plain JSON handlers, see docs/api.md);
// only what the UI reads is typed.

import type { Color, LiveGame } from './protocol';

export interface ApiErrorBody {
  error: string;
  code: string;
  message_zh: string;
}

export class HttpError extends Error {
  constructor(
    public status: number,
    public code: string,
    public en: string,
    public zh: string,
  ) {
    super(en);
  }
}

export interface Perf {
  rating: number;
  rd: number;
  prov: boolean;
  games: number;
}

export type Speed = 'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence';
export const SPEEDS: Speed[] = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

export interface Me {
  id: string;
  username: string;
  guest: boolean;
  points: number;
  level_zh: string;
  level_en: string;
  ratings: Partial<Record<Speed, Perf>>;
  playing: string[];
}

export interface AuthAnswer {
  user: { id: string; username: string; guest: boolean };
  session: string;
}

export interface Level {
  level: number;
  name_zh: string;
  name_en: string;
  elo: number;
}

export interface Profile {
  id: string;
  username: string;
  guest: boolean;
  createdAt: number;
  perfs: Partial<Record<Speed, Perf>>;
  points: number;
  level: number;
  level_zh: string;
  level_en: string;
  count: { all: number };
  online: boolean;
  playing: string[];
}

export interface RatingPoint {
  speed: Speed;
  game_id: string;
  at: number;
  rating: number;
  rd: number;
}

export interface ExportPlayer {
  user?: { name: string; id: string };
  aiLevel?: number;
  rating?: number;
  ratingDiff?: number;
}

export interface ExportGame {
  id: string;
  rated: boolean;
  speed: string;
  createdAt: number;
  status: string;
  players: { white: ExportPlayer; black: ExportPlayer };
  winner?: Color;
  moves: string;
  opening?: { eco: string; name: string; name_zh: string; ply: number };
}

export interface GamesPage {
  total: number;
  offset: number;
  games: ExportGame[];
}

/** `GET /api/game/{id}`: the server's game view. */
export interface GameView {
  id: string;
  initial_fen: string | null;
  fen: string;
  moves_uci: string[];
  moves_san: string[];
  status: string;
  result: string;
  termination: string | null;
  winner: Color | null;
  white: { id: string; name: string; is_engine: boolean; engine_level: number | null };
  black: { id: string; name: string; is_engine: boolean; engine_level: number | null };
}

export type Score = { cp: number } | { mate: number };

export interface AnalysisLine {
  depth: number;
  score: Score;
  pv: string[];
  pv_san: string[];
}

export interface Analysis {
  fen: string;
  turn: Color;
  depth: number;
  lines: AnalysisLine[];
  bestmove: string | null;
}

export interface Opening {
  eco: string;
  name_en: string;
  name_zh: string;
  ply: number;
}

/** The Lichess-style challenge of `GET /api/challenge/{id}/show` (what the UI reads). */
export interface ChallengeShow {
  id: string;
  status: 'created' | 'accepted' | 'declined' | 'canceled';
  challenger: { id: string; name: string; rating?: number };
  rated: boolean;
  color: 'white' | 'black' | 'random';
  timeControl: { type: string; show?: string; limit?: number; increment?: number; daysPerTurn?: number };
  direction?: 'in' | 'out';
  gameId?: string;
}

/** A text of the course in both languages. */
export interface LearnText {
  zh: string;
  en: string;
}

export type LearnStepKind = 'moves' | 'squares' | 'choice' | 'legal_moves' | 'play';

/** One step of a lesson (`docs/learn.md`); the fields beyond the first ones depend on `kind` (and `goal`). */
export interface LearnStep {
  kind: LearnStepKind;
  fen: string;
  prompt: LearnText;
  hint: LearnText;
  success: LearnText;
  orientation: Color;
  solutions: string[][];
  goal?: string;
  stars?: string[];
  count?: number;
  target?: string;
  side?: 'king' | 'queen';
  role?: string;
  from?: string;
  lines?: string[][];
  targets?: string[];
  answer?: (string | number)[];
  choices?: LearnText[];
  candidates?: string[];
  level?: number;
  max_moves?: number;
}

export interface LearnLesson {
  id: string;
  chapter: string;
  chapter_title: LearnText;
  chapter_order?: number;
  order: number;
  topics: string[];
  title: LearnText;
  intro: LearnText | null;
  steps: LearnStep[];
}

export interface LearnChapter {
  id: string;
  order: number;
  title: LearnText;
  summary: LearnText;
  lessons: LearnLesson[];
}

export interface LearnCourse {
  chapters: LearnChapter[];
}

/** `POST /api/learn/try`: the step's whole try history (one of the answer fields). */
export interface LearnTry {
  lesson: string;
  step: number;
  moves?: string[];
  squares?: string[];
  choices?: number[];
  selected?: string[];
}

export interface LearnVerdict {
  ok: boolean;
  done: boolean;
  reply: string | null;
  fen: string | null;
  reason: { code: string; zh: string; en: string } | null;
  hint: LearnText | null;
  success: LearnText | null;
  remaining: string[] | null;
  found: string[] | null;
  /** Start the step again from its FEN with an empty history (a stars step out of moves). */
  restart?: boolean;
}

export interface LessonProgress {
  steps: number[];
  stars: number;
  done: boolean;
}

export interface LearnProgress {
  lessons: Record<string, LessonProgress>;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  }
  const r = await fetch(path, init);
  const text = await r.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!r.ok) {
    const e = (data ?? {}) as Partial<ApiErrorBody>;
    throw new HttpError(r.status, e.code ?? 'http_' + r.status, e.error ?? r.statusText, e.message_zh ?? e.error ?? r.statusText);
  }
  return data as T;
}

export const api = {
  me: () => request<Me>('GET', '/api/me'),
  /** The session's user, or null without a session (no 401 for a new visitor). */
  meOptional: () => request<Me | null>('GET', '/api/me?optional=true'),
  guest: () => request<AuthAnswer>('POST', '/api/guest'),
  login: (username: string, password: string) => request<AuthAnswer>('POST', '/api/login', { username, password }),
  register: (username: string, password: string) =>
    request<AuthAnswer>('POST', '/api/register', { username, password }),
  logout: () => request<{ ok: boolean }>('POST', '/api/logout'),
  levels: () => request<Level[]>('GET', '/api/levels'),
  profile: (name: string) => request<Profile>('GET', `/api/user/${encodeURIComponent(name)}`),
  ratingHistory: (name: string) => request<RatingPoint[]>('GET', `/api/user/${encodeURIComponent(name)}/rating-history`),
  games: (name: string, offset: number, limit: number) =>
    request<GamesPage>('GET', `/api/user/${encodeURIComponent(name)}/games?offset=${offset}&limit=${limit}`),
  game: (id: string) => request<GameView>('GET', `/api/game/${encodeURIComponent(id)}`),
  analyse: (q: { fen?: string; moves?: string[]; depth?: number; multipv?: number; movetime_ms?: number }) =>
    request<Analysis>('POST', '/api/analyse', q),
  opening: (uci: string[]) => request<Opening | null>('GET', `/api/opening?moves=${uci.join(',')}`),
  live: () => request<LiveGame[]>('GET', '/api/live'),
  challenge: (id: string) => request<ChallengeShow>('GET', `/api/challenge/${encodeURIComponent(id)}/show`),
  learn: () => request<LearnCourse>('GET', '/api/learn'),
  learnTry: (body: LearnTry) => request<LearnVerdict>('POST', '/api/learn/try', body),
  learnProgress: () => request<LearnProgress>('GET', '/api/learn/progress'),
  saveLearnProgress: (p: LearnProgress) => request<LearnProgress>('PUT', '/api/learn/progress', p),
};

export function pgnUrl(gameId: string): string {
  return `/game/export/${encodeURIComponent(gameId)}`;
}

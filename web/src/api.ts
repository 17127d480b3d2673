// SPDX-License-Identifier: GPL-3.0-or-later
// The server's HTTP API (JSON; docs/api.md "The server's own HTTP API"): the fetch helpers and the calls the
// pages make. The shapes of the answers and bodies are generated from the server's Rust types (protocol_http.ts,
// protocol_review.ts); only the Lichess-compatible challenge answer, which keeps Lichess's shape, is typed here.

import type { LiveGame } from './protocol';
import type {
  AnalyseAnswer,
  AnalyseRequest,
  ApiErrorBody,
  AuthAnswer,
  Credentials,
  GamesPage,
  GameView,
  LearnCourse,
  LearnProgress,
  LearnTry,
  LearnVerdict,
  Level,
  Me,
  OkAnswer,
  PasswordChange,
  SessionsEnded,
  OpeningName,
  Profile,
  RatingPoint,
} from './protocol_http';

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

/** The speeds a user's ratings are kept for, in the order the pages show them. */
export type Speed = 'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence';
export const SPEEDS: Speed[] = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** The Lichess-style challenge of `GET /api/challenge/{id}/show` (what the UI reads; Lichess's shape, not generated). */
export interface ChallengeShow {
  id: string;
  status: 'created' | 'accepted' | 'declined' | 'canceled';
  challenger: { id: string; name: string; rating?: number };
  rated: boolean;
  color: 'white' | 'black' | 'random';
  timeControl: { type: string; show?: string; limit?: number; increment?: number; daysPerTurn?: number };
  direction?: 'in' | 'out';
  gameId?: string;
  /** Not Lichess's: the rule set of the game it will start, when not `online` (`docs/game.md`, "Rule sets"). */
  rules?: string;
}

let passwordChangeRequired: (() => void) | null = null;

/** What to do when the server answers 403 `password_change_required` (a reset password: a new one must be chosen first). */
export function onPasswordChangeRequired(fn: () => void): void {
  passwordChangeRequired = fn;
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
    if (r.status === 403 && e.code === 'password_change_required') passwordChangeRequired?.();
    throw new HttpError(r.status, e.code ?? 'http_' + r.status, e.error ?? r.statusText, e.message_zh ?? e.error ?? r.statusText);
  }
  return data as T;
}

export const api = {
  me: () => request<Me>('GET', '/api/me'),
  /** The session's user, or null without a session (no 401 for a new visitor). */
  meOptional: () => request<Me | null>('GET', '/api/me?optional=true'),
  guest: () => request<AuthAnswer>('POST', '/api/guest'),
  login: (username: string, password: string) =>
    request<AuthAnswer>('POST', '/api/login', { username, password } satisfies Credentials),
  register: (username: string, password: string) =>
    request<AuthAnswer>('POST', '/api/register', { username, password } satisfies Credentials),
  logout: () => request<OkAnswer>('POST', '/api/logout'),
  /** Ends every session of the user, this one too ("sign out everywhere"). */
  logoutAll: () => request<SessionsEnded>('POST', '/api/logout/all'),
  /** Changes the password; the user's other sessions end. */
  changePassword: (current: string, next: string) =>
    request<SessionsEnded>('POST', '/api/account/password', { current, new: next } satisfies PasswordChange),
  levels: () => request<Level[]>('GET', '/api/levels'),
  profile: (name: string) => request<Profile>('GET', `/api/user/${encodeURIComponent(name)}?format=guoxiang`),
  ratingHistory: (name: string) => request<RatingPoint[]>('GET', `/api/user/${encodeURIComponent(name)}/rating-history?format=guoxiang`),
  games: (name: string, offset: number, limit: number) =>
    request<GamesPage>('GET', `/api/user/${encodeURIComponent(name)}/games?offset=${offset}&limit=${limit}`),
  game: (id: string) => request<GameView>('GET', `/api/game/${encodeURIComponent(id)}`),
  analyse: (q: AnalyseRequest) => request<AnalyseAnswer>('POST', '/api/analyse', q),
  opening: (uci: string[]) => request<OpeningName | null>('GET', `/api/opening?moves=${uci.join(',')}`),
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

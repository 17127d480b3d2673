// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: the server calls of docs/api.md "Puzzles" and the shapes the trainer reads — the next
// puzzle, the themes, judging a try, a round's rating, the account's dashboard, and the daily puzzle (lichess's
// shape, turned into ours here).

import { HttpError } from '../../api';
import { positionFromFen, standardUci } from '../../chess';
import type { Color } from '../../protocol';
import type {
  ApiErrorBody,
  Bilingual,
  GlickoRating,
  LichessPuzzle,
  PuzzleAnswer,
  PuzzleDashboard,
  PuzzleMotif,
  PuzzleThemes,
  PuzzleTryRequest,
  PuzzleVerdict,
  PuzzleView,
  RoundAnswer,
  RoundRequest,
} from '../../protocol_http';
import { parseSan } from 'chessops/san';

// The server's shapes (generated from its Rust types), under the names the trainer uses.
export type { LichessPuzzle, RoundAnswer };
export type PuzzleText = Bilingual;
export type Themes = PuzzleThemes;
export type Verdict = PuzzleVerdict;
export type RoundBody = RoundRequest;
export type Dashboard = PuzzleDashboard;

/** A Glicko-2 rating as the browser keeps a guest's (the round request's, with the volatility always given). */
export type Glicko = Required<GlickoRating>;

/** A motif as the trainer shows it: the server's, with its name always there (the id when the server has none) and
 * without the tagger's sentence when the puzzle came in lichess's shape. */
export type Motif = Omit<PuzzleMotif, 'zh' | 'en' | 'text'> & { zh: string; en: string; text?: Bilingual };

/** The puzzle the trainer plays: the server's `PuzzleView`, or one read from lichess's shape, which lacks the
 * deviation, the source and the motifs' sentences. `moves[0]` is the opponent's setup move, then solver, opponent, … */
export type Puzzle = Omit<PuzzleView, 'motifs' | 'deviation' | 'source' | 'game_url'> & {
  motifs: Motif[];
  deviation?: number;
  source?: string;
  game_url: string | null;
};

/** The trainer's puzzle from the server's own shape. */
function fromView(p: PuzzleView): Puzzle {
  return { ...p, motifs: p.motifs.map((m) => ({ ...m, zh: m.zh ?? m.id, en: m.en ?? m.id })), game_url: p.game_url || null };
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    const e = (data ?? {}) as Partial<ApiErrorBody>;
    throw new HttpError(r.status, e.code ?? 'http_' + r.status, e.error ?? r.statusText, e.message_zh ?? e.error ?? r.statusText);
  }
  return data as T;
}

/** How far from the player's rating the puzzles are asked for (lichess's names; the server's `difficulty`). */
export const DIFFICULTIES = ['easiest', 'easier', 'normal', 'harder', 'hardest'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const isDifficulty = (x: unknown): x is Difficulty => typeof x === 'string' && (DIFFICULTIES as readonly string[]).includes(x);

export interface NextQuery {
  theme?: string | null;
  rating?: number | null;
  exclude?: string[];
  /** Sent when chosen; an account's server remembers it. */
  difficulty?: Difficulty | null;
  /** A new guest's 学棋 lessons done (the server starts them from what the course implies). */
  course?: number | null;
}

/** What `next` answers besides the puzzle: the difficulty applied, and a new player's starting rating. */
export interface Next {
  puzzle: Puzzle;
  difficulty: Difficulty | null;
  newcomer: Glicko | null;
}

/** A puzzle near the rating (the account's, or a new player's start, when not given), of the theme and difficulty,
 * not one of `exclude`. */
export async function nextPuzzle(q: NextQuery): Promise<Next> {
  const p = new URLSearchParams({ format: 'guoxiang' });
  if (q.theme) p.set('theme', q.theme);
  if (q.rating) p.set('rating', String(Math.round(q.rating)));
  if (q.exclude?.length) p.set('exclude', q.exclude.slice(-200).join(','));
  if (q.difficulty) p.set('difficulty', q.difficulty);
  if (q.course) p.set('course', String(Math.max(0, Math.min(1000, Math.floor(q.course)))));
  const a = await request<PuzzleAnswer>('GET', '/api/puzzle/next?' + p.toString());
  const n = a.newcomer;
  return {
    puzzle: fromView(a.puzzle),
    difficulty: isDifficulty(a.difficulty) ? a.difficulty : null,
    newcomer: n ? { rating: n.rating, deviation: n.deviation, volatility: n.volatility ?? 0.06 } : null,
  };
}

let themes: Promise<Themes> | null = null;

/** The catalogue of themes with their counts (fetched once per page load; again after a failure). */
export function loadThemes(): Promise<Themes> {
  if (!themes) {
    themes = request<Themes>('GET', '/api/puzzle/themes');
    themes.catch(() => {
      themes = null;
    });
  }
  return themes;
}

/** Judges the moves after the setup move, the last one being the solver's try; `chineseLetters`: the moves in the
 * server's sentences with Chinese piece letters (…车xd2), the learner's choice. */
export function tryMoves(id: string, moves: string[], chineseLetters = false): Promise<Verdict> {
  const q = chineseLetters ? '?letters=zh' : '';
  return request<Verdict>('POST', `/api/puzzle/${encodeURIComponent(id)}/try${q}`, { moves } satisfies PuzzleTryRequest);
}

export function sendRound(id: string, body: RoundBody): Promise<RoundAnswer> {
  return request<RoundAnswer>('POST', `/api/puzzle/${encodeURIComponent(id)}/round`, body);
}

export function dashboard(): Promise<Dashboard> {
  return request<Dashboard>('GET', '/api/puzzle/dashboard');
}

/**
 * The puzzle with this id, in our shape. `format=guoxiang` asks for our puzzle object (with the motifs' sentences);
 * a server that answers in lichess's shape only is read as well.
 */
export async function puzzleById(id: string): Promise<Puzzle> {
  return fromAnswer(await request<LichessPuzzle | PuzzleAnswer>('GET', `/api/puzzle/${encodeURIComponent(id)}?format=guoxiang`));
}

/** Today's puzzle, in our shape. */
export async function dailyPuzzle(): Promise<Puzzle> {
  return fromAnswer(await request<LichessPuzzle>('GET', '/api/puzzle/daily'));
}

function fromAnswer(a: LichessPuzzle | PuzzleAnswer): Puzzle {
  return 'game' in a ? fromLichess(a) : fromView(a.puzzle);
}

/**
 * Our puzzle from lichess's shape: the setup move is the last SAN of `game.pgn`, played from `puzzle.fen`; the
 * solution follows it. The motifs come as ids only (their names are looked up in the themes).
 */
export function fromLichess(a: LichessPuzzle): Puzzle {
  const p = a.puzzle;
  const pos = positionFromFen(p.fen);
  if (!pos) throw new Error(`puzzle ${p.id}: a FEN that cannot be read`);
  const sans = a.game.pgn
    .replace(/\{[^}]*\}/g, ' ')
    .split(/\s+/)
    .filter((s) => s && !/^\d+\.+$/.test(s) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(s));
  const last = (sans[sans.length - 1] ?? '').replace(/^\d+\.+/, '');
  const m = last ? parseSan(pos, last) : undefined;
  if (!m || !('from' in m)) throw new Error(`puzzle ${p.id}: the setup move ${last || '?'} cannot be played`);
  const setup = standardUci(pos, m);
  const solver: Color = pos.turn === 'white' ? 'black' : 'white';
  return {
    id: p.id,
    fen: p.fen,
    moves: [setup, ...p.solution],
    solver,
    rating: p.rating,
    plays: p.plays,
    motifs: (p.motifs ?? []).map((id) => ({ id, zh: id, en: id })),
    lichess_themes: p.themes,
    number: p.number ?? 0,
    game_url: a.game.id ? `https://lichess.org/${a.game.id}` : null,
  };
}

/** Fills in names (and the catalogue's line about the motif) for motifs known only by id. */
export function nameMotifs(p: Puzzle, th: Themes | null): Puzzle {
  if (!th) return p;
  const byId = new Map(th.motifs.map((m) => [m.id, m]));
  return {
    ...p,
    motifs: p.motifs.map((m) => {
      const c = byId.get(m.id);
      if (!c) return m;
      return { ...m, zh: m.zh === m.id ? c.zh : m.zh, en: m.en === m.id ? c.en : m.en, seed: m.seed ?? c.seed ?? undefined };
    }),
  };
}

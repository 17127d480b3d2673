// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: the server calls (crates/http/src/http/study.rs, docs/api.md "Studies") and the shapes they answer.

import { HttpError, request } from '../../api';
import type { LearnVerdict } from '../../protocol_http';
import type { Path, Study } from './model';

export type Visibility = 'private' | 'class' | 'public';

/** A study in a list (`GET /api/study`), or whole (`study`, from `GET /api/study/{id}`). */
export interface StudyView {
  id: string;
  title: string;
  owner: string;
  visibility: Visibility;
  class: string | null;
  created_at_ms: number;
  updated_at_ms: number;
  /** The caller owns it (and may change it). */
  mine: boolean;
  study?: Study;
}

/** A try at an interactive step: where it is and exactly one of the answers. */
export interface StudyTry {
  chapter: number;
  path: Path;
  moves?: string[];
  squares?: string[];
  choices?: number[];
  selected?: string[];
}

const base = (id: string) => `/api/study/${encodeURIComponent(id)}`;

/** Sends a text body (a PGN) and reads the JSON answer, with the server's error as `request` gives it. */
async function postText<T>(path: string, text: string): Promise<T> {
  const r = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-chess-pgn' },
    body: text,
  });
  const raw = await r.text();
  const data = raw ? (JSON.parse(raw) as Record<string, string>) : {};
  if (!r.ok) throw new HttpError(r.status, data.code ?? `http_${r.status}`, data.error ?? r.statusText, data.message_zh ?? data.error ?? r.statusText);
  return data as T;
}

export const studyApi = {
  list: () => request<{ studies: StudyView[] }>('GET', '/api/study'),
  create: (title: string) => request<StudyView>('POST', '/api/study', { title }),
  fromLesson: (lesson: string) => request<StudyView>('POST', `/api/study/from-lesson/${encodeURIComponent(lesson)}`),
  get: (id: string) => request<StudyView>('GET', base(id)),
  save: (id: string, study: Study, visibility: Visibility, cls: string | null) =>
    request<StudyView>('PUT', base(id), { ...study, visibility, class: visibility === 'class' ? cls : null }),
  remove: (id: string) => request<unknown>('DELETE', base(id)),
  importPgn: (id: string, pgn: string) => postText<{ added: number[]; chapters: number }>(`${base(id)}/chapters/pgn`, pgn),
  judge: (id: string, body: StudyTry) => request<LearnVerdict>('POST', `${base(id)}/try`, body),
  pgnUrl: (id: string, chapter: number) => `${base(id)}/chapters/${chapter}.pgn`,
  tomlUrl: (id: string) => `${base(id)}.toml`,
};

// SPDX-License-Identifier: GPL-3.0-or-later
// The tournament endpoints (docs/api.md "Tournaments"; the shapes are generated from the server's types).

import { request } from '../../api';
import type {
  AddArbiter,
  AddPlayer,
  ForbiddenPair,
  NewTournament,
  PlayerList,
  PlayerNumber,
  ResultEntry,
  TournamentList,
  TournamentView,
  TrfImport,
} from '../../protocol_http';

const base = (id: string) => `/api/tournament/${encodeURIComponent(id)}`;

export const tourApi = {
  list: () => request<TournamentList>('GET', '/api/tournaments'),
  create: (body: NewTournament) => request<TournamentView>('POST', '/api/tournaments', body),
  importTrf: (body: TrfImport) => request<TournamentView>('POST', '/api/tournaments/import', body),
  get: (id: string) => request<TournamentView>('GET', base(id)),
  join: (id: string) => request<TournamentView>('POST', `${base(id)}/join`),
  leave: (id: string) => request<TournamentView>('POST', `${base(id)}/leave`),
  start: (id: string) => request<TournamentView>('POST', `${base(id)}/start`),
  pair: (id: string) => request<TournamentView>('POST', `${base(id)}/pair`),
  result: (id: string, body: ResultEntry) => request<TournamentView>('POST', `${base(id)}/result`, body),
  withdraw: (id: string, body: PlayerNumber) => request<TournamentView>('POST', `${base(id)}/withdraw`, body),
  addPlayer: (id: string, body: AddPlayer) => request<TournamentView>('POST', `${base(id)}/player`, body),
  addList: (id: string, body: PlayerList) => request<TournamentView>('POST', `${base(id)}/players`, body),
  addArbiter: (id: string, body: AddArbiter) => request<TournamentView>('POST', `${base(id)}/arbiter`, body),
  forbid: (id: string, body: ForbiddenPair) => request<TournamentView>('POST', `${base(id)}/forbid`, body),
  bye: (id: string, body: PlayerNumber) => request<TournamentView>('POST', `${base(id)}/bye`, body),
  pgnUrl: (id: string) => `${base(id)}/pgn`,
  trfUrl: (id: string) => `${base(id)}/trf`,
};

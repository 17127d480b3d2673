// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board's state and its reducer (no DOM): the move tree and the place shown, and what the engine panel
// shows. The engine's frames are taken only when they are about the search last asked for *and* the position now
// shown (the FEN each frame carries); anything else is dropped, so an old position's line never appears. Tree
// operations change `tree` in place (it is large and only this page holds it); the state object itself is new
// after every action that changed something.

import type { AnalysisEnd, AnalysisLine, AnalysisServerMessage } from '../../protocol_analysis';
import {
  fenAt,
  lineEnd,
  next,
  play,
  prev,
  promote,
  remove,
  sibling,
  validPath,
} from '../../analysis/tree';
import type { Tree } from '../../analysis/tree';

export type EngineStatus = 'off' | 'idle' | 'waiting' | 'running' | 'done' | 'hidden' | 'error';

export interface EngineView {
  on: boolean;
  multipv: number;
  status: EngineStatus;
  /** The search last asked for: its id and the position it is about. */
  search: number | null;
  fen: string | null;
  lines: AnalysisLine[];
  depth: number;
  nps: number;
  end: AnalysisEnd | null;
  /** Why the search could not run, in both languages. */
  error: { zh: string; en: string } | null;
}

export interface State {
  tree: Tree;
  path: number[];
  title: string;
  /** Bumped on every change of the tree's shape (so views know to redraw it). */
  treeVersion: number;
  engine: EngineView;
  /** Whether the page is visible (the engine pauses when it is not). */
  visible: boolean;
}

export type Action =
  | { type: 'load'; tree: Tree; title: string; path?: number[] }
  | { type: 'goto'; path: readonly number[] }
  | { type: 'play'; uci: string }
  | { type: 'nav'; to: 'next' | 'prev' | 'up' | 'down' | 'first' | 'last' }
  | { type: 'promote'; toMain: boolean }
  | { type: 'delete' }
  | { type: 'comment' }
  | { type: 'engine'; on: boolean }
  | { type: 'multipv'; n: number }
  | { type: 'visible'; visible: boolean }
  | { type: 'requested'; id: number; fen: string }
  /** A new connection (or `resume`): nothing is being searched; ask again. */
  | { type: 'reconnected' }
  | { type: 'server'; msg: AnalysisServerMessage }
  | { type: 'failed'; zh: string; en: string };

export function initialEngine(on: boolean, multipv: number): EngineView {
  return {
    on,
    multipv: Math.max(1, Math.min(5, Math.round(multipv) || 1)),
    status: on ? 'idle' : 'off',
    search: null,
    fen: null,
    lines: [],
    depth: 0,
    nps: 0,
    end: null,
    error: null,
  };
}

export function initialState(tree: Tree, engineOn = true, multipv = 1): State {
  return { tree, path: [], title: '', treeVersion: 0, engine: initialEngine(engineOn, multipv), visible: true };
}

/** The FEN of the position shown. */
export function currentFen(s: State): string {
  return fenAt(s.tree, s.path);
}

/** Whether the engine should be searching the position shown now but has not been asked to. */
export function needsSearch(s: State): boolean {
  return s.engine.on && s.visible && s.engine.fen !== currentFen(s);
}

/** The engine view after a change of position: nothing of the old position's search is shown. */
function cleared(e: EngineView): EngineView {
  return { ...e, lines: [], depth: 0, nps: 0, end: null, error: null, status: e.on ? 'idle' : 'off', search: null, fen: null };
}

function moved(s: State, path: number[], treeChanged = false): State {
  const same = path.length === s.path.length && path.every((id, i) => id === s.path[i]);
  if (same && !treeChanged) return s;
  const out: State = { ...s, path, treeVersion: treeChanged ? s.treeVersion + 1 : s.treeVersion };
  return currentFen(out) === s.engine.fen ? out : { ...out, engine: cleared(s.engine) };
}

export function reduce(s: State, a: Action): State {
  switch (a.type) {
    case 'load': {
      const out: State = { ...s, tree: a.tree, title: a.title, path: validPath(a.tree, a.path ?? []), treeVersion: s.treeVersion + 1 };
      return { ...out, engine: cleared(s.engine) };
    }
    case 'goto':
      return moved(s, validPath(s.tree, a.path));
    case 'play': {
      const before = s.tree.nextId;
      const p = play(s.tree, s.path, a.uci);
      if (!p) return s;
      return moved(s, p, s.tree.nextId !== before);
    }
    case 'nav': {
      const t = s.tree;
      const to =
        a.to === 'next'
          ? next(t, s.path)
          : a.to === 'prev'
            ? prev(t, s.path)
            : a.to === 'up'
              ? sibling(t, s.path, -1)
              : a.to === 'down'
                ? sibling(t, s.path, 1)
                : a.to === 'first'
                  ? []
                  : lineEnd(t, s.path);
      return moved(s, to);
    }
    case 'promote':
      return promote(s.tree, s.path, a.toMain) ? { ...s, treeVersion: s.treeVersion + 1 } : s;
    case 'delete': {
      if (!s.path.length) return s;
      return moved(s, remove(s.tree, s.path), true);
    }
    case 'comment':
      return { ...s, treeVersion: s.treeVersion + 1 };
    case 'engine': {
      if (a.on === s.engine.on) return s;
      return { ...s, engine: cleared({ ...s.engine, on: a.on }) };
    }
    case 'multipv': {
      const n = Math.max(1, Math.min(5, Math.round(a.n)));
      if (n === s.engine.multipv) return s;
      // Asked again with the new number of lines.
      return { ...s, engine: cleared({ ...s.engine, multipv: n }) };
    }
    case 'visible': {
      if (a.visible === s.visible) return s;
      const engine = a.visible ? cleared(s.engine) : { ...s.engine, status: s.engine.on ? ('hidden' as const) : ('off' as const), search: null, fen: null };
      return { ...s, visible: a.visible, engine };
    }
    case 'requested':
      if (a.fen !== currentFen(s) || !s.engine.on) return s;
      return { ...s, engine: { ...cleared(s.engine), search: a.id, fen: a.fen, status: 'waiting' } };
    case 'reconnected':
      return { ...s, engine: cleared(s.engine) };
    case 'failed':
      return { ...s, engine: { ...s.engine, status: 'error', error: { zh: a.zh, en: a.en } } };
    case 'server':
      return onServer(s, a.msg);
  }
}

function onServer(s: State, m: AnalysisServerMessage): State {
  const e = s.engine;
  if (m.t === 'ack') return s;
  // Only the search last asked for, and only while its position is the one shown.
  if (m.id === null || m.id !== e.search || !e.on) return s;
  if (m.t === 'error') return { ...s, engine: { ...e, status: 'error', error: { zh: m.message_zh, en: m.message_en } } };
  if (m.fen !== e.fen || m.fen !== currentFen(s)) return s;
  switch (m.t) {
    case 'started':
      return { ...s, engine: { ...e, status: 'running' } };
    case 'info':
      return { ...s, engine: { ...e, status: 'running', lines: m.lines, depth: m.depth, nps: m.nps } };
    case 'done':
      return {
        ...s,
        engine: {
          ...e,
          status: 'done',
          end: m.reason,
          lines: m.lines.length ? m.lines : e.lines,
          depth: Math.max(m.depth, m.lines.length ? 0 : e.depth),
          nps: m.time_ms > 0 ? Math.round((m.nodes * 1000) / m.time_ms) : e.nps,
        },
      };
  }
}

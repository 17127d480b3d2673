// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer panel (开局库) for the analysis board: the moves played in the position over this server's
// games or the host's imported databases (GET /api/explorer, docs/explorer.md), with results and average rating,
// the opening's name, ECO code and family, a source switch and speed and rating filters. Self-contained: the page
// places `el`, calls `show(fen, moves)` whenever the position changes, and gets a clicked move through `onMove`.

import { HttpError, request } from '../api';
import { h } from '../dom';
import { onLangChange, pick } from '../i18n';
import type { ExplorerAnswer, ExplorerMove, ExplorerSource } from '../protocol_http';

export const EXPLORER_SPEEDS = ['ultrabullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type ExplorerSpeed = (typeof EXPLORER_SPEEDS)[number];
export const EXPLORER_RATINGS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;

export interface ExplorerQuery {
  fen: string;
  moves: string[];
  source: ExplorerSource;
  speeds: ExplorerSpeed[];
  ratings: number[];
}

export function explorerUrl(q: ExplorerQuery): string {
  const p = new URLSearchParams();
  if (q.fen) p.set('fen', q.fen);
  if (q.moves.length) p.set('moves', q.moves.join(','));
  p.set('source', q.source);
  if (q.speeds.length) p.set('speeds', q.speeds.join(','));
  if (q.ratings.length) p.set('ratings', q.ratings.join(','));
  return `/api/explorer?${p.toString()}`;
}

// The same names as the rest of the UI (i18n.ts `speed.*`); ultrabullet (under 30 s) has none there.
const SPEED_NAMES: Record<ExplorerSpeed, [string, string]> = {
  ultrabullet: ['极速棋', 'UltraBullet'],
  bullet: ['超快棋', 'Bullet'],
  blitz: ['快棋', 'Blitz'],
  rapid: ['快速棋', 'Rapid'],
  classical: ['慢棋', 'Classical'],
  correspondence: ['通讯棋', 'Correspondence'],
};

function ratingLabel(b: number): string {
  return b === 0 ? '<1000' : b === 2500 ? '2500+' : String(b);
}

export interface ExplorerPanel {
  el: HTMLElement;
  /** Shows the position reached by `moves` (UCI) from `fen` (empty: the standard start). */
  show(fen: string, moves: string[]): void;
  /** Called with a move's UCI when its row is clicked. */
  onMove(cb: (uci: string) => void): void;
}

export function explorerPanel(): ExplorerPanel {
  let source: ExplorerSource = 'server';
  const speeds = new Set<ExplorerSpeed>();
  const ratings = new Set<number>();
  let fen = '';
  let moves: string[] = [];
  let answer: ExplorerAnswer | null = null;
  let error: string | null = null;
  let moveCb: ((uci: string) => void) | null = null;
  let seq = 0;

  const head = h('div', { class: 'explorer-head' });
  const controls = h('div', { class: 'explorer-controls' });
  const body = h('div', { class: 'explorer-body', 'aria-live': 'polite' });
  const el = h('section', { class: 'explorer', testid: 'explorer' }, head, controls, body);

  const toggle = (label: string, on: boolean, testid: string, click: () => void): HTMLButtonElement =>
    h('button', { type: 'button', class: on ? 'chip on' : 'chip', 'aria-pressed': String(on), testid, onclick: click }, label);

  function renderControls(): void {
    controls.replaceChildren(
      h(
        'div',
        { class: 'explorer-sources', role: 'group', 'aria-label': pick('来源', 'Source') },
        toggle(pick('本站对局', 'This server'), source === 'server', 'explorer-source-server', () => setSource('server')),
        toggle(pick('导入的棋谱库', 'Imported games'), source === 'imported', 'explorer-source-imported', () =>
          setSource('imported'),
        ),
      ),
      h(
        'div',
        { class: 'explorer-speeds', role: 'group', 'aria-label': pick('速度', 'Speed') },
        EXPLORER_SPEEDS.map((s) =>
          toggle(pick(...SPEED_NAMES[s]), speeds.has(s), `explorer-speed-${s}`, () => flip(speeds, s)),
        ),
      ),
      h(
        'div',
        { class: 'explorer-ratings', role: 'group', 'aria-label': pick('平均等级分', 'Average rating') },
        EXPLORER_RATINGS.map((b) => toggle(ratingLabel(b), ratings.has(b), `explorer-rating-${b}`, () => flip(ratings, b))),
      ),
    );
  }

  function flip<T>(set: Set<T>, v: T): void {
    if (set.has(v)) set.delete(v);
    else set.add(v);
    renderControls();
    void load();
  }

  function setSource(s: ExplorerSource): void {
    if (s === source) return;
    source = s;
    renderControls();
    void load();
  }

  function renderHead(): void {
    const o = answer?.opening;
    const name = o ? pick(o.name_zh ?? '', o.name_en ?? '') : '';
    const family = o ? pick(o.family_zh ?? '', o.family_en ?? '') : '';
    const parts: HTMLElement[] = [h('h3', null, pick('开局库', 'Opening explorer'))];
    if (o && (o.eco || name)) {
      parts.push(h('div', { class: 'explorer-opening', testid: 'explorer-opening' }, o.eco ? h('b', null, o.eco, ' ') : null, name));
    }
    if (family) parts.push(h('div', { class: 'explorer-family', testid: 'explorer-family' }, family));
    head.replaceChildren(...parts);
  }

  function bar(m: ExplorerMove): HTMLElement {
    const part = (cls: string, pct: number): HTMLElement =>
      h('span', { class: cls, style: `width:${pct}%`, title: `${pct}%` }, pct >= 12 ? `${Math.round(pct)}%` : '');
    return h('div', { class: 'explorer-bar' }, part('w', m.white_pct), part('d', m.draws_pct), part('b', m.black_pct));
  }

  function row(m: ExplorerMove, total: boolean): HTMLElement {
    const cells = [
      h('td', { class: 'san' }, total ? pick('合计', 'Total') : m.san),
      h('td', { class: 'games' }, m.games.toLocaleString()),
      h('td', { class: 'avg' }, m.average_rating === null ? '–' : String(m.average_rating)),
      h('td', { class: 'results' }, bar(m)),
    ];
    if (total) return h('tr', { class: 'total' }, cells);
    return h(
      'tr',
      {
        class: 'move',
        testid: `explorer-move-${m.uci}`,
        title: pick(`走 ${m.san}`, `Play ${m.san}`),
        onclick: () => moveCb?.(m.uci),
      },
      cells,
    );
  }

  function renderBody(): void {
    if (error !== null) {
      body.replaceChildren(h('p', { class: 'error', testid: 'explorer-error' }, error));
      return;
    }
    if (!answer) {
      body.replaceChildren(h('p', { class: 'muted' }, pick('加载中…', 'Loading…')));
      return;
    }
    if (answer.moves.length === 0) {
      const deep = moves.length >= answer.max_plies;
      body.replaceChildren(
        h(
          'p',
          { class: 'muted', testid: 'explorer-empty' },
          deep
            ? pick(`开局库只收录每局的前 ${answer.max_plies} 步（半回合）。`, `The explorer indexes the first ${answer.max_plies} plies of each game.`)
            : pick('这个局面还没有对局。', 'No games in this position yet.'),
        ),
      );
      return;
    }
    body.replaceChildren(
      h(
        'table',
        { class: 'explorer-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, pick('着法', 'Move')),
            h('th', null, pick('局数', 'Games')),
            h('th', null, pick('平均分', 'Avg.')),
            h('th', null, pick('白胜 / 和 / 黑胜', 'White / draw / Black')),
          ),
        ),
        h('tbody', null, answer.moves.map((m) => row(m, false)), row(answer.total, true)),
      ),
    );
  }

  async function load(): Promise<void> {
    const mine = ++seq;
    const q: ExplorerQuery = { fen, moves, source, speeds: [...speeds], ratings: [...ratings].sort((a, b) => a - b) };
    try {
      const a = await request<ExplorerAnswer>('GET', explorerUrl(q));
      if (mine !== seq) return; // a newer position or filter is being loaded
      answer = a;
      error = null;
    } catch (e) {
      if (mine !== seq) return;
      error = e instanceof HttpError ? pick(e.zh, e.en) : pick('开局库暂时无法访问', 'the explorer is unavailable just now');
    }
    renderHead();
    renderBody();
  }

  function renderAll(): void {
    renderHead();
    renderControls();
    renderBody();
  }

  renderAll();
  onLangChange(renderAll);

  return {
    el,
    show(f, m) {
      fen = f;
      moves = [...m];
      void load();
    },
    onMove(cb) {
      moveCb = cb;
    },
  };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// A game's move list, two moves a row: SAN in English or Chinese piece letters (马f3), the shown move highlighted,
// a click jumps to a move, and an optional mark after a move (?!, ?, ?? from a review).

import { chineseSan } from '../chess';
import type { Color } from '../protocol';
import { h, replace } from '../dom';

export interface MoveListInput {
  moves: { san: string }[];
  /** The side to move and the move number at the start. */
  startTurn: Color;
  startFullmove: number;
  /** The ply shown (the move `current - 1` is highlighted); null: the last move, following the game. */
  current: number | null;
  chinese: boolean;
  /** Called with the ply after the clicked move. */
  onJump: (ply: number) => void;
  /** A mark after move `i` (0-based), e.g. `?!`, and its class; null for none. */
  mark?: (i: number) => { text: string; class?: string; title?: string } | null;
  /** The result, in the last row. */
  result?: string | null;
  emptyText: string;
}

/** The SAN as shown: with Chinese piece letters when asked. */
export function sanLabel(san: string, chinese: boolean): string {
  return chinese ? chineseSan(san) : san;
}

/** Fills `el` with the list and scrolls the shown move into view (or to the end when following the game). */
export function renderMoveList(el: HTMLElement, o: MoveListInput): void {
  const n = o.moves.length;
  const shown = o.current ?? n;
  const cell = (i: number) => {
    const mk = o.mark?.(i) ?? null;
    return h(
      'button',
      {
        class: 'mv' + (i + 1 === shown ? ' current' : ''),
        'data-ply': String(i + 1),
        onclick: () => o.onJump(i + 1),
      },
      sanLabel(o.moves[i].san, o.chinese),
      mk ? h('span', { class: 'mark' + (mk.class ? ` ${mk.class}` : ''), title: mk.title }, mk.text) : null,
    );
  };
  const rows: HTMLElement[] = [];
  let i = 0;
  let num = o.startFullmove;
  if (o.startTurn === 'black' && n > 0) {
    rows.push(h('div', { class: 'mrow' }, h('span', { class: 'num' }, `${num}.`), h('span', { class: 'mv empty' }, '…'), cell(0)));
    i = 1;
    num++;
  }
  for (; i < n; i += 2, num++) {
    rows.push(h('div', { class: 'mrow' }, h('span', { class: 'num' }, `${num}.`), cell(i), i + 1 < n ? cell(i + 1) : null));
  }
  if (o.result) rows.push(h('div', { class: 'mrow result-row' }, o.result));
  if (!rows.length) rows.push(h('div', { class: 'empty-moves' }, o.emptyText));
  replace(el, rows);
  const cur = el.querySelector('.current');
  if (cur && o.current !== null) cur.scrollIntoView({ block: 'nearest' });
  else el.scrollTop = el.scrollHeight;
}

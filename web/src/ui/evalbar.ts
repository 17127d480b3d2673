// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation bar: White's share, 50% for equality, saturating around ±4 pawns (a mate fills it). The value
// shown is kept in `data-cp` (White's centipawns, empty when unknown) for tests and assistive tools.

import { h } from '../dom';

export interface EvalBar {
  el: HTMLElement;
  /** White's view in centipawns (mate = ±(10000 − n)); `null` when unknown. */
  set(cp: number | null): void;
}

export function evalShare(cp: number | null): number {
  if (cp === null) return 50;
  if (Math.abs(cp) >= 9000) return cp > 0 ? 100 : 0;
  return 50 + 50 * Math.tanh(cp / 400);
}

export function evalBar(title: string): EvalBar {
  const white = h('div', { class: 'eval-white' });
  const el = h('div', { class: 'eval-bar', testid: 'eval-bar', title, role: 'img', 'aria-label': title }, white);
  return {
    el,
    set(cp) {
      white.style.width = `${evalShare(cp).toFixed(1)}%`;
      el.dataset.cp = cp === null ? '' : String(cp);
    },
  };
}

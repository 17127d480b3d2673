// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's review slot: once the game is finished, the review panel (ui/review.ts) under the move list —
// asked for with a button, or waited for when the server reviews the game by itself (against the computer) — and
// the ?!/?/?? marks it gives the move list.

import { h, replace } from '../../dom';
import { getSetting } from '../../settings';
import { reviewPanel } from '../../ui/review';
import type { ReviewPanel } from '../../ui/review';
import type { Mark } from '../../review/model';
import type { Ctx } from './ctx';
import { myColor, shownPly } from './state';
import type { GameState } from './state';

export interface ReviewSlot {
  el: HTMLElement;
  /** Opens the panel when the game is finished, and keeps it on the move shown. */
  update(st: GameState): void;
  /** The mark of move `i` (0-based) for the move list. */
  mark(i: number): { text: string; class: string } | null;
  destroy(): void;
}

const MARK_CLASS: Record<Mark, string> = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

export function makeReviewSlot(ctx: Ctx, rerender: () => void): ReviewSlot {
  const el = h('div', { class: 'review-slot' });
  let panel: ReviewPanel | null = null;
  let marks = new Map<number, Mark>();

  return {
    el,
    update(st) {
      const snap = st.snap;
      if (!snap || st.status.status !== 'finished' || st.line.moves.length === 0) return;
      if (!panel) {
        panel = reviewPanel({
          gameId: ctx.gameId,
          myColor: myColor(st),
          initialFen: st.initialFen,
          ucis: st.line.moves.map((m) => m.uci),
          automatic: snap.white.is_engine || snap.black.is_engine,
          onJump: (ply) => ctx.dispatch({ kind: 'goto', ply }),
          onMarks: (m) => {
            marks = m;
            rerender();
          },
          chineseLetters: () => getSetting('chineseLetters'),
        });
        replace(el, panel.el);
      }
      panel.setPly(shownPly(st));
    },
    mark(i) {
      const m = marks.get(i + 1);
      return m ? { text: m, class: MARK_CLASS[m] } : null;
    },
    destroy() {
      panel?.destroy();
    },
  };
}

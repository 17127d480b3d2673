// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's review slot: once the game is finished, the review panel (ui/review.ts) under the move list —
// asked for with a button, or waited for when the server reviews the game by itself (against the computer) — and
// the ?!/?/?? marks it gives the move list. While "learn from your mistakes" runs, the slot holds the page's main
// board: the page leaves it alone (`ownsBoard`) and hands it the moves made on it (`boardMove`).

import type { Key } from '@lichess-org/chessground/types';
import { h, replace } from '../../dom';
import { getSetting } from '../../settings';
import { reviewPanel } from '../../ui/review';
import type { MainBoard, ReviewPanel } from '../../ui/review';
import type { Mark } from '../../review/model';
import type { Ctx } from './ctx';
import { myColor, shownPly } from './ctrl';
import type { GameState } from './ctrl';

export interface ReviewSlot {
  el: HTMLElement;
  /** Opens the panel when the game is finished, and keeps it on the move shown. */
  update(st: GameState): void;
  /** The mark of move `i` (0-based) for the move list. */
  mark(i: number): { text: string; class: string } | null;
  /** The page's main board, for the exercises; `redraw` draws the game on it again. */
  attachBoard(b: MainBoard, redraw: () => void): void;
  /** An exercise has the main board: the page must not draw on it nor play its moves. */
  ownsBoard(): boolean;
  /** A move made on the main board while the slot owns it. */
  boardMove(orig: Key, dest: Key): void;
  destroy(): void;
}

const MARK_CLASS: Record<Mark, string> = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

export function makeReviewSlot(ctx: Ctx, rerender: () => void): ReviewSlot {
  const el = h('div', { class: 'review-slot' });
  let panel: ReviewPanel | null = null;
  let marks = new Map<number, Mark>();
  let board: { b: MainBoard; redraw: () => void } | null = null;
  let owns = false;

  return {
    el,
    update(st) {
      const snap = st.snap;
      if (!snap || st.status.status !== 'finished' || st.line.moves.length === 0) return;
      if (!panel) {
        const me = myColor(st);
        const opponent = me === 'white' ? snap.black : me === 'black' ? snap.white : null;
        panel = reviewPanel({
          gameId: ctx.gameId,
          myColor: me,
          initialFen: st.initialFen,
          ucis: st.line.moves.map((m) => m.uci),
          automatic: snap.white.is_engine || snap.black.is_engine,
          againstComputer: !!opponent?.is_engine,
          onJump: (ply) => ctx.dispatch({ kind: 'goto', ply }),
          onMarks: (m) => {
            marks = m;
            rerender();
          },
          chineseLetters: () => getSetting('chineseLetters'),
          mainBoard: () => board?.b ?? null,
          onBoardTaken: (taken) => {
            owns = taken;
            if (!taken) board?.redraw();
          },
        });
        replace(el, panel.el);
      }
      panel.setPly(shownPly(st));
    },
    mark(i) {
      const m = marks.get(i + 1);
      return m ? { text: m, class: MARK_CLASS[m] } : null;
    },
    attachBoard(b, redraw) {
      board = { b, redraw };
    },
    ownsBoard: () => owns,
    boardMove(orig, dest) {
      panel?.boardMove(orig, dest);
    },
    destroy() {
      panel?.destroy();
    },
  };
}

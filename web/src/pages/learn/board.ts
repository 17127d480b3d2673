// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: the board of a step. Moves are tried by click or drag (any move of the side to move may be tried:
// the server judges it and explains an illegal one), squares are clicked, and the step's marks are drawn: stars
// still to collect, squares found, the candidate moves as arrows.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Role } from 'chessops/types';
import type { LearnStep } from '../../protocol_http';
import { checkColor, destsOf, isPromotion, lastMoveKeys, legalMove, positionFromFen, standardUci } from '../../chess';
import { h } from '../../dom';
import { makeBoard, mirror } from '../../ui/board';
import type { BoardApi } from '../../ui/board';
import { choosePromotion } from '../../ui/promotion';
import type { StepState } from './ctrl';

export interface StepBoardEvents {
  /** A move tried on the board (UCI; castling as the king's two-square move). */
  move(uci: string): void;
  /** A square clicked (`squares` steps). */
  square(key: string): void;
}

export interface StepBoard {
  el: HTMLElement;
  show(step: LearnStep, st: StepState): void;
  destroy(): void;
}

export function stepBoard(ev: StepBoardEvents): StepBoard {
  const boardEl = h('div', { class: 'cg-wrap main-board learn-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const el = h('div', { class: 'board-box' }, boardEl, promoEl);
  let step: LearnStep | null = null;
  let st: StepState | null = null;

  const board: BoardApi = makeBoard(boardEl, {
    movable: { free: true, color: undefined, showDests: true, events: { after: onMove } },
    events: { select: onSelect },
    drawable: { enabled: false, visible: true },
  });

  function interactive(): boolean {
    return !!step && !!st && step.kind === 'moves' && !st.done && !st.busy;
  }

  function onMove(orig: Key, dest: Key): void {
    if (!step || !st || !interactive()) return redraw();
    const pos = positionFromFen(st.fen);
    if (!pos) return redraw();
    if (isPromotion(pos, orig, dest) && legalMove(pos, orig, dest, 'queen')) {
      choosePromotion(promoEl, pos.turn, (role: Role | null) => {
        const m = role ? legalMove(pos, orig, dest, role) : null;
        if (m && interactive()) ev.move(standardUci(pos, m));
        else redraw();
      });
      return;
    }
    const m = legalMove(pos, orig, dest);
    ev.move(m ? standardUci(pos, m) : orig + dest);
  }

  function onSelect(key: Key): void {
    if (step?.kind === 'squares' && st && !st.done && !st.busy) ev.square(key);
  }

  function marks(): Map<Key, string> {
    const out = new Map<Key, string>();
    if (!step || !st) return out;
    for (const s of st.remaining) out.set(s as Key, 'learn-star');
    for (const s of st.squares) out.set(s as Key, 'learn-found');
    return out;
  }

  function arrows(): DrawShape[] {
    if (!step || !st || step.kind !== 'legal_moves') return [];
    return (step.candidates ?? []).map((u) => ({
      orig: u.slice(0, 2) as Key,
      dest: u.slice(2, 4) as Key,
      brush: st!.picked.includes(u) ? 'green' : 'paleBlue',
    }));
  }

  function redraw(): void {
    if (!step || !st) return;
    const pos = positionFromFen(st.fen);
    const turn = pos?.turn ?? (st.fen.split(' ')[1] === 'b' ? 'black' : 'white');
    const can = interactive();
    // While a try is judged the board keeps showing it (it is put back if the server refuses it).
    if (st.busy) {
      board.set({ movable: { free: false, color: undefined, dests: new Map() } });
      boardEl.dataset.busy = '1';
      return;
    }
    board.set({
      fen: st.fen,
      orientation: step.orientation,
      turnColor: turn,
      check: pos ? checkColor(pos) : false,
      lastMove: lastMoveKeys(st.lastMove ?? undefined),
      selected: undefined,
      viewOnly: false,
      movable: { free: can, color: can ? turn : undefined, dests: can && pos ? destsOf(pos) : new Map() },
      highlight: { lastMove: true, check: true, custom: marks() },
    });
    board.setAutoShapes(arrows());
    mirror(boardEl, st.fen, step.orientation);
    boardEl.dataset.turn = turn;
    boardEl.dataset.kind = step.kind;
    boardEl.dataset.stars = st.remaining.join(' ');
    boardEl.dataset.found = st.squares.join(' ');
    boardEl.dataset.busy = st.busy ? '1' : '0';
  }

  return {
    el,
    show(s, state) {
      step = s;
      st = state;
      promoEl.hidden = true;
      redraw();
    },
    destroy() {
      board.destroy();
    },
  };
}

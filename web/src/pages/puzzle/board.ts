// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: the board of a round, oriented to the solver. Moves are tried by click or drag; as in 学棋,
// a piece may be put on any square (the server judges the try and explains an illegal one with the rules core),
// legal targets are still marked. The first hint lights the piece to move, the second draws the move as an arrow.
// The state is mirrored in data attributes for tests: fen, turn, orientation, ply, busy, ready, hint, hint-move.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Role } from 'chessops/types';
import { checkColor, destsOf, isPromotion, lastMoveKeys, legalMove, positionFromFen, standardUci } from '../../chess';
import { h } from '../../dom';
import { makeBoard, mirror } from '../../ui/board';
import { choosePromotion } from '../../ui/promotion';
import { canMove, fenAt, hintMove, hintSquare, lineOf, shownPly } from './ctrl';
import type { RoundState } from './ctrl';

export interface PuzzleBoard {
  el: HTMLElement;
  show(st: RoundState): void;
  destroy(): void;
}

/** `move` gets the solver's try in UCI (castling as the king's two-square move; any from→to when illegal). */
export function puzzleBoard(move: (uci: string) => void): PuzzleBoard {
  const boardEl = h('div', { class: 'cg-wrap main-board puzzle-board', testid: 'puzzle-board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const el = h('div', { class: 'board-box' }, boardEl, promoEl);
  let st: RoundState | null = null;

  const board = makeBoard(boardEl, {
    movable: { free: false, color: undefined, showDests: true, events: { after: onMove } },
    drawable: { enabled: false, visible: true },
  });

  function onMove(orig: Key, dest: Key): void {
    if (!st || !canMove(st)) return redraw();
    const pos = positionFromFen(fenAt(st, shownPly(st)));
    if (!pos) return redraw();
    if (isPromotion(pos, orig, dest) && legalMove(pos, orig, dest, 'queen')) {
      choosePromotion(promoEl, pos.turn, (role: Role | null) => {
        const m = role ? legalMove(pos, orig, dest, role) : null;
        if (m && st && canMove(st)) move(standardUci(pos, m));
        else redraw();
      });
      return;
    }
    const m = legalMove(pos, orig, dest);
    move(m ? standardUci(pos, m) : orig + dest);
  }

  function redraw(): void {
    if (!st) return;
    const ply = shownPly(st);
    const fen = fenAt(st, ply);
    const pos = positionFromFen(fen);
    const turn = pos?.turn ?? (fen.split(' ')[1] === 'b' ? 'black' : 'white');
    const line = lineOf(st);
    // While a try is judged the board keeps showing it (it is put back if the server refuses it).
    if (st.pending) {
      board.set({ movable: { free: false, color: undefined, dests: new Map() } });
      boardEl.dataset.busy = '1';
      return;
    }
    const can = canMove(st);
    const hint = hintSquare(st);
    const hm = hintMove(st);
    const custom = new Map<Key, string>();
    if (hint) custom.set(hint as Key, 'puzzle-hint');
    board.set({
      fen,
      orientation: st.puzzle.solver,
      turnColor: turn,
      check: pos ? checkColor(pos) : false,
      lastMove: lastMoveKeys(ply > 0 ? line.moves[ply - 1]?.uci : undefined),
      selected: undefined,
      viewOnly: false,
      movable: { free: can, color: can ? turn : undefined, dests: can && pos ? destsOf(pos) : new Map() },
      highlight: { lastMove: true, check: true, custom },
    });
    const shapes: DrawShape[] = hm ? [{ orig: hm.slice(0, 2) as Key, dest: hm.slice(2, 4) as Key, brush: 'green' }] : [];
    board.setAutoShapes(shapes);
    mirror(boardEl, fen, st.puzzle.solver);
    boardEl.dataset.turn = turn;
    boardEl.dataset.ply = String(ply);
    boardEl.dataset.busy = st.busy ? '1' : '0';
    boardEl.dataset.ready = st.setupDone ? '1' : '0';
    boardEl.dataset.over = st.over ? '1' : '0';
    boardEl.dataset.hint = hint ?? '';
    boardEl.dataset.hintMove = hm ?? '';
    boardEl.dataset.puzzle = st.puzzle.id;
  }

  return {
    el,
    show(s) {
      if (s !== st) promoEl.hidden = true;
      st = s;
      redraw();
    },
    destroy() {
      board.destroy();
    },
  };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// chessground with our defaults: legal targets shown (quiet moves blue, captures red: see style.css), last move
// and check highlighted, the board's state mirrored in data attributes for tests and assistive tools.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';

export type { Api as BoardApi };

export function makeBoard(el: HTMLElement, config: Config): Api {
  return Chessground(el, {
    coordinates: true,
    autoCastle: true,
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 150 },
    movable: { free: false, showDests: true },
    premovable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true, visible: true },
    ...config,
  });
}

/** Squares the tests and the page can read: the position shown, the side to move, the orientation. */
export function mirror(el: HTMLElement, fen: string, orientation: string): void {
  el.dataset.fen = fen;
  el.dataset.orientation = orientation;
}

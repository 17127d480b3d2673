// SPDX-License-Identifier: GPL-3.0-or-later
// What the game page's parts share: the current state, `dispatch` (reduce, then render), and the socket commands.

import type { Action as GameAction } from '../../protocol';
import type { Action, GameState } from './state';

export interface Ctx {
  gameId: string;
  get(): GameState;
  dispatch(a: Action): void;
  /** Sends one of our actions in this game; a refusal is shown as a toast. */
  cmd(action: GameAction): void;
  /** Sends our move (with an armed draw offer); the board is put back if the server refuses it. */
  sendMove(uci: string): void;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// What the game page's parts share: the current state, `dispatch` (reduce, then render), and the socket commands.

import type { Action as GameAction, ArbiterAct } from '../../protocol';
import type { Action, GameState } from './ctrl';

export interface Ctx {
  gameId: string;
  get(): GameState;
  dispatch(a: Action): void;
  /** Sends one of our actions in this game; a refusal is shown as a toast. */
  cmd(action: GameAction): void;
  /** Sends an arbiter's act in this game (only an arbiter of the game is heard); a refusal is shown as a toast. */
  arbiter(act: ArbiterAct): void;
  /** Sends our move (with an armed draw offer); the board is put back if the server refuses it. */
  sendMove(uci: string): void;
}

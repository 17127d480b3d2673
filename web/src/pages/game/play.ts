// SPDX-License-Identifier: GPL-3.0-or-later
// Our moves: from the board (click or drag, with the promotion chooser) or typed (e4, Nf3, 马f3, e2e4). A move that
// would allow a draw claim asks first; an illegal try is explained (our guess at once, the server's reason next).

import type { Key } from '@lichess-org/chessground/types';
import type { NormalMove } from 'chessops/types';
import { makeSan } from 'chessops/san';
import { socket, toast, toastError } from '../../app';
import { claimable, guessIllegal, isPromotion, legalMove, parseTyped, wireUci } from '../../chess';
import { t } from '../../i18n';
import { choosePromotion } from '../../ui/promotion';
import type { Ctx } from './ctx';
import { canPlay, countsIllegal, isChess960, livePos, mustSeal, myColor, myTurn, touchMove, turn } from './ctrl';

export interface Play {
  onBoardMove(orig: Key, dest: Key): void;
  /** A piece picked up or clicked: in touch-move games, on our turn, it is touched (or adjusted). */
  onSelect(key: Key): void;
  typedMove(text: string): void;
}

/** `redraw` puts the board back to the state's position (after a refused or cancelled move). */
export function makePlay(ctx: Ctx, promoEl: HTMLElement, redraw: () => void): Play {
  /** Plays a legal move, unless it would allow a draw claim: then the player chooses. */
  function playOrClaim(m: NormalMove): void {
    const st = ctx.get();
    const pos = livePos(st);
    const uci = wireUci(pos, m, isChess960(st));
    if (mustSeal(st)) {
      // The adjournment is called: this move is sealed (hidden from the opponent), once confirmed.
      ctx.dispatch({ kind: 'seal_confirm', move: { uci, san: makeSan(pos, m) } });
      return;
    }
    const after = pos.clone();
    after.play(m);
    const kind = claimable([...st.line.positions, after]);
    if (!kind) ctx.sendMove(uci);
    else ctx.dispatch({ kind: 'pending_claim', claim: { uci, kind } });
  }

  function askPromotion(orig: Key, dest: Key): void {
    choosePromotion(promoEl, turn(ctx.get()), (role) => {
      const st = ctx.get();
      const m = role ? legalMove(livePos(st), orig, dest, role) : null;
      if (m && myTurn(st)) playOrClaim(m);
      else redraw();
    });
  }

  function explain(from: string, to: string): void {
    ctx.dispatch({ kind: 'illegal', illegal: { msg: { kind: 'generic' }, squares: [from, to] } });
    const ply = ctx.get().line.moves.length;
    socket
      .send({ t: 'explain', game_id: ctx.gameId, from, to })
      .then((m) => {
        if (m.t !== 'explanation' || !m.reason) return;
        // Too late if a move was made meanwhile: the try is stale.
        if (ctx.get().line.moves.length !== ply || !ctx.get().illegal) return;
        const r = m.reason;
        ctx.dispatch({ kind: 'illegal', illegal: { msg: { kind: 'reason', zh: r.message_zh, en: r.message_en }, squares: r.squares } });
      })
      .catch(toastError);
  }

  return {
    onBoardMove(orig, dest) {
      const st = ctx.get();
      const pos = livePos(st);
      if (!myTurn(st) || (!canPlay(st) && !mustSeal(st))) {
        redraw();
        return;
      }
      if (isPromotion(pos, orig, dest) && legalMove(pos, orig, dest, 'queen')) {
        askPromotion(orig, dest);
        return;
      }
      const m = legalMove(pos, orig, dest);
      if (!m) {
        redraw(); // snap back
        // Under a rule set that counts them, a completed illegal move goes to the server (taken back and counted
        // there); its reason is shown either way.
        if (countsIllegal(st)) ctx.sendMove(`${orig}${dest}`);
        explain(orig, dest);
        return;
      }
      playOrClaim(m);
    },
    onSelect(key) {
      const st = ctx.get();
      if (!touchMove(st) || !myTurn(st) || !livePos(st).board.get(squareOf(key))) return;
      if (st.adjusting) {
        ctx.dispatch({ kind: 'adjust_mode', on: false });
        ctx.cmd({ t: 'adjust', square: key });
      } else {
        ctx.cmd({ t: 'touch', square: key });
      }
    },
    typedMove(text) {
      if (!text.trim()) return;
      const st = ctx.get();
      if (!myTurn(st)) {
        toast(myColor(st) ? t('game.notYourTurn') : t('game.spectating'));
        return;
      }
      const pos = livePos(st);
      const m = parseTyped(pos, text);
      if (m) {
        ctx.dispatch({ kind: 'typed', text: '' });
        const from = keyOf(m.from);
        const to = keyOf(m.to);
        if (isPromotion(pos, from, to) && !m.promotion) askPromotion(from, to);
        else playOrClaim(m);
        return;
      }
      const guess = guessIllegal(pos, text);
      if (guess) explain(guess.from, guess.to);
      else ctx.dispatch({ kind: 'illegal', illegal: { msg: { kind: 'unreadable', text: text.trim() }, squares: [] } });
    },
  };
}

function squareOf(key: Key): number {
  return 'abcdefgh'.indexOf(key[0]) + 8 * (Number(key[1]) - 1);
}

function keyOf(sq: number): Key {
  return ('abcdefgh'[sq % 8] + String(Math.floor(sq / 8) + 1)) as Key;
}

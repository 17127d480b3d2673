// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's buttons: offers to answer (draw, takeback, rematch, a move that allows a claim), the opponent-gone
// countdown with the victory claim, the players' actions (abort, takeback, draw, claim, resign with a confirmation),
// what comes after the game (rematch, PGN, analysis) and the piece-letter setting.

import { link, toast } from '../../app';
import { pgnUrl } from '../../api';
import { h, replace } from '../../dom';
import { pick, t } from '../../i18n';
import { getSetting, setSetting } from '../../settings';
import type { Ctx } from './ctx';
import { claimNow, isOver, myColor, myTurn, opposite, ply, ruleParts, touchMove, turn } from './ctrl';
import type { GameState } from './ctrl';

/** The server lets a player claim the game a minute after the opponent left (docs/game.md, "Disconnection"). */
export const GONE_CLAIM_MS = 60_000;

export function makeControls(ctx: Ctx) {
  const offersEl = h('div', { class: 'offers' });
  const actionsEl = h('div', { class: 'actions' });
  const afterEl = h('div', { class: 'after' });
  const settingsEl = h('div', { class: 'settings' });
  const goneEl = h('span', { testid: 'opponent-gone' });
  const id = ctx.gameId;
  const offer = (text: string, yes: [string, string, () => void], no: [string, string, () => void]) =>
    h(
      'div',
      { class: 'offer' },
      h('span', {}, text),
      h('button', { class: 'btn good', testid: yes[0], onclick: yes[2] }, yes[1]),
      h('button', { class: 'btn', testid: no[0], onclick: no[2] }, no[1]),
    );

  function renderOffers(st: GameState): void {
    const me = myColor(st);
    const over = isOver(st);
    const items: HTMLElement[] = [];
    if (!over && me && st.drawOffer && st.drawOffer !== me) {
      items.push(
        offer(
          t('game.drawOffered'),
          ['accept-draw', t('game.acceptDraw'), () => ctx.cmd({ t: 'accept_draw' })],
          ['decline-draw', t('game.declineDraw'), () => ctx.cmd({ t: 'decline_draw' })],
        ),
      );
    }
    if (!over && me && st.drawOffer === me) items.push(h('div', { class: 'offer mine', testid: 'draw-sent' }, t('game.drawSent')));
    if (!over && me && st.takebackOffer && st.takebackOffer !== me) {
      items.push(
        offer(
          t('game.takebackOffered'),
          ['accept-takeback', t('common.accept'), () => ctx.cmd({ t: 'takeback_accept' })],
          ['decline-takeback', t('common.decline'), () => ctx.cmd({ t: 'takeback_decline' })],
        ),
      );
    }
    if (!over && me && st.takebackOffer === me) items.push(h('div', { class: 'offer mine' }, t('game.takebackSent')));
    if (over && me && st.rematchBy && st.rematchBy !== me) {
      items.push(
        offer(
          t('game.rematchOffered'),
          ['accept-rematch', t('common.accept'), () => ctx.cmd({ t: 'rematch_accept' })],
          ['decline-rematch', t('common.decline'), () => ctx.cmd({ t: 'rematch_decline' })],
        ),
      );
    }
    if (over && me && st.rematchBy === me) items.push(h('div', { class: 'offer mine' }, t('game.rematchSent')));
    if (over && st.rematchDeclined) items.push(h('div', { class: 'offer mine' }, t('game.rematchDeclined')));
    if (st.pendingClaim && myTurn(st)) {
      const pc = st.pendingClaim;
      const cancel = () => ctx.dispatch({ kind: 'pending_claim', claim: null });
      items.push(
        h(
          'div',
          { class: 'offer' },
          h('span', {}, pc.kind === 'threefold_repetition' ? t('game.moveAllowsThreefold') : t('game.moveAllowsFifty')),
          h(
            'button',
            {
              class: 'btn good',
              testid: 'claim-draw-move',
              onclick: () => {
                cancel();
                ctx.cmd({ t: 'claim_draw', kind: pc.kind, intended: pc.uci });
              },
            },
            t('game.claimWithMove'),
          ),
          h('button', { class: 'btn', testid: 'play-anyway', onclick: () => ctx.sendMove(pc.uci) }, t('game.justPlay')),
          h('button', { class: 'btn', testid: 'cancel-move', onclick: cancel }, t('common.cancel')),
        ),
      );
    }
    if (st.claimRejected) items.push(h('div', { class: 'offer warn' }, pick(st.claimRejected.zh, st.claimRejected.en)));
    if (st.ruleNotice) {
      items.push(h('div', { class: 'offer warn', testid: 'rule-notice' }, pick(st.ruleNotice.zh, st.ruleNotice.en)));
    }
    const opp = me ? opposite(me) : null;
    if (!over && opp && st.disconnected[opp === 'white' ? 0 : 1]) {
      items.push(
        h(
          'div',
          { class: 'offer warn' },
          goneEl,
          h('button', { class: 'btn', testid: 'claim-victory', onclick: () => ctx.cmd({ t: 'claim_victory' }) }, t('game.claimVictory')),
        ),
      );
      updateGone(st, performance.now());
    }
    replace(offersEl, items);
  }

  function updateGone(st: GameState, now: number): void {
    const me = myColor(st);
    if (!me) return;
    const since = st.goneSince[me === 'white' ? 1 : 0];
    const left = Math.ceil((since + GONE_CLAIM_MS - now) / 1000);
    goneEl.textContent = left > 0 ? t('game.opponentGoneWait', { n: String(left) }) : t('game.opponentGone');
  }

  function renderActions(st: GameState): void {
    const me = myColor(st);
    if (!me || isOver(st) || !st.snap) {
      replace(actionsEl);
      return;
    }
    const claim = claimNow(st);
    const offerDisabled = !st.mayOfferDraw[me === 'white' ? 0 : 1] || st.drawOffer === me;
    const buttons: HTMLElement[] = [];
    if (st.snap.rules) {
      const names = ruleParts(st).map((p) => t(`rules.${p}` as 'rules.online'));
      buttons.push(h('span', { class: 'hint', testid: 'rules' }, `${t('rules.label')}${names.join(' · ')}`));
    }
    if (touchMove(st) && myTurn(st)) {
      // "I adjust" (摆正, Art. 4.2): said before touching, the next piece picked up is adjusted and binds nothing.
      buttons.push(
        h(
          'button',
          {
            class: st.adjusting ? 'btn primary' : 'btn',
            testid: 'adjust',
            onclick: () => ctx.dispatch({ kind: 'adjust_mode', on: !st.adjusting }),
          },
          st.adjusting ? t('game.adjusting') : t('game.adjust'),
        ),
      );
    }
    if (ply(st) < 2) {
      buttons.push(h('button', { class: 'btn', testid: 'abort', onclick: () => ctx.cmd({ t: 'abort' }) }, t('game.abort')));
    }
    if (!st.snap.rated) {
      buttons.push(
        h(
          'button',
          {
            class: 'btn',
            testid: 'takeback',
            disabled: ply(st) === 0 || st.takebackOffer === me,
            onclick: () => ctx.cmd({ t: 'takeback_offer' }),
          },
          t('game.takeback'),
        ),
      );
    }
    buttons.push(
      h(
        'button',
        {
          class: 'btn' + (st.offerWithMove ? ' pressed' : ''),
          testid: 'offer-draw',
          'aria-pressed': st.offerWithMove ? 'true' : 'false',
          disabled: offerDisabled || (st.drawOffer !== null && st.drawOffer !== me),
          title: me === turn(st) ? t('game.offerDrawWithMove') : t('game.offerDraw'),
          onclick: () => {
            const now = ctx.get();
            if (now.drawOffer && now.drawOffer !== me) {
              ctx.cmd({ t: 'accept_draw' });
            } else if (me === turn(now)) {
              // An offer goes with one's own move (FIDE 9.1.2): arm it for the next move.
              ctx.dispatch({ kind: 'toggle_offer' });
              toast(ctx.get().offerWithMove ? t('game.offerArmed') : t('game.offerDisarmed'));
            } else {
              ctx.cmd({ t: 'offer_draw' });
            }
          },
        },
        st.offerWithMove ? t('game.offerDrawArmed') : t('game.offerDraw'),
      ),
    );
    if (claim) {
      buttons.push(
        h(
          'button',
          { class: 'btn good', testid: 'claim-draw', onclick: () => ctx.cmd({ t: 'claim_draw', kind: claim }) },
          claim === 'threefold_repetition' ? t('game.claimThreefold') : t('game.claimFifty'),
        ),
      );
    }
    if (st.resignConfirm) {
      buttons.push(
        h(
          'span',
          { class: 'confirm' },
          h('span', {}, t('game.resignConfirm')),
          h(
            'button',
            {
              class: 'btn bad',
              testid: 'resign-confirm',
              onclick: () => {
                ctx.dispatch({ kind: 'resign_confirm', on: false });
                ctx.cmd({ t: 'resign' });
              },
            },
            t('common.yes'),
          ),
          h('button', { class: 'btn', testid: 'resign-cancel', onclick: () => ctx.dispatch({ kind: 'resign_confirm', on: false }) }, t('common.no')),
        ),
      );
    } else {
      buttons.push(
        h('button', { class: 'btn bad', testid: 'resign', onclick: () => ctx.dispatch({ kind: 'resign_confirm', on: true }) }, t('game.resign')),
      );
    }
    replace(actionsEl, buttons);
  }

  function renderAfter(st: GameState): void {
    const me = myColor(st);
    const items: HTMLElement[] = [];
    if (isOver(st) && me && !st.rematchBy) {
      items.push(h('button', { class: 'btn primary', testid: 'rematch', onclick: () => ctx.cmd({ t: 'rematch_offer' }) }, t('game.rematch')));
    }
    if (isOver(st)) {
      items.push(h('a', { class: 'btn', testid: 'download-pgn', href: pgnUrl(id), download: `guoxiang_${id}.pgn` }, t('game.downloadPgn')));
      items.push(link(`/analysis/${id}`, t('game.analyse'), { class: 'btn', testid: 'open-analysis' }));
      items.push(link('/', t('game.newGame'), { class: 'btn', testid: 'new-game' }));
    }
    replace(afterEl, items);
  }

  function renderSettings(): void {
    const box = h('input', {
      type: 'checkbox',
      testid: 'chinese-letters',
      checked: getSetting('chineseLetters'),
      onchange: () => {
        setSetting('chineseLetters', box.checked);
        ctx.dispatch({ kind: 'refresh' });
      },
    });
    replace(
      settingsEl,
      h('label', { class: 'check' }, box, ' ', t('settings.chineseLetters'), ' ', h('span', { lang: 'zh', class: 'hint' }, '(马f3)')),
    );
  }

  return {
    offersEl,
    actionsEl,
    afterEl,
    settingsEl,
    render(st: GameState): void {
      renderOffers(st);
      renderActions(st);
      renderAfter(st);
      renderSettings();
    },
    tick(st: GameState, now: number): void {
      if (goneEl.isConnected) updateGone(st, now);
    },
  };
}

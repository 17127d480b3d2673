// SPDX-License-Identifier: GPL-3.0-or-later
// The result banner: score and winner with the reason (the server's sentence, or the termination's name), the
// reason an aborted game ended, or whose turn it is while the game goes on.

import { h, replace } from '../dom';
import { pick, t } from '../i18n';
import type { Color, GameStatus } from '../protocol';

/** Who wins, in words. */
export function winnerText(winner: Color | null): string {
  return winner === null ? t('result.draw') : winner === 'white' ? t('result.whiteWins') : t('result.blackWins');
}

/**
 * Fills `el` for `status`. While the game goes on it shows `turnLine` (marked `turn`); the element gets the class
 * `shown` once the game is over and `playing` before.
 */
export function renderResult(el: HTMLElement, status: GameStatus, turnLine: string): void {
  const over = status.status === 'finished' || status.status === 'aborted';
  el.classList.toggle('shown', over);
  el.classList.toggle('playing', !over);
  if (status.status === 'finished') {
    replace(
      el,
      h('div', { class: 'result-score' }, `${status.result} · ${winnerText(status.winner)}`),
      h('div', { class: 'result-reason' }, pick(status.message_zh, status.message_en) || t(`term.${status.termination}`)),
    );
  } else if (status.status === 'aborted') {
    replace(
      el,
      h('div', { class: 'result-score' }, t('result.aborted')),
      h(
        'div',
        { class: 'result-reason' },
        status.reason === 'first_move_timeout'
          ? t('result.abortedTimeout')
          : t('result.abortedBy', { side: t(`color.${status.by}`) }),
      ),
    );
  } else {
    replace(el, h('div', { class: 'turn-line', testid: 'turn' }, turnLine));
  }
}

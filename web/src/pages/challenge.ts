// SPDX-License-Identifier: GPL-3.0-or-later
// A friend's link, /challenge/{id}: who invites, with which clock and colour, and an Accept button.

import { api } from '../api';
import type { ChallengeShow } from '../api';
import { errorText, navigate, socket, toastError } from '../app';
import type { Page } from '../app';
import { h, replace } from '../dom';
import { t } from '../i18n';
import type { ServerMessage } from '../protocol';
import { displayName, tcLabel } from '../ui/names';

export function challengePage(id: string): Page {
  const body = h('div', { class: 'challenge-body' }, h('p', {}, t('common.loading')));
  const el = h('div', { class: 'page narrow challenge-page' }, h('h1', {}, t('challenge.title')), body);

  function tcOf(c: ChallengeShow): string {
    const tc = c.timeControl;
    if (tc.type === 'clock' && tc.limit !== undefined) return tcLabel(`${tc.limit}+${tc.increment ?? 0}`);
    if (tc.type === 'correspondence') return t('challenge.days', { n: String(tc.daysPerTurn ?? 1) });
    return tcLabel('-');
  }

  function show(c: ChallengeShow): void {
    if (c.status === 'accepted' && c.gameId) {
      navigate(`/game/${c.gameId}`, true);
      return;
    }
    // The challenger's colour; the one who accepts plays the other.
    const yours = c.color === 'random' ? t('color.choice.random') : t(c.color === 'white' ? 'color.black' : 'color.white');
    const info = h(
      'dl',
      { class: 'facts' },
      h('dt', {}, t('challenge.from')),
      h('dd', { testid: 'challenger', translate: 'no' }, displayName(c.challenger.name) + (c.challenger.rating ? ` (${c.challenger.rating})` : '')),
      h('dt', {}, t('home.timeControl')),
      h('dd', {}, tcOf(c)),
      h('dt', {}, t('challenge.yourColor')),
      h('dd', {}, yours),
      h('dt', {}, t('home.mode')),
      h('dd', {}, c.rated ? t('home.ratedShort') : t('home.casualShort')),
      // The rule set, before accepting (touch-move, illegal moves counted, 送王, adjournment).
      h('dt', {}, t('challenge.rules')),
      h(
        'dd',
        { testid: 'challenge-rules' },
        (c.rules ?? 'online')
          .split('+')
          .map((p) => t(`rules.${p}` as 'rules.online'))
          .join(' · '),
      ),
    );
    if (c.status !== 'created') {
      replace(body, info, h('p', { class: 'warn', testid: 'challenge-closed' }, t('challenge.closed')));
      return;
    }
    if (c.direction === 'out') {
      replace(
        body,
        info,
        h('p', {}, t('home.sendLink')),
        h('input', { readonly: true, value: location.href, class: 'friend-link', testid: 'friend-link' }),
        h('p', { class: 'waiting' }, t('home.waitingFriend')),
      );
      return;
    }
    const accept = h(
      'button',
      {
        class: 'btn big primary',
        testid: 'accept-challenge',
        onclick: () => {
          accept.disabled = true;
          socket
            .send({ t: 'accept_challenge', challenge_id: id })
            .then(() => api.challenge(id).then(show))
            .catch((e: unknown) => {
              accept.disabled = false;
              toastError(e);
            });
        },
      },
      t('challenge.accept'),
    );
    const decline = h(
      'button',
      {
        class: 'btn',
        testid: 'decline-challenge',
        onclick: () => {
          socket
            .send({ t: 'decline_challenge', challenge_id: id })
            .then(() => navigate('/'))
            .catch(toastError);
        },
      },
      t('common.decline'),
    );
    replace(body, info, h('div', { class: 'form-buttons' }, accept, decline));
  }

  api
    .challenge(id)
    .then(show)
    .catch((e: unknown) => replace(body, h('p', { class: 'warn', testid: 'challenge-error' }, errorText(e))));

  const off = socket.on((m: ServerMessage) => {
    if (m.t === 'challenge' && m.challenge.id === id && m.challenge.game_id) navigate(`/game/${m.challenge.game_id}`, true);
  });
  return { el, destroy: off };
}

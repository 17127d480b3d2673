// SPDX-License-Identifier: GPL-3.0-or-later
// 登录卡 / Login cards: one card per student with the server's address, the user name and the password, in Chinese
// and English at once (a card goes home to parents who may read either), and a print button. The print stylesheet
// (style.css, `@media print`) prints the cards alone, several to a page.

import { h } from '../../dom';
import { TABLES, t } from '../../i18n';
import type { Key } from '../../i18n';
import type { Login } from './xhr';

/** A text in both languages: "用户名 User name". */
const both = (k: Key) => h('span', { class: 'card-label' }, h('span', { lang: 'zh-CN' }, TABLES.zh[k]), ' ', h('span', { lang: 'en' }, TABLES.en[k]));

function card(l: Login, className: string): HTMLElement {
  return h(
    'div',
    { class: 'login-card', testid: 'login-card', 'data-username': l.username, 'data-password': l.password },
    h('div', { class: 'card-head' }, both('card.title')),
    h('div', { class: 'card-class', translate: 'no' }, className),
    h('dl', {}, [
      h('dt', {}, both('card.address')),
      h('dd', { class: 'card-address', translate: 'no' }, location.origin),
      h('dt', {}, both('card.username')),
      h('dd', { class: 'card-username', testid: 'card-username', translate: 'no' }, l.username),
      h('dt', {}, both('card.password')),
      h('dd', { class: 'card-password', testid: 'card-password', translate: 'no' }, l.password),
    ]),
    h('p', { class: 'card-howto' }, h('span', { lang: 'zh-CN' }, TABLES.zh['card.howto']), h('br'), h('span', { lang: 'en' }, TABLES.en['card.howto'])),
  );
}

/** The cards of the logins just made (or of one reset password), with a print button and a way to put them away. */
export function loginCards(logins: Login[], className: string, onClose: () => void): HTMLElement {
  return h(
    'section',
    { class: 'login-cards-box', testid: 'login-cards' },
    h('h3', {}, t('class.cardsTitle')),
    h('p', { class: 'warn' }, t('class.cardsHelp')),
    h(
      'div',
      { class: 'form-buttons' },
      h('button', { class: 'btn primary', type: 'button', testid: 'print-cards', onclick: () => window.print() }, t('class.print')),
      h('button', { class: 'btn', type: 'button', testid: 'close-cards', onclick: onClose }, t('class.cardsClose')),
    ),
    h('div', { class: 'login-cards' }, logins.map((l) => card(l, className))),
  );
}

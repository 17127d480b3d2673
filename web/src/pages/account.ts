// SPDX-License-Identifier: GPL-3.0-or-later
// The account page (/account): change the password (the current one, the new one twice; the account's other
// sessions end) and "sign out everywhere" (every session ends, this one too). The server's messages (zh/en) say
// what is wrong.

import { api } from '../api';
import { currentUser, errorText, link, navigate, sessionChanged } from '../app';
import type { Page } from '../app';
import { h } from '../dom';
import { t } from '../i18n';

export function accountPage(): Page {
  const me = currentUser();
  if (!me || me.guest) {
    return {
      el: h(
        'div',
        { class: 'page narrow account-page' },
        h('h1', {}, t('account.title')),
        h('p', { class: 'hint', testid: 'account-guest' }, t('account.guest'), ' ', link('/register', t('nav.register'))),
      ),
    };
  }
  const field = (id: string, testid: string, autocomplete: string) =>
    h('input', { id, testid, type: 'password', autocomplete, name: id });
  const current = field('pw-current', 'pw-current', 'current-password');
  const next = field('pw-new', 'pw-new', 'new-password');
  const repeat = field('pw-repeat', 'pw-repeat', 'new-password');
  const msg = h('div', { class: 'warn', testid: 'pw-error', role: 'alert' });
  const done = h('p', { class: 'hint', testid: 'pw-done', role: 'status' });
  const allMsg = h('div', { class: 'warn', testid: 'logout-all-error', role: 'alert' });
  const submit = h('button', { class: 'btn primary', testid: 'pw-submit', type: 'submit' }, t('account.change'));
  let busy = false;

  async function change(): Promise<void> {
    msg.textContent = '';
    done.textContent = '';
    if (next.value !== repeat.value) {
      msg.textContent = t('account.mismatch');
      return;
    }
    busy = true;
    submit.disabled = true;
    try {
      const r = await api.changePassword(current.value, next.value);
      current.value = next.value = repeat.value = '';
      done.textContent = t('account.changed', { n: String(r.ended) });
    } catch (e) {
      msg.textContent = errorText(e);
    } finally {
      busy = false;
      submit.disabled = false;
    }
  }

  async function everywhere(): Promise<void> {
    allMsg.textContent = '';
    try {
      await api.logoutAll();
      await sessionChanged();
      navigate('/');
    } catch (e) {
      allMsg.textContent = errorText(e);
    }
  }

  const el = h(
    'div',
    { class: 'page narrow account-page' },
    h('h1', {}, t('account.title')),
    h('h2', {}, t('account.passwordTitle')),
    h(
      'form',
      {
        class: 'login-form',
        testid: 'pw-form',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          if (!busy) void change();
        },
      },
      // The user name, for the browser's password manager.
      h('input', { type: 'text', autocomplete: 'username', value: me.username, hidden: true, readonly: true }),
      h('label', { class: 'field', for: 'pw-current' }, h('span', {}, t('account.current')), current),
      h('label', { class: 'field', for: 'pw-new' }, h('span', {}, t('account.new')), next),
      h('label', { class: 'field', for: 'pw-repeat' }, h('span', {}, t('account.repeat')), repeat),
      h('p', { class: 'hint' }, t('account.rules')),
      msg,
      done,
      h('div', { class: 'form-buttons' }, submit),
    ),
    h('h2', {}, t('account.sessionsTitle')),
    h('p', { class: 'hint' }, t('account.everywhereHint')),
    allMsg,
    h(
      'div',
      { class: 'form-buttons' },
      h('button', { class: 'btn', testid: 'logout-all', type: 'button', onclick: () => void everywhere() }, t('account.everywhere')),
    ),
  );
  return { el };
}

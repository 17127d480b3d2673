// SPDX-License-Identifier: GPL-3.0-or-later
// Log in or register (one form, two buttons). Guests play casual games without an account.

import { api } from '../api';
import { currentUser, errorText, navigate, sessionChanged } from '../app';
import type { Page } from '../app';
import { h } from '../dom';
import { t } from '../i18n';

export function loginPage(): Page {
  const user = h('input', { testid: 'username', id: 'login-user', autocomplete: 'username', name: 'username' });
  const pass = h('input', { testid: 'password', id: 'login-pass', type: 'password', autocomplete: 'current-password', name: 'password' });
  const msg = h('p', { class: 'warn', testid: 'login-error', role: 'alert' });
  const loginBtn = h('button', { class: 'btn primary', testid: 'login', type: 'submit' }, t('login.login'));
  const regBtn = h('button', { class: 'btn', testid: 'register', type: 'button', onclick: () => go(true) }, t('login.register'));

  async function go(register: boolean): Promise<void> {
    msg.textContent = '';
    loginBtn.disabled = regBtn.disabled = true;
    try {
      if (register) await api.register(user.value.trim(), pass.value);
      else await api.login(user.value.trim(), pass.value);
      await sessionChanged();
      navigate('/');
    } catch (e) {
      msg.textContent = errorText(e);
    } finally {
      loginBtn.disabled = regBtn.disabled = false;
    }
  }

  const me = currentUser();
  const el = h(
    'div',
    { class: 'page narrow login-page' },
    h('h1', {}, t('login.title')),
    me && me.guest ? guestNote(me.username) : null,
    h(
      'form',
      {
        class: 'login-form',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          void go(false);
        },
      },
      h('label', { class: 'field', for: 'login-user' }, h('span', {}, t('login.username')), user),
      h('label', { class: 'field', for: 'login-pass' }, h('span', {}, t('login.password')), pass),
      h('p', { class: 'hint' }, t('login.rules')),
      msg,
      h('div', { class: 'form-buttons' }, loginBtn, regBtn),
    ),
  );
  return { el };
}

function guestNote(name: string): HTMLElement {
  const [before, after] = t('login.guestNote', { name: '\u0000' }).split('\u0000');
  return h('p', { class: 'hint' }, before, h('b', { translate: 'no' }, name), after);
}

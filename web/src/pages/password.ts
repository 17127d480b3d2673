// SPDX-License-Identifier: GPL-3.0-or-later
// 设置新密码 / Choose a new password (`/password`): where a student whose teacher reset the password is sent right
// after logging in, and whenever the server answers 403 `password_change_required`. The password on the teacher's
// card is asked for only when it is not known from the login just made (after a reload).

import { api } from '../api';
import { currentUser, errorText, navigate, rememberResetLogin, resetLoginKnown, sessionChanged } from '../app';
import type { Page } from '../app';
import { h } from '../dom';
import { t } from '../i18n';

export function passwordPage(): Page {
  const known = resetLoginKnown();
  const username = known?.username ?? currentUser()?.username ?? '';
  const field = (id: string, autocomplete: string) => h('input', { id, testid: id, type: 'password', autocomplete, name: id });
  const current = field('pw-current', 'current-password');
  const next = field('pw-new', 'new-password');
  const repeat = field('pw-repeat', 'new-password');
  if (known) current.value = known.password;
  const msg = h('div', { class: 'warn', testid: 'pw-error', role: 'alert' });
  const submit = h('button', { class: 'btn primary', testid: 'pw-submit', type: 'submit' }, t('pwReset.submit'));

  async function change(): Promise<void> {
    msg.textContent = '';
    if (next.value !== repeat.value) {
      msg.textContent = t('account.mismatch');
      return;
    }
    submit.disabled = true;
    try {
      await api.changePassword(current.value, next.value);
      rememberResetLogin(null);
      await sessionChanged();
      navigate('/homework', true);
    } catch (e) {
      msg.textContent = errorText(e);
      submit.disabled = false;
    }
  }

  const el = h(
    'div',
    { class: 'page narrow account-page', testid: 'password-page' },
    h('h1', {}, t('pwReset.title')),
    h('p', {}, t('pwReset.why')),
    h(
      'form',
      {
        class: 'login-form',
        testid: 'pw-form',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          if (!submit.disabled) void change();
        },
      },
      h('input', { type: 'text', autocomplete: 'username', value: username, hidden: true, readonly: true }),
      h('label', { class: 'field', for: 'pw-current', hidden: !!known }, h('span', {}, t('pwReset.current')), current),
      h('label', { class: 'field', for: 'pw-new' }, h('span', {}, t('account.new')), next),
      h('label', { class: 'field', for: 'pw-repeat' }, h('span', {}, t('account.repeat')), repeat),
      h('p', { class: 'hint' }, t('pwReset.rules')),
      msg,
      h('div', { class: 'form-buttons' }, submit),
    ),
  );
  return { el };
}

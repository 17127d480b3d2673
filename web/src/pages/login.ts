// SPDX-License-Identifier: GPL-3.0-or-later
// Log in and sign up, told apart: two tabs (/login and /register), each with its own title and button, so that Enter
// does what the visible tab says. A log-in refused for a name nobody has says so and offers to sign up with it.
// Guests play casual games without an account.

import { api, HttpError } from '../api';
import { currentUser, errorText, navigate, rememberResetLogin, sessionChanged } from '../app';
import type { Page } from '../app';
import { h, replace } from '../dom';
import { pick, t } from '../i18n';
import { displayName } from '../ui/names';

type Mode = 'login' | 'register';

export function loginPage(): Page {
  let mode: Mode = location.pathname.startsWith('/register') ? 'register' : 'login';
  const user = h('input', { testid: 'username', id: 'login-user', autocomplete: 'username', name: 'username' });
  const pass = h('input', { testid: 'password', id: 'login-pass', type: 'password', name: 'password' });
  const msg = h('div', { class: 'warn', testid: 'login-error', role: 'alert' });
  const title = h('h1', {});
  const tabs = h('div', { class: 'login-tabs', role: 'tablist' });
  const passLabel = h('span', {});
  const rules = h('p', { class: 'hint' }, t('login.rules'));
  const buttons = h('div', { class: 'form-buttons' });
  const other = h('p', { class: 'login-other' });
  let busy = false;

  function setMode(m: Mode): void {
    mode = m;
    msg.textContent = '';
    const path = m === 'register' ? '/register' : '/login';
    if (location.pathname !== path) history.replaceState(null, '', path + location.search);
    render();
  }

  function render(): void {
    title.textContent = mode === 'login' ? t('login.titleLogin') : t('login.titleRegister');
    const tab = (m: Mode, text: string) => {
      const b = h(
        'button',
        {
          type: 'button',
          role: 'tab',
          class: 'login-tab' + (mode === m ? ' active' : ''),
          testid: m === 'login' ? 'tab-login' : 'tab-register',
          onclick: () => setMode(m),
        },
        text,
      );
      b.setAttribute('aria-selected', mode === m ? 'true' : 'false');
      return b;
    };
    replace(tabs, tab('login', t('login.tabLogin')), tab('register', t('login.tabRegister')));
    passLabel.textContent = mode === 'login' ? t('login.password') : t('login.newPassword');
    pass.setAttribute('autocomplete', mode === 'login' ? 'current-password' : 'new-password');
    rules.hidden = mode === 'login';
    // One button: the visible tab's action, which Enter submits too.
    replace(
      buttons,
      h(
        'button',
        { class: 'btn primary', testid: mode === 'login' ? 'login' : 'register', type: 'submit', disabled: busy },
        mode === 'login' ? t('login.login') : t('login.registerSubmit'),
      ),
    );
    replace(
      other,
      mode === 'login' ? t('login.noAccount') : t('login.haveAccount'),
      pick('', ' '),
      h(
        'button',
        { type: 'button', class: 'linkish', testid: mode === 'login' ? 'to-register' : 'to-login', onclick: () => setMode(mode === 'login' ? 'register' : 'login') },
        mode === 'login' ? t('login.toRegister') : t('login.toLogin'),
      ),
    );
  }

  /** After a refused log-in: whether the name is nobody's (then the message offers to sign up with it). */
  async function unknownName(name: string): Promise<boolean> {
    if (!name) return false;
    try {
      await api.profile(name);
      return false;
    } catch (e) {
      return e instanceof HttpError && e.status === 404;
    }
  }

  async function go(): Promise<void> {
    msg.textContent = '';
    busy = true;
    render();
    const name = user.value.trim();
    try {
      const answer = mode === 'register' ? await api.register(name, pass.value) : await api.login(name, pass.value);
      if (mustChangePassword(answer)) {
        // A teacher reset this password: a new one first (every other call is refused until then).
        rememberResetLogin({ username: answer.user?.username ?? name, password: pass.value });
        await sessionChanged();
        navigate('/password', true);
        return;
      }
      await sessionChanged();
      navigate('/');
    } catch (e) {
      if (mode === 'login' && e instanceof HttpError && e.code === 'bad_credentials' && (await unknownName(name))) {
        const [before, after] = t('login.unknownUser', { name: '\u0000' }).split('\u0000');
        replace(
          msg,
          h('span', {}, before, h('b', { translate: 'no' }, name), after, ' '),
          h(
            'button',
            { type: 'button', class: 'btn small', testid: 'register-this', onclick: () => setMode('register') },
            t('login.registerThis'),
          ),
        );
      } else {
        msg.textContent = errorText(e);
      }
    } finally {
      busy = false;
      render();
    }
  }

  render();
  const me = currentUser();
  const el = h(
    'div',
    { class: 'page narrow login-page' },
    tabs,
    title,
    me && me.guest ? guestNote(me.username) : null,
    h(
      'form',
      {
        class: 'login-form',
        testid: 'login-form',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          if (!busy) void go();
        },
      },
      h('label', { class: 'field', for: 'login-user' }, h('span', {}, t('login.username')), user),
      h('label', { class: 'field', for: 'login-pass' }, passLabel, pass),
      rules,
      msg,
      buttons,
      other,
    ),
  );
  return { el };
}

function guestNote(name: string): HTMLElement {
  const [before, after] = t('login.guestNote', { name: '\u0000' }).split('\u0000');
  // The guest's name in the page's language (游客-… in Chinese), as the header shows it.
  return h('p', { class: 'hint', testid: 'guest-note' }, before, h('b', { translate: 'no' }, displayName(name)), after);
}

/** Whether the login's answer says that the password must be changed first (`must_change_password`, at the top or the user's). */
function mustChangePassword(a: unknown): boolean {
  const x = a as { must_change_password?: boolean; user?: { must_change_password?: boolean } } | null;
  return !!(x?.must_change_password || x?.user?.must_change_password);
}

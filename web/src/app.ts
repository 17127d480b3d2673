// SPDX-License-Identifier: GPL-3.0-or-later
// What every page can reach: the socket, the signed-in user, navigation, toasts.

import { api, HttpError } from './api';
import type { Me } from './api';
import { getLang, t } from './i18n';
import type { Key } from './i18n';
import { h } from './dom';
import { ServerError, Socket } from './ws';
import { progressAfterSignIn } from './pages/learn/xhr';

export interface Page {
  el: HTMLElement;
  destroy?(): void;
}

export const socket = new Socket(getLang);

let me: Me | null = null;
const meListeners = new Set<() => void>();

export function currentUser(): Me | null {
  return me;
}

export function onUserChange(cb: () => void): () => void {
  meListeners.add(cb);
  return () => meListeners.delete(cb);
}

/** Loads the signed-in user, creating a guest session when there is none. */
export async function ensureUser(): Promise<Me | null> {
  try {
    me = await api.me();
  } catch (e) {
    if (e instanceof HttpError && e.status === 401) {
      try {
        await api.guest();
        me = await api.me();
      } catch {
        me = null;
      }
    } else {
      me = null;
    }
  }
  for (const cb of meListeners) cb();
  return me;
}

/** After logging in or out: reload the user and reconnect the socket (the cookie changed). */
export async function sessionChanged(): Promise<void> {
  const user = await ensureUser();
  socket.reconnect();
  // A guest's Learn progress, kept in the browser, goes to the account they logged in to or registered.
  await progressAfterSignIn(user);
}

let gameStartClaim: ((gameId: string) => boolean) | null = null;

/**
 * A page that shows its own game in place (a Learn step's game against the computer) claims the `game_started`
 * that its request causes, so that the app does not go to the game page. `null` ends the claim.
 */
export function claimGameStarts(fn: ((gameId: string) => boolean) | null): void {
  gameStartClaim = fn;
}

export function gameStartClaimed(gameId: string): boolean {
  return !!gameStartClaim?.(gameId);
}

let navigateImpl: (path: string, replace?: boolean) => void = (p) => {
  location.href = p;
};

export function setNavigate(fn: (path: string, replace?: boolean) => void): void {
  navigateImpl = fn;
}

export function navigate(path: string, replace = false): void {
  navigateImpl(path, replace);
}

/** The message of an error in the current language. */
export function errorText(e: unknown): string {
  if (e instanceof ServerError) return getLang() === 'zh' ? e.zh : e.en;
  if (e instanceof HttpError) return getLang() === 'zh' ? e.zh : e.en;
  return t('error.generic');
}

let toastEl: HTMLElement | null = null;
let toastTimer = 0;

export function toast(text: string): void {
  if (!toastEl) {
    toastEl = h('div', { class: 'toast', role: 'status', 'aria-live': 'polite', testid: 'toast' });
    document.body.appendChild(toastEl);
  }
  toastEl.textContent = text;
  toastEl.classList.add('show');
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => toastEl?.classList.remove('show'), 4000);
}

export function toastError(e: unknown): void {
  toast(errorText(e));
}

export function toastKey(k: Key): void {
  toast(t(k));
}

/** A link that navigates inside the app. */
export function link(
  href: string,
  text: string,
  attrs: { class?: string; testid?: string; translate?: 'no' } = {},
): HTMLAnchorElement {
  return h('a', { href, ...attrs, 'data-link': '' }, text);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// What every page can reach: the socket, the signed-in user, navigation, toasts.

import { api, HttpError } from './api';
import type { Me } from './protocol_http';
import { getLang, t } from './i18n';
import type { Key } from './i18n';
import { h } from './dom';
import { ServerError, Socket } from './ws';
import { progressAfterSignIn } from './pages/learn/xhr';
import { classApi } from './pages/class/xhr';

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
    // Asked so that "no session" is an answer, not a 401 in the console of a first visit.
    me = await api.meOptional();
    if (!me) {
      await api.guest();
      me = await api.me();
    }
  } catch {
    me = null;
  }
  for (const cb of meListeners) cb();
  // A teacher reset the password: a new one before anything else (the server refuses the rest until then).
  if ((me as { must_change_password?: boolean } | null)?.must_change_password && location.pathname !== '/password') {
    navigate('/password', true);
  } else void refreshClassRoles();
  return me;
}

/** Whether the signed-in user teaches a class, and whether they are a student of one (the header's links). */
let roles = { teacher: false, student: false };

export function classRoles(): { teacher: boolean; student: boolean } {
  return roles;
}

/** Asks the server for the user's classes again (after one is created, joined or deleted). */
export async function refreshClassRoles(): Promise<void> {
  let next = { teacher: false, student: false };
  if (me && !me.guest) {
    try {
      const l = await classApi.list();
      next = { teacher: l.classes.some((c) => c.role === 'teacher'), student: l.classes.some((c) => c.role === 'student') };
    } catch {
      // no classes known: the header shows what any account sees
    }
  }
  if (next.teacher === roles.teacher && next.student === roles.student) return;
  roles = next;
  for (const cb of meListeners) cb();
}

/**
 * The password a student just logged in with when it must be changed (a teacher reset it): the form to choose a
 * new one asks for it again only when it is not known here (after a reload).
 */
let resetLogin: { username: string; password: string } | null = null;

export function rememberResetLogin(l: { username: string; password: string } | null): void {
  resetLogin = l;
}

export function resetLoginKnown(): { username: string; password: string } | null {
  return resetLogin;
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
let placeTimer = 0;

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Puts the toast where it covers no clock: at the bottom of the window, else at the top (below the header), else
 * just above the highest clock it would cover. Checked again while it shows (the page may change under it).
 */
function placeToast(el: HTMLElement): void {
  const clocks = Array.from(document.querySelectorAll<HTMLElement>('.clock'))
    .filter((c) => !c.hidden && c.offsetParent !== null)
    .map((c) => c.getBoundingClientRect());
  const covered = () => {
    const r = el.getBoundingClientRect();
    return clocks.filter((c) => overlaps(r, c));
  };
  el.style.top = '';
  el.style.bottom = '';
  if (!covered().length) return;
  const header = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
  el.style.bottom = 'auto';
  el.style.top = `${Math.max(8, header + 8)}px`;
  const hit = covered();
  if (!hit.length) return;
  const above = Math.min(...hit.map((c) => c.top));
  el.style.top = `${Math.max(0, above - el.getBoundingClientRect().height - 8)}px`;
}

export function toast(text: string): void {
  if (!toastEl) {
    toastEl = h('div', { class: 'toast', role: 'status', 'aria-live': 'polite', testid: 'toast' });
    document.body.appendChild(toastEl);
  }
  const el = toastEl;
  el.textContent = text;
  placeToast(el);
  el.classList.add('show');
  window.clearTimeout(toastTimer);
  window.clearInterval(placeTimer);
  placeTimer = window.setInterval(() => placeToast(el), 250);
  toastTimer = window.setTimeout(() => {
    el.classList.remove('show');
    window.clearInterval(placeTimer);
  }, 4000);
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

/** The not-found page's content (an unknown path, or a game id nobody knows), with a way home. */
export function notFoundEl(detail?: string): HTMLElement {
  return h(
    'div',
    { class: 'page narrow', testid: 'not-found' },
    h('h1', {}, t('notFound.title')),
    detail ? h('p', { class: 'hint' }, detail) : null,
    h('p', {}, link('/', t('notFound.home'))),
  );
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The account page (issue 41): a signed-in player changes the password there; their session in another browser is
// signed out, the old password no longer logs in and the new one does; a weak or mistyped password is refused with
// the server's message; "sign out everywhere" ends this session too.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, tid } from './lib.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const OLD = 'correct-horse-1';
const NEW = 'bishop pair endgame 9';

async function register(page, name, password) {
  await page.goto('/register');
  await page.fill(tid('username'), name);
  await page.fill(tid('password'), password);
  await page.click(tid('register'));
  await page.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);
}

/** Whom the context's session speaks for: a user name, or null (no session, or a guest's). */
async function signedInAs(context) {
  const r = await context.request.get('/api/me?optional=true');
  const me = r.ok() ? await r.json() : null;
  return me && !me.guest ? me.username : null;
}

async function login(page, name, password) {
  await page.goto('/login');
  await page.fill(tid('username'), name);
  await page.fill(tid('password'), password);
  await page.click(tid('login'));
}

test('change the password: the other session ends, the old password is refused, the new one logs in', { timeout: 120_000 }, async () => {
  const name = `changer${String(Date.now()).slice(-6)}`;
  const A = await newPage(browser, server.base, { lang: 'en' });
  const B = await newPage(browser, server.base, { lang: 'zh' });
  const a = A.page;
  const b = B.page;
  await register(a, name, OLD);
  // A second session, in another browser.
  await login(b, name, OLD);
  await b.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);
  assert.equal(await signedInAs(B.context), name);

  // The account page, from the header.
  await a.click(tid('nav-account'));
  await a.waitForURL(/\/account$/);
  // The two new passwords differ: said before asking the server.
  await a.fill(tid('pw-current'), OLD);
  await a.fill(tid('pw-new'), NEW);
  await a.fill(tid('pw-repeat'), NEW + 'x');
  await a.click(tid('pw-submit'));
  await a.locator(tid('pw-error')).filter({ hasText: /differ/ }).waitFor();
  // A common password: the server's message.
  await a.fill(tid('pw-new'), 'password123');
  await a.fill(tid('pw-repeat'), 'password123');
  await a.click(tid('pw-submit'));
  await a.locator(tid('pw-error')).filter({ hasText: /common/ }).waitFor();
  // A wrong current password.
  await a.fill(tid('pw-current'), 'not-my-password-1');
  await a.fill(tid('pw-new'), NEW);
  await a.fill(tid('pw-repeat'), NEW);
  await a.click(tid('pw-submit'));
  await a.locator(tid('pw-error')).filter({ hasText: /current password is wrong/ }).waitFor();
  assert.equal(await signedInAs(B.context), name, 'nothing changed yet');
  // The right one.
  await a.fill(tid('pw-current'), OLD);
  await a.fill(tid('pw-new'), NEW);
  await a.fill(tid('pw-repeat'), NEW);
  await a.click(tid('pw-submit'));
  await a.locator(tid('pw-done')).filter({ hasText: /1 other sessions signed out/ }).waitFor();
  assert.equal(await a.textContent(tid('pw-error')), '');

  // The other browser is signed out: its session is gone, and a new visit there is a guest's.
  assert.equal(await signedInAs(B.context), null);
  await b.goto('/');
  await b.waitForFunction((sel) => document.querySelector(sel)?.textContent?.startsWith('游客-'), tid('me'));
  // This browser stays signed in.
  await a.goto('/');
  await a.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);
  // The old password no longer logs in; the new one does.
  await login(b, name, OLD);
  await b.locator(tid('login-error')).filter({ hasText: /密码/ }).waitFor();
  await b.fill(tid('password'), NEW);
  await b.click(tid('login'));
  await b.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);

  // Sign out everywhere, from B: both browsers are signed out.
  await b.goto('/account');
  await b.click(tid('logout-all'));
  await b.waitForFunction((sel) => document.querySelector(sel)?.textContent?.startsWith('游客-'), tid('me'));
  assert.equal(await signedInAs(A.context), null);
  await A.context.close();
  await B.context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The Content-Security-Policy's connect-src: the page's WebSocket to its own server opens, one to another host is
// refused by the browser (issue 41: it was `'self' ws: wss:`, any host).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer } from './lib.mjs';

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

test('the page opens a WebSocket to its own server only', async () => {
  const { context, page } = await newPage(browser, server.base);
  const violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto('/');
  const csp = res.headers()['content-security-policy'];
  const connect = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'));
  assert.ok(!connect.split(' ').includes('ws:') && !connect.split(' ').includes('wss:'), connect);
  const probe = (url) =>
    page.evaluate(
      (u) =>
        new Promise((resolve) => {
          const ws = new WebSocket(u);
          ws.onopen = () => {
            ws.close();
            resolve('open');
          };
          ws.onerror = () => resolve('error');
          setTimeout(() => resolve('timeout'), 10_000);
        }),
      url,
    );
  assert.equal(await probe(`${server.base.replace(/^http/, 'ws')}/ws`), 'open');
  assert.equal(violations.length, 0, violations.join('\n'));
  assert.equal(await probe('ws://127.0.0.2:9/ws'), 'error');
  assert.equal(violations.length, 1, 'the browser names the CSP for the other host');
  assert.match(violations[0], /connect-src/);
  await context.close();
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The home page's time-control box: minutes+seconds as the presets show them, the FIDE multi-period form in PGN
// seconds, and the way back for the presets; guests' names in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../src/i18n';
import { displayName, playerName, tcFromBox, tcLabel, tcToBox } from '../src/ui/names';

test('minutes+seconds become the PGN tag', () => {
  assert.equal(tcFromBox('10+5'), '600+5');
  assert.equal(tcFromBox(' 3 + 2 '), '180+2');
  assert.equal(tcFromBox('10'), '600+0');
  assert.equal(tcFromBox('0.5+0'), '30+0');
  assert.equal(tcFromBox('1,5+1'), '90+1');
  assert.equal(tcFromBox('5＋3'), '300+3', 'a full-width plus from a Chinese keyboard');
  assert.equal(tcFromBox('-'), '-');
  assert.equal(tcFromBox(''), '-');
});

test('the FIDE multi-period form is taken as it is', () => {
  assert.equal(tcFromBox('40/5400+30:1800+30'), '40/5400+30:1800+30');
  assert.equal(tcFromBox('40/7200:3600'), '40/7200:3600');
  assert.equal(tcFromBox('40/5400+30：1800+30'), '40/5400+30:1800+30');
});

test('unreadable text is refused', () => {
  for (const bad of ['abc', '10+', '+5', '10+5+3', '40/:1800', '10m', '1e3+0']) assert.equal(tcFromBox(bad), null, bad);
});

test('every preset round-trips through the box and reads as its label', () => {
  for (const tc of ['60+0', '180+2', '300+3', '600+5', '900+10', '1800+20', '15+0', '90+1', '-']) {
    const box = tcToBox(tc);
    assert.equal(tcFromBox(box), tc, `${tc} → ${box}`);
  }
  assert.equal(tcToBox('600+5'), '10+5');
  assert.equal(tcLabel(tcFromBox('10+5')!), '10+5', 'the label says what was typed');
  assert.equal(tcToBox('40/5400+30:1800+30'), '40/5400+30:1800+30');
});

test('guests read 游客-xxxx in Chinese and Guest-xxxx in English', () => {
  setLang('zh');
  assert.equal(displayName('Guest-3fa9c01'), '游客-3fa9c01');
  assert.equal(playerName({ id: 'x', name: 'Guest-3fa9c01', is_engine: false, engine_level: null }), '游客-3fa9c01');
  assert.equal(displayName('alice'), 'alice');
  assert.equal(displayName('MyGuest-1'), 'MyGuest-1');
  setLang('en');
  assert.equal(displayName('Guest-3fa9c01'), 'Guest-3fa9c01');
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The Chinese font the site ships (issue 38): GuoxiangCJK, WOFF2 subsets of Noto Sans CJK SC Regular and Bold made
// by web/tools/subset-font.py. Served as immutable assets with their license beside them; every CJK character the zh
// pages show is in their cmaps (read here from the committed WOFF2 files, independently of the Python script); a
// system's own Chinese font is used first (ours is not even fetched); and in a Chromium whose fontconfig knows no
// font with Chinese characters (FONTCONFIG_FILE rejecting them), every Chinese label of the home page is drawn with
// ours (Chromium's own account of the fonts it drew each element with), regular and bold.
// GX_FONT_SHOTS=dir: also saves that browser's views of the home page (desktop and phone) and of 学棋 there
// (font-no-cjk-*.png; docs/screenshots has them).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, launch, newPage, startServer, tid } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FONTS = ['Regular', 'Bold'].map((w) => join(HERE, `../../web/fonts/GuoxiangCJK-${w}.woff2`));
// style.css's unicode-range (web/tools/subset-font.py's UNICODE_RANGE).
const RANGES = [
  [0x2e80, 0x2fdf], [0x3000, 0x303f], [0x31c0, 0x31ef], [0x3200, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xf900, 0xfaff], [0xfe10, 0xfe1f], [0xfe30, 0xfe4f], [0xff00, 0xffef],
];
const inRange = (cp) => RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
const PAGES = ['/', '/learn', '/puzzle', '/tournaments', '/analysis', '/login'];

/** The code points a WOFF2 font maps to a glyph (its cmap's format 4 and 12 subtables of platform 3 or 0). */
function woff2Cmap(buf) {
  assert.equal(buf.toString('latin1', 0, 4), 'wOF2', 'not a WOFF2 file');
  const numTables = buf.readUInt16BE(12);
  const base128 = () => {
    let v = 0;
    for (let i = 0; i < 5; i++) {
      const b = buf[pos++];
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) return v;
    }
    throw new Error('bad UIntBase128');
  };
  let pos = 48;
  let cmapAt = -1;
  let cmapLen = 0;
  let offset = 0;
  for (let i = 0; i < numTables; i++) {
    const flags = buf[pos++];
    const tagIndex = flags & 0x3f;
    let tag = null;
    if (tagIndex === 63) {
      tag = buf.toString('latin1', pos, pos + 4);
      pos += 4;
    }
    const origLength = base128();
    const version = flags >> 6;
    const glyfOrLoca = tagIndex === 10 || tagIndex === 11;
    const transformed = glyfOrLoca ? version !== 3 : version !== 0;
    const length = transformed ? base128() : origLength;
    if (tagIndex === 0 || tag === 'cmap') {
      cmapAt = offset;
      cmapLen = length;
    }
    offset += length;
  }
  assert.ok(cmapAt >= 0, 'the font has no cmap');
  const compressedLength = buf.readUInt32BE(20);
  const data = brotliDecompressSync(buf.subarray(pos, pos + compressedLength));
  const cmap = data.subarray(cmapAt, cmapAt + cmapLen);
  const out = new Set();
  const n = cmap.readUInt16BE(2);
  for (let i = 0; i < n; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const sub = cmap.subarray(cmap.readUInt32BE(8 + i * 8));
    if (platform !== 3 && platform !== 0) continue;
    const format = sub.readUInt16BE(0);
    if (format === 12) {
      const groups = sub.readUInt32BE(12);
      for (let g = 0; g < groups; g++) {
        const start = sub.readUInt32BE(16 + g * 12);
        const end = sub.readUInt32BE(20 + g * 12);
        for (let c = start; c <= end; c++) out.add(c);
      }
    } else if (format === 4) {
      const segs = sub.readUInt16BE(6) / 2;
      const ends = 14;
      const starts = ends + segs * 2 + 2;
      const deltas = starts + segs * 2;
      const rangeOffsets = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        const end = sub.readUInt16BE(ends + s * 2);
        const start = sub.readUInt16BE(starts + s * 2);
        const delta = sub.readInt16BE(deltas + s * 2);
        const ro = sub.readUInt16BE(rangeOffsets + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let glyph;
          if (ro === 0) glyph = (c + delta) & 0xffff;
          else {
            const g = sub.readUInt16BE(rangeOffsets + s * 2 + ro + (c - start) * 2);
            glyph = g === 0 ? 0 : (g + delta) & 0xffff;
          }
          if (glyph !== 0) out.add(c);
        }
      }
    }
  }
  return out;
}

/** The CJK characters of a page: its text (hidden parts too) and its placeholders, titles and labels. */
async function pageCjk(page) {
  const text = await page.evaluate(() => {
    const attrs = [...document.querySelectorAll('[placeholder], [title], [aria-label]')].map((el) =>
      ['placeholder', 'title', 'aria-label'].map((a) => el.getAttribute(a) ?? '').join(' '),
    );
    return `${document.title} ${document.body.textContent} ${attrs.join(' ')}`;
  });
  return new Set([...text].map((c) => c.codePointAt(0)).filter(inRange));
}

/**
 * The fonts Chromium drew each visible element that holds Chinese text of its own with (DevTools'
 * CSS.getPlatformFontsForNode): [{text, weight, fonts: [{familyName, postScriptName, isCustomFont, glyphCount}]}].
 */
async function drawnWith(page) {
  await page.evaluate(() => document.fonts.ready);
  const texts = await page.evaluate(() => {
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('');
      if (!/[\u3400-\u9fff]/.test(own) || el.getClientRects().length === 0) continue;
      el.setAttribute('data-font-probe', String(out.length));
      out.push({ text: own.trim().slice(0, 20), weight: getComputedStyle(el).fontWeight });
    }
    return out;
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-font-probe]' });
  for (const nodeId of nodeIds) {
    const { attributes } = await cdp.send('DOM.getAttributes', { nodeId });
    const i = Number(attributes[attributes.indexOf('data-font-probe') + 1]);
    texts[i].fonts = (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
  }
  await cdp.detach();
  return texts;
}

const fcList = (env, pattern) =>
  execFileSync('fc-list', [pattern, 'file'], { env, encoding: 'utf8' })
    .split('\n')
    .map((l) => l.replace(/:\s*$/, '').trim())
    .filter(Boolean);

let server;
let browser;

before(async () => {
  // A server of its own: the pages must show only our texts, not the names other specs gave players and tournaments.
  server = await startServer(undefined, { own: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const SERVED = 'the fonts are served as immutable assets, their license beside them, and have every CJK character the zh pages show';
test(SERVED, { timeout: 120_000 }, async () => {
  const committed = FONTS.map((f) => readFileSync(f));
  const cmaps = committed.map(woff2Cmap);
  for (const cmap of cmaps) {
    assert.ok(cmap.has('国'.codePointAt(0)) && cmap.has('象'.codePointAt(0)), 'a font lacks 国象');
    assert.ok(!cmap.has('A'.codePointAt(0)), 'a font has Latin letters, which its unicode-range never uses');
  }

  const { context, page } = await newPage(browser, server.base, { lang: 'zh' });
  await page.goto('/');
  await page.waitForSelector(tid('play-computer'));
  const urls = await page.evaluate(() => {
    const out = [];
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (rule instanceof CSSFontFaceRule && rule.style.getPropertyValue('font-family').includes('GuoxiangCJK')) {
          out.push(rule.style.getPropertyValue('src').match(/url\("?([^")]+)"?\)/)?.[1]);
        }
      }
    }
    return out;
  });
  assert.equal(urls.length, 2, `the GuoxiangCJK faces' urls: ${urls}`);
  for (const [i, w] of ['Regular', 'Bold'].entries()) {
    assert.match(urls[i] ?? '', new RegExp(`/assets/GuoxiangCJK-${w}-[\\w-]+\\.woff2$`), `the ${w} face's url: ${urls[i]}`);
    const r = await fetch(new URL(urls[i], server.base));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'font/woff2');
    assert.match(r.headers.get('cache-control') ?? '', /immutable/);
    assert.ok(Buffer.from(await r.arrayBuffer()).equals(committed[i]), `the served ${w} font is not ${FONTS[i]}`);
  }
  const license = readdirSync(join(HERE, '../../web/dist/assets')).find((f) => /^GuoxiangCJK\.OFL-[\w-]+\.txt$/.test(f));
  assert.ok(license, 'no GuoxiangCJK.OFL-*.txt beside the fonts in web/dist/assets');
  const lr = await fetch(`${server.base}/assets/${license}`);
  assert.equal(lr.status, 200);
  const text = await lr.text();
  assert.match(text, /SIL OPEN FONT LICENSE Version 1\.1/);
  assert.match(text, /Copyright 2014-2021 Adobe \(http:\/\/www\.adobe\.com\/\), with Reserved Font Name 'Source'/);

  const missing = new Map();
  for (const path of PAGES) {
    await page.goto(path);
    await page.waitForSelector('header');
    await page.waitForLoadState('networkidle');
    for (const cp of await pageCjk(page)) {
      if (!cmaps.every((cmap) => cmap.has(cp))) missing.set(String.fromCodePoint(cp), path);
    }
  }
  assert.deepEqual(
    [...missing].map(([c, p]) => `${c} (${p})`),
    [],
    'characters the zh pages show that the font lacks: run python3 web/tools/subset-font.py',
  );

  await context.close();
});

test("a system's own Chinese font comes first: the shipped one is not fetched", { timeout: 60_000 }, async (t) => {
  if (fcList(process.env, ':lang=zh-cn').every((f) => !/NotoSansCJK|SourceHanSans/.test(f))) {
    t.skip('no Noto Sans CJK / Source Han Sans on this machine (apt-get install -y fonts-noto-cjk)');
    return;
  }
  const { context, page } = await newPage(browser, server.base, { lang: 'zh' });
  const fetched = [];
  page.on('request', (req) => {
    if (req.url().endsWith('.woff2')) fetched.push(req.url());
  });
  await page.goto('/');
  await page.waitForSelector(tid('play-computer'));
  await page.waitForLoadState('networkidle');
  const drawn = await drawnWith(page);
  assert.ok(drawn.length >= 5, `only ${drawn.length} elements with Chinese text`);
  const ours = drawn.filter((d) => d.fonts.some((f) => f.postScriptName.startsWith('GuoxiangCJK')));
  assert.deepEqual(ours.map((d) => d.text), [], 'drawn with the shipped font although the system has Noto Sans CJK SC');
  const system = drawn.filter((d) => d.fonts.some((f) => /^NotoSansCJKsc-/.test(f.postScriptName)));
  const others = drawn.filter((d) => !system.includes(d));
  assert.equal(system.length, drawn.length, `not drawn with Noto Sans CJK SC: ${JSON.stringify(others)}`);
  const bold = (d) => Number(d.weight) >= 600 && d.fonts.some((f) => f.postScriptName === 'NotoSansCJKsc-Bold');
  assert.ok(drawn.some(bold), 'no bold label drawn in Noto Sans CJK SC Bold');
  assert.deepEqual(fetched, []);
  await context.close();
});

test('on a machine with no Chinese font, the Chinese labels load and use the shipped one', { timeout: 90_000 }, async () => {
  // A fontconfig that rejects every font with a Chinese character (国).
  const dir = mkdtempSync(join(tmpdir(), 'gx-font-'));
  const cjkFonts = fcList(process.env, ':charset=56fd');
  const conf = join(dir, 'fonts.conf');
  writeFileSync(
    conf,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <cachedir>${dir}/cache</cachedir>
  <selectfont><rejectfont>${cjkFonts.map((f) => `<glob>${f}</glob>`).join('')}</rejectfont></selectfont>
</fontconfig>
`,
  );
  const env = { ...process.env, FONTCONFIG_FILE: conf };
  assert.deepEqual(fcList(env, ':charset=56fd'), [], 'the test fontconfig still has a Chinese font');
  const bare = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, env });
  try {
    const { page } = await newPage(bare, server.base, { lang: 'zh' });
    await page.goto('/');
    await page.waitForSelector(tid('play-computer'));
    await page.waitForLoadState('networkidle');
    // Every Chinese label is drawn with GuoxiangCJK, bold ones with its bold face (nothing asked for it by name:
    // the page's text did), also those laid out before the font arrived.
    const drawn = await drawnWith(page);
    assert.ok(drawn.length >= 5, `only ${drawn.length} elements with Chinese text`);
    const face = (d) => d.fonts.find((f) => f.postScriptName.startsWith('GuoxiangCJK'))?.postScriptName;
    const wrong = drawn.filter((d) => face(d) !== (Number(d.weight) >= 600 ? 'GuoxiangCJK-Bold' : 'GuoxiangCJK-Regular'));
    assert.deepEqual(wrong.map((d) => `${d.text} (weight ${d.weight}): ${d.fonts.map((f) => f.postScriptName)}`), []);
    assert.ok(drawn.some((d) => face(d) === 'GuoxiangCJK-Bold'), 'no bold Chinese label');
    assert.ok(await page.evaluate(() => document.fonts.check('16px "GuoxiangCJK"', '国象')));
    const shots = process.env.GX_FONT_SHOTS;
    if (shots) {
      await page.screenshot({ path: join(shots, 'font-no-cjk-zh-desktop.png') });
      await page.goto('/learn');
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(shots, 'font-no-cjk-learn-zh-desktop.png') });
      const phone = await newPage(bare, server.base, { lang: 'zh', width: 360, height: 740, mobile: true });
      await phone.page.goto('/');
      await phone.page.waitForSelector(tid('play-computer'));
      await phone.page.waitForLoadState('networkidle');
      await phone.page.evaluate(() => document.fonts.ready);
      await phone.page.screenshot({ path: join(shots, 'font-no-cjk-zh-phone.png') });
    }
  } finally {
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

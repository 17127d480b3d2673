// SPDX-License-Identifier: GPL-3.0-or-later
// Screenshots of the home page, a game in progress and the analysis board, in Chinese and English, on a desktop
// and a 360-px phone, into docs/screenshots/.
//
//   node tests/e2e/screenshots.mjs [path/to/guoxiang]    (default target/release/guoxiang; or GX_BASE=URL)

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseMove, clickMove, clickSquare, isLegalUci, launch, pieceToShow, newPage, startServer, tid, waitTurnOrEnd } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const OUT = join(ROOT, 'docs/screenshots');
mkdirSync(OUT, { recursive: true });

const SAMPLE_PGN = `[Event "Casual game"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5
9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6
16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8
22. Qf6+ Nxf6 23. Be7# 1-0`;

const DEVICES = [
  { name: 'desktop', width: 1280, height: 860, mobile: false },
  { name: 'phone', width: 360, height: 740, mobile: true },
];

const bin = process.argv[2] ?? process.env.GX_BIN ?? join(ROOT, 'target/release/guoxiang');
const server = await startServer(bin);
const browser = await launch();
try {
  for (const lang of ['zh', 'en']) {
    for (const d of DEVICES) {
      const { page, context } = await newPage(browser, server.base, { lang, ...d });
      const shot = async (what) => {
        const path = join(OUT, `${what}-${lang}-${d.name}.png`);
        await page.screenshot({ path, fullPage: d.mobile });
        console.log(path);
      };

      // Home, with the computer's setup open.
      await page.goto('/');
      await page.click(tid('play-computer'));
      await page.waitForSelector(`${tid('level')} option`, { state: 'attached' });
      await page.waitForTimeout(400);
      await shot('home');

      // A game in progress against the computer: a few moves, then a piece picked up to show its targets.
      await page.selectOption(tid('level'), '1');
      await page.selectOption(tid('color'), 'white');
      await page.fill(tid('time-control'), '600+5');
      await page.click(tid('start-game'));
      await page.waitForURL(/\/game\//);
      await page.waitForSelector(`${tid('board')}[data-my-color="white"]`);
      const history = [];
      for (const wanted of ['e2e4', 'g1f3', 'f1c4', 'b1c3', 'd2d3']) {
        const st = await waitTurnOrEnd(page, 'white', 30_000);
        if (st.status !== 'started' && st.status !== 'created') break;
        history.push(st.fen);
        const uci = isLegalUci(st.fen, wanted) ? wanted : chooseMove(st.fen, history);
        await clickMove(page, uci);
        await page.waitForFunction(
          ([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) > p,
          [tid('board'), st.ply],
          { timeout: 30_000 },
        );
      }
      await waitTurnOrEnd(page, 'white', 30_000);
      await page.waitForTimeout(600);
      // Pick up a piece: its quiet targets show in blue, captures in red.
      await clickSquare(page, pieceToShow(await page.getAttribute(tid('board'), 'data-fen')));
      await page.waitForTimeout(200);
      await shot('game');
      await page.click(tid('resign'));
      await page.click(tid('resign-confirm'));
      await page.waitForSelector(`${tid('board')}[data-status="finished"]`);

      // The analysis board with a loaded game, the engine's line and the evaluation graph.
      await page.goto('/analysis');
      await page.fill(tid('pgn-input'), SAMPLE_PGN);
      await page.click(tid('load-pgn'));
      await page.click(tid('analyse-game'));
      await page.waitForFunction(
        ([progress, button]) =>
          (document.querySelector(progress)?.textContent ?? '') !== '' && !document.querySelector(button)?.disabled,
        [tid('eval-progress'), tid('analyse-game')],
        { timeout: 180_000 },
      );
      for (let i = 0; i < 34; i++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction((sel) => /\(|（/.test(document.querySelector(sel)?.textContent ?? ''), tid('engine-eval'), { timeout: 30_000 });
      await page.waitForTimeout(300);
      await shot('analysis');
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

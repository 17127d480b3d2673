// SPDX-License-Identifier: GPL-3.0-or-later
// Screenshots of the home page, a game in progress, the analysis board, 学棋 / Learn (the index and three kinds
// of step) and the account page, in Chinese and English, on a desktop and a 360-px phone, into docs/screenshots/.
//
//   node tests/e2e/screenshots.mjs [path/to/guoxiang]    (default target/release/guoxiang; or GX_BASE=URL)

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chooseMove,
  clickMove,
  clickSquare,
  illegalTry,
  isLegalUci,
  launch,
  learnLessons,
  guardedMove,
  learnTry,
  openStep,
  pieceToShow,
  newPage,
  startServer,
  tid,
  waitTurnOrEnd,
} from './lib.mjs';

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

// GX_SHOTS=learn renews only the Learn pictures (GX_SHOTS=play the play pages', GX_SHOTS=account the account page's).
const ONLY = process.env.GX_SHOTS ?? '';
const bin = process.argv[2] ?? process.env.GX_BIN ?? join(ROOT, 'target/release/guoxiang');
const server = await startServer(bin);
const browser = await launch();
const lessons = learnLessons(bin);
/** The first step of the course that `pred` accepts: [lesson, index, step]. */
function findStep(pred) {
  for (const l of lessons) {
    const i = l.steps.findIndex(pred);
    if (i >= 0) return [l, i, l.steps[i]];
  }
  return null;
}
// A stars step with more than one star (one taken, one wrong try explained), a legal_moves step (one candidate
// picked), a squares step (one square found) or else a choice step.
const STARS = findStep((s) => s.kind === 'moves' && s.goal === 'stars' && (s.stars ?? []).length > 1);
const LEGAL = findStep((s) => s.kind === 'legal_moves');
const PLAY = findStep((s) => s.kind === 'play');
// The second edition: a stars step with guarded squares (a refused move explained), a tactic of the seeds (its hint
// shown), the pawn-war mini-game's goal.
const GUARDED = findStep((s) => s.kind === 'moves' && s.goal === 'stars' && s.guarded && guardedMove(s.fen));
const TACTIC = (() => {
  const l = lessons.find((x) => x.id === 'tactics_fork') ?? lessons.find((x) => x.chapter === 'tactics' && x.order > 0);
  return l ? [l, 0, l.steps[0]] : null;
})();
const PROMOTE = findStep((s) => s.kind === 'play' && s.goal === 'promote');
const SQUARES = findStep((s) => s.kind === 'squares' && (s.answer ?? s.targets ?? []).length > 1) ?? findStep((s) => s.kind === 'choice');
try {
  for (const lang of ['zh', 'en']) {
    for (const d of DEVICES) {
      const { page, context } = await newPage(browser, server.base, { lang, ...d });
      const shot = async (what) => {
        const path = join(OUT, `${what}-${lang}-${d.name}.png`);
        await page.screenshot({ path, fullPage: d.mobile });
        console.log(path);
      };

      if (!ONLY || ONLY.includes('play')) {
        // Home, with the computer's setup open.
        await page.goto('/');
        await page.click(tid('play-computer'));
        await page.waitForSelector(`${tid('level')} option`, { state: 'attached' });
        await page.waitForTimeout(400);
        await shot('home');

        // A game in progress against the computer: a few moves, then a piece picked up to show its targets.
        await page.selectOption(tid('level'), '1');
        await page.selectOption(tid('color'), 'white');
        await page.fill(tid('time-control'), '10+5');
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
      }

      if (!ONLY || ONLY.includes('learn')) {
        // 学棋 / Learn: the index (the top of it on a phone) with a few lessons done, then three steps.
        await page.goto('/learn');
        await page.evaluate((ids) => {
          const lessons = {};
          ids.slice(0, 4).forEach((id, i) => (lessons[id] = { steps: [0, 1, 2], stars: i === 2 ? 2 : 3, done: true }));
          if (ids[4]) lessons[ids[4]] = { steps: [0, 1], stars: 0, done: false };
          localStorage.setItem('gx.learn.progress', JSON.stringify({ lessons }));
        }, lessons.map((l) => l.id));
        await page.reload();
        await page.waitForSelector(tid('lesson-card'));
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(OUT, `learn-index-${lang}-${d.name}.png`) });
        console.log(join(OUT, `learn-index-${lang}-${d.name}.png`));
        if (STARS) {
          const [l, i, step] = STARS;
          await openStep(page, l.id, i);
          const first = step.solutions[0][0];
          await learnTry(page, () => clickMove(page, first));
          const fen = await page.getAttribute(tid('board'), 'data-fen');
          const bad = illegalTry(fen, first.charCodeAt(2) - 97 + 8 * (Number(first[3]) - 1));
          if (bad) await learnTry(page, () => clickMove(page, bad));
          await page.waitForTimeout(400);
          await shot('learn-stars');
        }
        if (GUARDED) {
          const [l, i, step] = GUARDED;
          await openStep(page, l.id, i);
          await learnTry(page, () => clickMove(page, guardedMove(step.fen)));
          await page.waitForSelector(tid('lesson-reason'));
          await page.waitForTimeout(300);
          await shot('learn-guarded');
        }
        if (TACTIC) {
          const [l, i] = TACTIC;
          await openStep(page, l.id, i);
          await page.click(tid('lesson-hint-button'));
          await page.waitForTimeout(300);
          await shot('learn-tactic');
        }
        if (PROMOTE) {
          const [l, i] = PROMOTE;
          await openStep(page, l.id, i);
          await page.waitForTimeout(300);
          await shot('learn-pawn-war');
        }
        // The index's end: the optional chapter (比赛规则) apart.
        await page.goto('/learn');
        await page.waitForSelector(tid('lesson-card'));
        const optional = page.locator(tid('learn-optional'));
        if (await optional.count()) {
          await optional.scrollIntoViewIfNeeded();
          await page.waitForTimeout(300);
          const path = join(OUT, `learn-optional-${lang}-${d.name}.png`);
          await page.screenshot({ path });
          console.log(path);
        }
        if (LEGAL) {
          const [l, i, step] = LEGAL;
          await openStep(page, l.id, i);
          await page.click(tid(`candidate-${step.answer[0]}`));
          await page.waitForTimeout(300);
          await shot('learn-legal');
        }
        if (SQUARES) {
          const [l, i, step] = SQUARES;
          await openStep(page, l.id, i);
          if (step.kind === 'squares') await learnTry(page, () => clickSquare(page, (step.answer ?? step.targets)[0]));
          else await page.click(tid('lesson-hint-button'));
          await page.waitForTimeout(300);
          await shot(step.kind === 'squares' ? 'learn-squares' : 'learn-choice');
        }
        if (PLAY) {
          // A play step's game inside the lesson: one move each, the engine's suggestion.
          const [l, i] = PLAY;
          await openStep(page, l.id, i);
          await page.click(tid('play-start'));
          await page.waitForFunction((sel) => !!document.querySelector(sel)?.dataset.game, tid('board'));
          const st = await waitTurnOrEnd(page, await page.getAttribute(tid('board'), 'data-my-color'), 30_000);
          await clickMove(page, chooseMove(st.fen, [st.fen]));
          await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel)?.dataset.ply) >= p + 2, [tid('board'), st.ply], { timeout: 30_000 });
          await page.click(tid('play-suggest'));
          await page.waitForSelector(tid('play-suggestion'));
          await page.waitForTimeout(300);
          await shot('learn-play');
          await page.click(tid('play-resign'));
          await page.waitForSelector(tid('play-result'));
        }
      }
      if (!ONLY || ONLY.includes('account')) {
        // The account page of a new account, its password form showing the server's refusal of a common password.
        await page.goto('/register');
        const name = `shot${lang}${d.name.slice(0, 1)}${String(Date.now()).slice(-5)}`;
        await page.fill(tid('username'), name);
        await page.fill(tid('password'), 'correct-horse-1');
        await page.click(tid('register'));
        await page.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), name]);
        await page.goto('/account');
        await page.fill(tid('pw-current'), 'correct-horse-1');
        await page.fill(tid('pw-new'), 'password123');
        await page.fill(tid('pw-repeat'), 'password123');
        await page.click(tid('pw-submit'));
        await page.locator(tid('pw-error')).filter({ hasText: /\S/ }).waitFor();
        await shot('account');
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

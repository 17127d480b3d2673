// SPDX-License-Identifier: GPL-3.0-or-later
// Screenshots of the home page, a game in progress, the analysis board, 学棋 / Learn (the index and three kinds
// of step), the account page and the class pages (login cards, the dashboard, my homework), in Chinese and English,
// on a desktop and a 360-px phone, into docs/screenshots/.
//
//   node tests/e2e/screenshots.mjs [path/to/guoxiang]    (default target/release/guoxiang; or GX_BASE=URL)

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chooseMove,
  clickMove,
  clickSquare,
  doLessonSteps,
  failTrainerPuzzle,
  illegalTry,
  isLegalUci,
  launch,
  learnLessons,
  guardedMove,
  learnTry,
  openStep,
  pieceToShow,
  newPage,
  solveTrainerPuzzle,
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

// GX_SHOTS=learn renews only the Learn pictures (GX_SHOTS=play the play pages', GX_SHOTS=account the account page's,
// GX_SHOTS=classroom the class pages': login cards, the dashboard, my homework; GX_SHOTS=study a study's editor and
// a student following its presentation).
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
/**
 * 课堂 / Classes: a teacher (on `page`) makes a class of four students and reads their login cards (and their print
 * layout, on the desktop), gives a lesson and puzzles of a theme; one student does the lesson through "my homework",
 * another fails one puzzle of the theme and solves two in the trainer; the teacher's dashboard. Pictures class-cards, class-cards-print,
 * class-dashboard, homework.
 */
async function classroomShots(page, lang, d, shot) {
  const sfx = `${lang}${d.name.slice(0, 1)}${String(Date.now()).slice(-5)}`;
  const r = await page.context().request.post('/api/register', { data: { username: `teacher_${sfx}`, password: 'correct horse battery' } });
  if (!r.ok()) throw new Error(`register: ${r.status()} ${await r.text()}`);
  page.on('dialog', (x) => void x.accept());
  await page.goto('/class');
  await page.fill(tid('class-name'), lang === 'zh' ? '三年级二班' : 'Year 3, class 2');
  await page.click(tid('class-name-submit'));
  await page.waitForURL(/\/class\/[A-Za-z0-9_-]+$/);
  const classUrl = new URL(page.url()).pathname;
  await page.fill(tid('add-count'), '4');
  await page.click(tid('add-students'));
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, tid('student-row'));
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, tid('login-card'));
  const logins = await page.$$eval(tid('login-card'), (els) => els.map((e) => ({ username: e.dataset.username, password: e.dataset.password })));
  await page.locator(tid('login-cards')).scrollIntoViewIfNeeded();
  await page.waitForTimeout(200);
  await shot('class-cards');
  if (!d.mobile) {
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: join(OUT, `class-cards-print-${lang}-${d.name}.png`), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  }
  // Homework: the first lesson of the course without a game, and puzzles of a theme.
  const lesson = lessons.find((l) => !l.chapter_optional && l.steps.every((s) => s.kind !== 'play'));
  await page.selectOption(tid('assign-kind'), 'lesson');
  await page.selectOption(tid('assign-lesson'), lesson.id);
  // Due yesterday: done today, it is late.
  const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  await page.fill(tid('assign-due'), day(-1));
  await page.click(tid('assign-submit'));
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, tid('assignment'));
  await page.selectOption(tid('assign-kind'), 'puzzles');
  const themes = await page.$$eval(`${tid('assign-theme')} option`, (os) => os.map((o) => o.value));
  await page.selectOption(tid('assign-theme'), themes.includes('back_rank_mate') ? 'back_rank_mate' : themes[0]);
  await page.fill(tid('assign-count'), '3');
  await page.fill(tid('assign-due'), day(7));
  await page.click(tid('assign-submit'));
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, tid('assignment'));
  // One student does the lesson from their homework page; another solves one puzzle.
  const browserOf = page.context().browser();
  for (const [i, work] of [[0, 'lesson'], [1, 'puzzles']]) {
    const S = await newPage(browserOf, server.base, { lang, ...d });
    const sp = S.page;
    await sp.goto('/login');
    await sp.fill(tid('username'), logins[i].username);
    await sp.fill(tid('password'), logins[i].password);
    await sp.click(tid('login'));
    await sp.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), logins[i].username]);
    await sp.goto('/homework');
    await sp.waitForSelector(`${tid('homework-item')}[data-kind="${work}"] ${tid('homework-link')}`);
    await sp.click(`${tid('homework-item')}[data-kind="${work}"] ${tid('homework-link')}`);
    if (work === 'lesson') await doLessonSteps(sp, lesson);
    else {
      // One failed, two solved: the class's weakest themes have something to say.
      await failTrainerPuzzle(sp);
      for (let k = 0; k < 2; k++) {
        const prev = await sp.$eval(tid('puzzle-board'), (el) => el.dataset.puzzle);
        // A DOM click: on a phone the result's move list may lie over the button while the page settles.
        await sp.$eval(tid('puzzle-next'), (el) => el.click());
        await sp.waitForFunction(([sel, x]) => document.querySelector(sel)?.dataset.puzzle !== x, [tid('puzzle-board'), prev]);
        await solveTrainerPuzzle(sp);
      }
    }
    await sp.goto('/homework');
    await sp.waitForSelector(tid('homework-item'));
    await sp.waitForTimeout(200);
    if (i === 0) {
      const path = join(OUT, `homework-${lang}-${d.name}.png`);
      await sp.screenshot({ path, fullPage: d.mobile });
      console.log(path);
    }
    await S.context.close();
  }
  await page.goto(classUrl);
  await page.waitForSelector(tid('dash-grid'));
  await page.locator(tid('class-dashboard')).scrollIntoViewIfNeeded();
  await page.waitForTimeout(200);
  await shot('class-dashboard');
}

/**
 * 研究 / Studies: a teacher's study written over the API (a chapter with a comment in both languages, arrows and a
 * circle, a variation, an exercise), shared with their class of one student; the editor at a move with its arrows;
 * the teacher presents and the student's page follows. Pictures study-editor, study-follow.
 */
async function studyShots(page, lang, d, shot) {
  const sfx = `${lang}${d.name.slice(0, 1)}${String(Date.now()).slice(-5)}`;
  const req = page.context().request;
  const ok = async (r, what) => {
    if (!r.ok()) throw new Error(`${what}: ${r.status()} ${await r.text()}`);
    return r.json();
  };
  await ok(await req.post('/api/register', { data: { username: `st_${sfx}`, password: 'correct horse battery' } }), 'register');
  const cls = await ok(await req.post('/api/class', { data: { name: lang === 'zh' ? '三年级二班' : 'Year 3, class 2' } }), 'class');
  const [card] = (await ok(await req.post(`/api/class/${cls.id}/students`, { data: { count: 1 } }), 'students')).students;
  const created = await ok(await req.post('/api/study', { data: { title: lang === 'zh' ? '开局三原则' : 'Three opening principles' } }), 'study');
  const note = (zh, en) => ({ zh, en });
  const study = {
    title: note('开局三原则', 'Three opening principles'),
    chapters: [
      {
        name: note('抢占中心', 'Take the centre'),
        fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        comment: note('开局时先想：怎样占领中心？', 'At the start, think: how do I take the centre?'),
        moves: [
          { san: 'e4', nags: [1], comment: note('兵占中心，同时给后和象让开了路。', 'A pawn in the centre, and the queen and bishop can come out.'), shapes: [{ brush: 'green', orig: 'e4', dest: 'd5' }, { brush: 'green', orig: 'e4', dest: 'f5' }] },
          { san: 'e5', variations: [[{ san: 'c5', comment: note('西西里防御', 'The Sicilian Defence') }]] },
          { san: 'Nf3', comment: note('马出动，攻击 e5 兵。', 'The knight comes out and attacks the pawn on e5.'), shapes: [{ brush: 'red', orig: 'f3', dest: 'e5' }, { brush: 'yellow', orig: 'e5' }] },
          { san: 'Nc6' },
          { san: 'Bc4', shapes: [{ brush: 'blue', orig: 'c4', dest: 'f7' }, { brush: 'red', orig: 'f7' }] },
        ],
      },
      { name: note('快出子', 'Develop quickly'), fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: [] },
      { name: note('王车易位', 'Castle early'), fen: 'r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', moves: [] },
    ],
  };
  await ok(await req.put(`/api/study/${created.id}`, { data: { ...study, visibility: 'class', class: cls.id } }), 'save');
  await page.goto(`/study/${created.id}`);
  await page.waitForSelector(tid('study-tree'));
  await page.click(`${tid('study-move')}[data-path="2"]`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.path === '2', tid('board'));
  await page.waitForTimeout(300);
  await shot('study-editor');
  // The student follows the teacher's presentation.
  const S = await newPage(page.context().browser(), server.base, { lang, ...d });
  const sp = S.page;
  await sp.goto('/login');
  await sp.fill(tid('username'), card.username);
  await sp.fill(tid('password'), card.password);
  await sp.click(tid('login'));
  await sp.waitForFunction(([sel, u]) => document.querySelector(sel)?.textContent === u, [tid('me'), card.username]);
  await sp.goto(`/study/${created.id}`);
  await sp.waitForSelector(tid('study-tree'));
  await page.click(tid('study-present'));
  await page.click(`${tid('study-move')}[data-path="4"]`);
  await sp.waitForFunction((sel) => document.querySelector(sel)?.dataset.path === '4', tid('board'), { timeout: 20_000 });
  await sp.waitForTimeout(300);
  const path = join(OUT, `study-follow-${lang}-${d.name}.png`);
  await sp.screenshot({ path, fullPage: d.mobile });
  console.log(path);
  await page.click(tid('study-present'));
  await S.context.close();
}

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
      if (!ONLY || ONLY.includes('classroom')) await classroomShots(page, lang, d, shot);
      if (!ONLY || ONLY.includes('study')) await studyShots(page, lang, d, shot);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

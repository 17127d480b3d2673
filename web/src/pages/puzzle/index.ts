// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: the pages — `/puzzle` (the next puzzle near your puzzle rating, of the theme chosen),
// `/puzzle/{id}`, `/puzzle/daily`, `/puzzle/streak` (no rating, puzzles of rising rating, over at the first
// mistake) and `/puzzle/dashboard`. A round's rules are in ctrl.ts, the rendering in view.ts, the board in
// board.ts, the server calls in xhr.ts and what the browser keeps (a guest's rating and history) in storage.ts.

import { HttpError } from '../../api';
import { currentUser, errorText, navigate, toast } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { t } from '../../i18n';
import { getSetting } from '../../settings';
import { localProgress } from '../learn/xhr';
import { puzzleBoard } from './board';
import {
  applyVerdict,
  canMove,
  endSolution,
  newRound,
  playReply,
  roundDue,
  solutionRest,
  solutionStep,
  startSolution,
  startTry,
  stepView,
  streakRating,
  takeHint,
  tryFailed,
} from './ctrl';
import type { Mode, RoundState } from './ctrl';
import {
  bestStreak,
  guestRecord,
  saveBestStreak,
  saveDifficulty,
  saveGuestRecord,
  savedDifficulty,
  savedTheme,
  saveTheme,
  withRound,
} from './storage';
import { dashboardView, difficultyPicker, roundPanel, streakBar, themePicker, topBar } from './view';
import type { DashboardData, Tab } from './view';
import { dailyPuzzle, dashboard, loadThemes, nameMotifs, nextPuzzle, puzzleById, sendRound, tryMoves } from './xhr';
import type { Difficulty, Puzzle, Themes } from './xhr';

/** How long the setup move and each move of a reply or of the solution are left on screen before the next. */
const SETUP_DELAY_MS = 500;
const REPLY_DELAY_MS = 350;
const SOLUTION_DELAY_MS = 500;

const isGuest = () => {
  const u = currentUser();
  return !u || u.guest;
};

function loadingEl(): HTMLElement {
  return h('div', { class: 'puzzle-loading', testid: 'puzzle-loading', role: 'status' }, h('div', { class: 'puzzle-spinner' }), h('span', {}, t('puzzle.loading')));
}

/** The rating shown in the top bar: a guest's from the browser, an account's from the server. */
async function currentRating(): Promise<{ rating: number; provisional: boolean } | null> {
  if (isGuest()) {
    const r = guestRecord();
    return { rating: r.rating.rating, provisional: r.provisional };
  }
  try {
    const d = await dashboard();
    return { rating: d.rating.rating, provisional: d.rating.provisional };
  } catch {
    return null;
  }
}

/** `theme`: the theme to train (a homework's link, `/puzzle?theme=…`), remembered as if chosen. */
export function puzzlePage(tab: Tab, id: string | null = null, theme: string | null = null): Page {
  if (theme && tab === 'train' && !id) saveTheme(theme);
  return tab === 'dashboard' ? dashboardPage() : trainerPage(tab, id);
}

function dashboardPage(): Page {
  const topEl = h('div', {}, topBar('dashboard', null));
  const body = h('div', {}, loadingEl());
  const el = h('div', { class: 'page puzzle-page' }, topEl, body);
  void (async () => {
    const [th, rating] = await Promise.all([loadThemes().catch(() => null), currentRating()]);
    replace(topEl, topBar('dashboard', rating));
    try {
      let data: DashboardData;
      if (isGuest()) {
        const r = guestRecord();
        data = {
          rating: { rating: r.rating.rating, provisional: r.provisional, rounds: r.history.length },
          history: r.history,
          themes: Object.entries(r.themes).map(([tid, v]) => ({ id: tid, ...v })),
          guest: true,
        };
      } else {
        const d = await dashboard();
        data = { ...d, guest: false };
      }
      replace(body, dashboardView(data, th));
    } catch (e) {
      replace(body, h('p', { class: 'warn', testid: 'puzzle-error' }, errorText(e)));
    }
  })();
  return { el };
}

function trainerPage(tab: Tab, id: string | null): Page {
  const mode: Mode = tab === 'streak' ? 'streak' : tab === 'daily' ? 'daily' : 'train';
  let destroyed = false;
  let themes: Themes | null = null;
  let theme: string | null = savedTheme();
  // Sent only once chosen (an account's server remembers its choice and says it with each puzzle).
  let difficulty: Difficulty | null = savedDifficulty();
  let rating: { rating: number; provisional: boolean } | null = null;
  let st: RoundState | null = null;
  let streak = 0;
  let best = bestStreak();
  const streakSeen: string[] = [];
  const timers = new Set<number>();

  const topEl = h('div', {});
  const themeEl = h('div', { class: 'puzzle-theme-row' });
  const boardCol = h('div', { class: 'board-col puzzle-board-col' });
  const sideEl = h('div', { class: 'side puzzle-side' });
  const body = h('div', { class: 'puzzle-body' }, boardCol, sideEl);
  const el = h('div', { class: 'page puzzle-page', testid: 'puzzle-page', 'data-mode': mode }, topEl, themeEl, body);
  const board = puzzleBoard((uci) => void tryMove(uci));

  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const id = window.setTimeout(() => {
        timers.delete(id);
        resolve();
      }, ms);
      timers.add(id);
    });

  function renderTop(): void {
    replace(topEl, topBar(tab, rating));
    if (mode === 'train') replace(themeEl, themePicker(themes, theme, chooseTheme), difficultyPicker(difficulty ?? 'normal', chooseDifficulty));
    else if (mode === 'streak') replace(themeEl, streakBar(streak, best));
    else replace(themeEl, h('p', { class: 'hint puzzle-daily-note' }, t('puzzle.dailyNote')));
  }

  function render(): void {
    renderTop();
    if (!st) return;
    if (boardCol.firstChild !== board.el) replace(boardCol, board.el);
    board.show(st);
    replace(
      sideEl,
      roundPanel(st, themes, {
        hint,
        solution: () => void showSolution(),
        next,
        step: (ply) => {
          if (!st) return;
          stepView(st, ply);
          render();
        },
        redraw: render,
      }),
    );
  }

  function showMessage(text: string, extra: HTMLElement | null = null): void {
    st = null;
    replace(boardCol);
    replace(sideEl, h('div', { class: 'puzzle-message', testid: 'puzzle-message' }, h('p', {}, text), extra));
    renderTop();
  }

  async function fetchPuzzle(): Promise<Puzzle> {
    if (id) return puzzleById(id);
    if (mode === 'daily') return dailyPuzzle();
    if (mode === 'streak') return (await nextPuzzle({ rating: streakRating(streak), exclude: streakSeen })).puzzle;
    const guest = isGuest();
    const rec = guest ? guestRecord() : null;
    // A guest with no round yet is a new player: the server starts them low, or from the 学棋 lessons done here.
    const fresh = !!rec && rec.history.length === 0;
    const course = fresh ? Object.values(localProgress(null).lessons).filter((l) => l.done).length : null;
    const n = await nextPuzzle({
      theme,
      rating: rec && !fresh ? rec.rating.rating : null,
      exclude: rec ? rec.history.map((x) => x.id).reverse() : [],
      difficulty,
      course,
    });
    if (!guest && n.difficulty && n.difficulty !== difficulty) {
      difficulty = n.difficulty;
      saveDifficulty(n.difficulty);
    }
    if (rec && fresh && n.newcomer) {
      saveGuestRecord({ ...rec, rating: n.newcomer, provisional: true });
      rating = { rating: n.newcomer.rating, provisional: true };
    } else if (!guest && n.newcomer) {
      rating = { rating: n.newcomer.rating, provisional: true };
    }
    return n.puzzle;
  }

  async function load(): Promise<void> {
    st = null;
    replace(sideEl, loadingEl());
    replace(boardCol, h('div', { class: 'puzzle-board-placeholder' }));
    renderTop();
    let p: Puzzle;
    try {
      p = await fetchPuzzle();
    } catch (e) {
      if (destroyed) return;
      if (e instanceof HttpError && e.status === 404) {
        if (mode === 'streak') {
          streakOver();
          return showMessage(t('puzzle.streakAllDone', { n: String(streak) }), h('button', { class: 'btn primary', testid: 'puzzle-next', onclick: newStreak }, t('puzzle.newStreak')));
        }
        const clear = theme
          ? h('button', { class: 'btn primary', testid: 'puzzle-any', onclick: () => chooseTheme(null) }, t('puzzle.anyTheme'))
          : null;
        return showMessage(id ? t('puzzle.notFound') : theme ? t('puzzle.noneForTheme') : t('puzzle.none'), clear);
      }
      return showMessage(errorText(e), h('button', { class: 'btn', onclick: () => void load() }, t('puzzle.retry')));
    }
    if (destroyed) return;
    if (mode === 'streak') streakSeen.push(p.id);
    const round = newRound(nameMotifs(p, themes), mode);
    st = round;
    render();
    await later(SETUP_DELAY_MS);
    if (destroyed || st !== round) return;
    round.setupDone = true;
    render();
  }

  function chooseDifficulty(v: Difficulty): void {
    difficulty = v;
    saveDifficulty(v);
    if (location.pathname !== '/puzzle') navigate('/puzzle');
    else void load();
  }

  function chooseTheme(v: string | null): void {
    theme = v;
    saveTheme(v);
    if (location.pathname !== '/puzzle') navigate('/puzzle');
    else void load();
  }

  function next(): void {
    if (mode === 'streak') {
      if (st && st.over && st.win === false) return newStreak();
      void load();
      return;
    }
    if (location.pathname !== '/puzzle') navigate('/puzzle');
    else void load();
  }

  function newStreak(): void {
    streak = 0;
    streakSeen.length = 0;
    void load();
  }

  function streakOver(): void {
    saveBestStreak(streak);
    best = bestStreak();
  }

  function hint(): void {
    if (st && takeHint(st)) render();
  }

  async function tryMove(uci: string): Promise<void> {
    const round = st;
    if (!round || !canMove(round)) return;
    startTry(round, uci);
    render();
    let v;
    try {
      v = await tryMoves(round.puzzle.id, [...round.played, uci], getSetting('chineseLetters'));
    } catch (e) {
      if (destroyed || st !== round) return;
      tryFailed(round, errorText(e));
      render();
      return;
    }
    if (destroyed || st !== round) return;
    const out = applyVerdict(round, uci, v);
    render();
    void send(round);
    if (out && 'reply' in out) {
      await later(REPLY_DELAY_MS);
      if (destroyed || st !== round) return;
      playReply(round, out.reply);
      render();
    }
    if (mode === 'streak' && round.over) {
      if (round.win) {
        streak++;
        saveBestStreak(streak);
        best = bestStreak();
      } else streakOver();
      render();
    }
  }

  async function showSolution(): Promise<void> {
    const round = st;
    if (!round || !canMove(round)) return;
    const rest = solutionRest(round);
    startSolution(round);
    render();
    void send(round);
    for (const m of rest) {
      await later(SOLUTION_DELAY_MS);
      if (destroyed || st !== round) return;
      solutionStep(round, m);
      render();
    }
    endSolution(round);
    if (mode === 'streak') streakOver();
    render();
  }

  /** Sends the round once its result is fixed: the rating moves (a guest's is kept in the browser). */
  async function send(round: RoundState): Promise<void> {
    if (!roundDue(round)) return;
    round.sent = true;
    const guest = isGuest();
    const rec = guest ? guestRecord() : null;
    try {
      const a = await sendRound(round.puzzle.id, { win: round.win === true, hints: round.hintsUsed, streak: false, rating: rec?.rating });
      round.answer = a;
      rating = { rating: a.rating.after, provisional: a.rating.provisional };
      if (rec) {
        const entry = {
          id: round.puzzle.id,
          win: round.win === true,
          rating_after: a.rating.after,
          at: Date.now(),
          motifs: round.puzzle.motifs.map((m) => m.id),
          number: round.puzzle.number || undefined,
        };
        saveGuestRecord(withRound(rec, entry, { rating: a.rating.after, deviation: a.rating.deviation, volatility: a.rating.volatility }, a.rating.provisional));
      }
    } catch (e) {
      toast(errorText(e));
    }
    if (!destroyed && st === round) render();
  }

  const onKey = (e: KeyboardEvent) => {
    if (!st || !st.over) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowLeft') stepView(st, st.view - 1);
    else if (e.key === 'ArrowRight') stepView(st, st.view + 1);
    else if (e.key === 'Home') stepView(st, 0);
    else if (e.key === 'End') stepView(st, Number.MAX_SAFE_INTEGER);
    else return;
    e.preventDefault();
    render();
  };
  document.addEventListener('keydown', onKey);

  void loadThemes()
    .then((th) => {
      if (destroyed) return;
      themes = th;
      if (st) st.puzzle = nameMotifs(st.puzzle, th);
      if (st) render();
      else renderTop();
    })
    .catch(() => undefined);
  void currentRating().then((r) => {
    if (destroyed) return;
    rating = rating ?? r;
    renderTop();
  });
  void load();

  return {
    el,
    destroy() {
      destroyed = true;
      for (const x of timers) window.clearTimeout(x);
      document.removeEventListener('keydown', onKey);
      board.destroy();
    },
  };
}

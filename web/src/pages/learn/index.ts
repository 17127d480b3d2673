// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: the pages — `/learn` (the course's index with the learner's progress) and `/learn/{lesson}` (the
// lesson: intro, its steps one by one, the end with stars). The state and rules are in ctrl.ts, the rendering in
// view.ts, the board in board.ts, a `play` step's game in play.ts, the server calls and storage in xhr.ts.

import type { LearnChapter, LearnLesson, LearnProgress } from '../../protocol_http';
import { currentUser, errorText, link } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { t } from '../../i18n';
import { stepBoard } from './board';
import {
  advance,
  allLessons,
  applyPlayVerdict,
  applyVerdict,
  currentStep,
  lessonAfter,
  newLesson,
  newStep,
  playTryBody,
  recordStep,
  restartStep,
  singleChoice,
  starsFor,
  tryBody,
} from './ctrl';
import type { LessonState, StepState } from './ctrl';
import { playView } from './play';
import type { PlayView } from './play';
import { doneView, indexView, introView, lessonHeader, stepPanel } from './view';
import type { StepHandlers } from './view';
import { judge, judgeGame, loadCourse, saveProgress, serverKeeps, syncProgress } from './xhr';

function loading(): HTMLElement {
  return h('div', { class: 'page' }, h('p', { class: 'waiting' }, t('common.loading')));
}

function failed(e: unknown): HTMLElement {
  return h('div', { class: 'page narrow' }, h('p', { class: 'warn', testid: 'learn-error' }, t('learn.loadError')), h('p', { class: 'hint' }, errorText(e)));
}

export function learnIndexPage(): Page {
  const el = h('div', { class: 'learn-wrap' }, loading());
  void Promise.all([loadCourse(), syncProgress(currentUser())])
    .then(([chapters, progress]) => replace(el, indexView(chapters, progress, !currentUser() || currentUser()!.guest)))
    .catch((e: unknown) => replace(el, failed(e)));
  return { el };
}

export function lessonPage(id: string): Page {
  const el = h('div', { class: 'learn-wrap' }, loading());
  let destroyed = false;
  let teardown: (() => void) | null = null;
  void Promise.all([loadCourse(), syncProgress(currentUser())])
    .then(([chapters, progress]) => {
      if (destroyed) return;
      const lesson = allLessons(chapters).find((l) => l.id === id);
      if (!lesson) {
        replace(el, h('div', { class: 'page narrow' }, h('p', { testid: 'learn-error' }, t('learn.notFound')), h('p', {}, link('/learn', t('learn.back')))));
        return;
      }
      teardown = mountLesson(el, chapters, lesson, progress);
    })
    .catch((e: unknown) => replace(el, failed(e)));
  return {
    el,
    destroy() {
      destroyed = true;
      teardown?.();
    },
  };
}

/** Where to start: a lesson left half-way goes on at its first step not done (a finished one starts afresh). */
function resumeAt(lesson: LearnLesson, p: LearnProgress): number {
  const e = p.lessons[lesson.id];
  if (!e || e.done || !e.steps.length) return 0;
  const i = lesson.steps.findIndex((_, k) => !e.steps.includes(k));
  return i < 0 ? 0 : i;
}

function mountLesson(root: HTMLElement, chapters: LearnChapter[], lesson: LearnLesson, progress: LearnProgress): () => void {
  const ls: LessonState = newLesson(lesson);
  const resume = resumeAt(lesson, progress);
  if (resume > 0) {
    ls.intro = false;
    ls.step = newStep(lesson.steps[resume], resume);
  }
  let prog = progress;
  let play: PlayView | null = null;
  let playStep = -1;

  const headEl = h('div', {});
  const boardCol = h('div', { class: 'board-col learn-board-col' });
  const sideEl = h('div', { class: 'learn-side-wrap' });
  const stepArea = h('div', { class: 'learn-body' }, boardCol, sideEl);
  const otherEl = h('div', {});
  const page = h('div', { class: 'page learn-lesson', testid: 'lesson', 'data-lesson': lesson.id }, headEl, stepArea, otherEl);
  replace(root, page);

  const board = stepBoard({ move: (uci) => void tryItem(uci), square: (sq) => void tryItem(sq) });

  async function tryItem(item: string | null): Promise<void> {
    const st = ls.step;
    if (st.busy || st.done) return;
    st.busy = true;
    render();
    const index = st.index;
    try {
      const v = await judge(tryBody(ls, item));
      if (ls.step !== st) return; // moved on meanwhile
      const done = applyVerdict(ls, item, v);
      if (done) stepDone(index);
    } catch (e) {
      st.busy = false;
      st.feedback = { kind: 'wrong', reason: { zh: errorText(e), en: errorText(e) }, hint: null };
    }
    render();
  }

  function stepDone(index: number): void {
    const last = index >= lesson.steps.length - 1;
    prog = recordStep(prog, lesson.id, index, last ? starsFor(ls.wrong) : undefined);
    void saveProgress(currentUser(), prog, lesson.id);
  }

  /**
   * A registered account's game is also judged by the server, which earns the step for its progress (what a
   * teacher sees); a guest's progress is the browser's only, so nothing is sent for a guest.
   */
  async function judgePlayed(st: StepState, met: boolean, game: string): Promise<void> {
    if (!serverKeeps(currentUser())) return;
    try {
      const v = await judgeGame(playTryBody(ls, st.index, game));
      applyPlayVerdict(st, met, v);
    } catch (e) {
      if (met) st.serverNote = { zh: errorText(e), en: errorText(e) };
    }
    if (ls.step === st) render();
  }

  const handlers: StepHandlers = {
    hint() {
      ls.step.hintShown = true;
      render();
    },
    next() {
      advance(ls);
      render();
      window.scrollTo(0, 0);
    },
    retry() {
      restartStep(ls);
      render();
    },
    pick(x) {
      const st = ls.step;
      if (st.done || st.busy) return;
      const step = currentStep(ls);
      if (step.kind === 'choice' && singleChoice(step)) {
        st.picked = [x];
        void tryItem(null);
        return;
      }
      st.picked = st.picked.includes(x) ? st.picked.filter((y) => y !== x) : [...st.picked, x];
      if (st.feedback?.kind === 'wrong') st.feedback = null;
      render();
    },
    check() {
      void tryItem(null);
    },
  };

  function render(): void {
    replace(headEl, lessonHeader(ls));
    if (ls.intro || ls.finished) {
      stepArea.hidden = true;
      dropPlay();
      replace(otherEl, ls.intro ? introView(ls, start) : doneView(ls, lessonAfter(chapters, lesson.id)));
      return;
    }
    replace(otherEl);
    stepArea.hidden = false;
    const step = currentStep(ls);
    if (step.kind === 'play') {
      if (!play || playStep !== ls.step.index) {
        dropPlay();
        playStep = ls.step.index;
        const st = ls.step;
        play = playView(step, (r) => {
          if (ls.step !== st) return;
          if (r.met) {
            st.done = true;
            st.feedback = { kind: 'done', text: step.success };
            stepDone(st.index);
          } else {
            st.wrong++;
            ls.wrong++;
            st.hintShown = true;
          }
          void judgePlayed(st, r.met, r.game);
          render();
        });
      }
      if (boardCol.firstChild !== play.board) replace(boardCol, play.board);
      replace(sideEl, stepPanel(step, ls, handlers, play.panel));
      return;
    }
    dropPlay();
    if (boardCol.firstChild !== board.el) replace(boardCol, board.el);
    board.show(step, ls.step);
    replace(sideEl, stepPanel(step, ls, handlers, null));
  }

  function start(): void {
    ls.intro = false;
    render();
  }

  function dropPlay(): void {
    play?.destroy();
    play = null;
    playStep = -1;
  }

  render();
  return () => {
    dropPlay();
    board.destroy();
  };
}

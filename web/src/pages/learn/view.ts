// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: rendering — the course's index (chapters, lesson cards, overall progress) and the lesson's parts
// (header, intro, the step's panel with prompt, answers, feedback, hint and success, the lesson's end).

import type { Bilingual as LearnText, LearnChapter, LearnLesson, LearnProgress, LearnStep } from '../../protocol_http';
import { link } from '../../app';
import { chineseSan } from '../../chess';
import { h } from '../../dom';
import type { Child } from '../../dom';
import { getLang, pick, t } from '../../i18n';
import { candidateSan, countDone, isEscape, isStars, nextToLearn, singleChoice, starsFor } from './ctrl';
import type { LessonState } from './ctrl';

export const tx = (x: LearnText | null | undefined): string => (x ? pick(x.zh, x.en) : '');

const sanText = (s: string) => (getLang() === 'zh' ? chineseSan(s) : s);

export function starsEl(n: number, testid?: string): HTMLElement {
  const full = Math.max(0, Math.min(3, n));
  return h(
    'span',
    { class: 'learn-stars', testid, 'data-stars': String(full), role: 'img', 'aria-label': t('learn.starsAria', { n: String(full) }) },
    h('span', { class: 'on' }, '★'.repeat(full)),
    h('span', { class: 'off' }, '★'.repeat(3 - full)),
  );
}

// ---- the index ----

function lessonCard(l: LearnLesson, p: LearnProgress, n: number): HTMLElement {
  const e = p.lessons[l.id];
  const state = e?.done ? 'done' : e && e.steps.length ? 'started' : 'new';
  const card = link(`/learn/${l.id}`, '', { class: `lesson-card ${state}`, testid: 'lesson-card' });
  card.dataset.lesson = l.id;
  card.dataset.done = e?.done ? '1' : '0';
  card.dataset.stars = String(e?.stars ?? 0);
  card.append(
    h('span', { class: 'lesson-num' }, String(n)),
    h('span', { class: 'lesson-title' }, tx(l.title)),
    h(
      'span',
      { class: 'lesson-state' },
      state === 'done' ? starsEl(e!.stars) : null,
      h('span', { class: 'lesson-state-text' }, t(state === 'done' ? 'learn.done' : state === 'started' ? 'learn.started' : 'learn.new')),
    ),
  );
  return card;
}

export function indexView(chapters: LearnChapter[], p: LearnProgress, guest: boolean): HTMLElement {
  const { done, total } = countDone(chapters, p);
  const next = nextToLearn(chapters, p);
  const optional = chapters.filter((c) => c.optional);
  let n = 0;
  const chapterSection = (c: LearnChapter): HTMLElement =>
    h(
      'section',
      { class: `learn-chapter${c.optional ? ' optional' : ''}`, testid: 'learn-chapter', 'data-chapter': c.id, 'data-optional': c.optional ? '1' : '0' },
      // An optional chapter has no number: its section's heading says what it is.
      h('h2', {}, c.optional ? null : h('span', { class: 'chapter-num' }, t('learn.chapter', { n: String(c.order) })), c.optional ? null : ' ', tx(c.title)),
      h('p', { class: 'hint' }, tx(c.summary)),
      h('div', { class: 'lesson-cards' }, [...c.lessons].sort((a, b) => a.order - b.order).map((l) => lessonCard(l, p, ++n))),
    );
  return h(
    'div',
    { class: 'page learn-index' },
    h('h1', {}, t('learn.title')),
    h('p', { class: 'subtitle' }, t('learn.subtitle')),
    h(
      'div',
      { class: 'learn-summary' },
      h('div', { class: 'learn-progress', testid: 'learn-progress' }, t('learn.progress', { done: String(done), total: String(total) })),
      h('div', { class: 'learn-bar' }, h('div', { class: 'learn-bar-fill', style: `width: ${total ? (100 * done) / total : 0}%` })),
      next ? link(`/learn/${next.id}`, t('learn.continue', { title: tx(next.title) }), { class: 'btn primary', testid: 'learn-continue' }) : h('p', {}, t('learn.courseDone')),
      guest ? h('p', { class: 'hint' }, t('learn.guestNote')) : null,
    ),
    chapters.filter((c) => !c.optional).map(chapterSection),
    // The optional chapters (比赛规则) come apart, after the course: not needed to finish it.
    optional.length
      ? h(
          'div',
          { class: 'learn-optional', testid: 'learn-optional' },
          h('h2', { class: 'learn-optional-title' }, t('learn.optionalTitle')),
          h('p', { class: 'hint' }, t('learn.optionalNote')),
          optional.map(chapterSection),
        )
      : null,
  );
}

// ---- the lesson ----

export interface StepHandlers {
  hint(): void;
  next(): void;
  retry(): void;
  pick(x: number | string): void;
  check(): void;
}

export function lessonHeader(ls: LessonState): HTMLElement {
  const total = ls.lesson.steps.length;
  const i = ls.step.index;
  return h(
    'div',
    { class: 'learn-head' },
    link('/learn', '‹ ' + t('learn.back'), { class: 'learn-back', testid: 'learn-back' }),
    h('div', { class: 'learn-chapter-title' }, tx(ls.lesson.chapter_title)),
    h('h1', { testid: 'lesson-title' }, tx(ls.lesson.title)),
    ls.finished || ls.intro
      ? null
      : h(
          'div',
          { class: 'learn-steps' },
          h('span', { testid: 'lesson-step', 'data-step': String(i) }, t('learn.stepOf', { n: String(i + 1), total: String(total) })),
          h(
            'span',
            { class: 'step-dots' },
            ls.lesson.steps.map((_, k) => h('span', { class: 'step-dot' + (k < i || (k === i && ls.step.done) ? ' done' : k === i ? ' current' : '') })),
          ),
        ),
  );
}

export function introView(ls: LessonState, start: () => void): HTMLElement {
  return h(
    'div',
    { class: 'learn-intro', testid: 'lesson-intro' },
    tx(ls.lesson.intro)
      .split(/\n+/)
      .map((para) => h('p', {}, para)),
    h('button', { class: 'btn primary big', testid: 'lesson-start', onclick: start }, t('learn.start')),
  );
}

function progressLine(step: LearnStep, ls: LessonState): Child {
  const st = ls.step;
  if (isStars(step)) {
    const left = h('span', { testid: 'stars-left' }, t('learn.starsLeft', { n: String(st.remaining.length) }));
    const budget = step.max_moves ? ' · ' + t('learn.movesLeft', { n: String(Math.max(0, step.max_moves - st.moves.length)) }) : '';
    return h('div', { class: 'learn-count' }, left, budget);
  }
  if (step.kind === 'squares') {
    const total = (step.answer ?? []).length;
    return h('div', { class: 'learn-count' }, t('learn.squaresFound', { n: String(st.squares.length), total: String(total) }));
  }
  if (isEscape(step)) {
    const ways = st.found.map((w) => (w === 'king' ? t('learn.way.king') : w === 'capture' ? t('learn.way.capture') : w === 'block' ? t('learn.way.block') : w));
    return h(
      'div',
      { class: 'learn-count', testid: 'ways-found' },
      t('learn.waysFound', { n: String(st.found.length || st.moves.length), total: String(step.count ?? 1) }),
      ways.length ? (getLang() === 'zh' ? '：' : ': ') + ways.join(getLang() === 'zh' ? '、' : ', ') : '',
    );
  }
  return null;
}

function answers(step: LearnStep, ls: LessonState, on: StepHandlers): Child {
  const st = ls.step;
  const locked = st.done || st.busy;
  if (step.kind === 'choice') {
    const single = singleChoice(step);
    return h(
      'div',
      { class: 'learn-answers' },
      h(
        'div',
        { class: 'learn-choices' },
        (step.choices ?? []).map((c, i) =>
          h(
            'button',
            {
              class: 'btn learn-choice' + (st.picked.includes(i) ? ' pressed' : ''),
              testid: `choice-${i}`,
              'aria-pressed': single ? undefined : String(st.picked.includes(i)),
              disabled: locked,
              onclick: () => on.pick(i),
            },
            tx(c),
          ),
        ),
      ),
      single ? null : h('p', { class: 'hint' }, t('learn.pickAll')),
      single ? null : h('button', { class: 'btn primary', testid: 'lesson-check', disabled: locked || !st.picked.length, onclick: on.check }, t('learn.check')),
    );
  }
  if (step.kind === 'legal_moves') {
    const all = step.candidates ?? [];
    return h(
      'div',
      { class: 'learn-answers' },
      h(
        'div',
        { class: 'learn-choices candidates', translate: 'no' },
        all.map((u) =>
          h(
            'button',
            {
              class: 'btn learn-candidate' + (st.picked.includes(u) ? ' pressed' : ''),
              testid: `candidate-${u}`,
              'data-uci': u,
              'aria-pressed': String(st.picked.includes(u)),
              disabled: locked,
              onclick: () => on.pick(u),
            },
            sanText(candidateSan(step.fen, u, all)),
          ),
        ),
      ),
      h('p', { class: 'hint' }, t('learn.pickLegal')),
      h('button', { class: 'btn primary', testid: 'lesson-check', disabled: locked || !st.picked.length, onclick: on.check }, t('learn.check')),
    );
  }
  return null;
}

function feedback(ls: LessonState): Child {
  const f = ls.step.feedback;
  if (!f || f.kind === 'done') return null;
  if (f.kind === 'good') return h('div', { class: 'learn-feedback good', testid: 'lesson-feedback', role: 'status' }, t('learn.good'));
  return h(
    'div',
    { class: 'learn-feedback wrong', testid: 'lesson-feedback', role: 'alert' },
    h('b', {}, t('learn.wrong')),
    f.reason ? h('span', { testid: 'lesson-reason' }, ' ' + tx(f.reason)) : null,
  );
}

/** The side panel of a step (for `play`, `game` is the game's own panel). */
export function stepPanel(step: LearnStep, ls: LessonState, on: StepHandlers, game: HTMLElement | null): HTMLElement {
  const st = ls.step;
  const f = st.feedback;
  const last = ls.step.index >= ls.lesson.steps.length - 1;
  const hintText = st.feedback?.kind === 'wrong' && st.feedback.hint ? st.feedback.hint : step.hint;
  // A wrong try whose reason is the hint itself (the step's "not what was asked") shows it once.
  const hintInReason = st.feedback?.kind === 'wrong' && !!st.feedback.reason && tx(st.feedback.reason) === tx(hintText);
  return h(
    'div',
    { class: 'side learn-side', 'data-kind': step.kind, 'data-goal': step.goal ?? '' },
    h('div', { class: 'learn-prompt', testid: 'lesson-prompt' }, tx(step.prompt)),
    progressLine(step, ls),
    answers(step, ls, on),
    game,
    feedback(ls),
    st.serverNote
      ? h('div', { class: 'learn-feedback wrong', testid: 'lesson-server-note', role: 'alert' }, h('b', {}, t('learn.play.notRecorded')), ' ' + tx(st.serverNote))
      : null,
    st.done
      ? null
      : h(
          'div',
          { class: 'learn-hint-row' },
          st.hintShown ? null : h('button', { class: 'btn small', testid: 'lesson-hint-button', onclick: on.hint }, t('learn.hint')),
          st.hintShown && !hintInReason ? h('div', { class: 'learn-hint', testid: 'lesson-hint' }, h('b', {}, t('learn.hintLabel')), tx(hintText)) : null,
          st.moves.length || st.squares.length ? h('button', { class: 'btn small', testid: 'lesson-retry', onclick: on.retry }, t('learn.retry')) : null,
        ),
    f?.kind === 'done'
      ? h(
          'div',
          { class: 'learn-success', testid: 'lesson-step-done', role: 'status' },
          h('div', { class: 'learn-success-text' }, '✓ ', tx(f.text)),
          h('button', { class: 'btn good big', testid: 'lesson-next', onclick: on.next }, last ? t('learn.finish') : t('learn.next')),
        )
      : null,
  );
}

export function doneView(ls: LessonState, after: LearnLesson | null): HTMLElement {
  const stars = starsFor(ls.wrong);
  return h(
    'div',
    { class: 'learn-done', testid: 'lesson-done', 'data-stars': String(stars) },
    h('h2', {}, t('learn.lessonDone')),
    starsEl(stars, 'lesson-stars'),
    h('p', { class: 'hint' }, t('learn.wrongTries', { n: String(ls.wrong) })),
    h(
      'div',
      { class: 'form-buttons' },
      after
        ? link(`/learn/${after.id}`, t('learn.nextLesson', { title: tx(after.title) }), { class: 'btn primary big', testid: 'lesson-next-lesson' })
        : h('p', {}, t('learn.courseDone')),
      link('/learn', t('learn.back'), { class: 'btn', testid: 'lesson-index' }),
    ),
  );
}

// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: interactive steps — the owner's small form (find the move / pick the answer / click the squares,
// with the prompt, hint and success text in zh and en) and a reader's try, judged by the server
// (`POST /api/study/{id}/try`, the course's judge).

import { h } from '../../dom';
import { getLang, pick, t } from '../../i18n';
import type { LearnVerdict } from '../../protocol_http';
import type { Step } from './model';

type Text2 = { zh: string; en: string };

function text2(v: unknown): Text2 {
  if (typeof v === 'string') return { zh: v, en: v };
  const o = (v ?? {}) as Partial<Text2>;
  return { zh: o.zh ?? '', en: o.en ?? '' };
}

function both(zh: string, en: string, fallback: Text2): Text2 {
  const z = zh.trim() || en.trim() || fallback.zh;
  const e = en.trim() || zh.trim() || fallback.en;
  return { zh: z, en: e };
}

/** The words of a step in the reader's language. */
export function stepText(v: unknown): string {
  const x = text2(v);
  return getLang() === 'zh' ? x.zh || x.en : x.en || x.zh;
}

const words = (s: string) => s.split(/[\s,，]+/).map((x) => x.trim()).filter(Boolean);

/** The owner's form for the step at a position (`fen`): saves with `onSave(step | undefined)`. */
export function stepForm(step: Step | undefined, fen: string, onSave: (s: Step | undefined) => void): HTMLElement {
  const kind = h(
    'select',
    { testid: 'step-kind' },
    h('option', { value: 'moves', selected: step?.kind === 'moves' }, t('study.stepMoves')),
    h('option', { value: 'choice', selected: step?.kind === 'choice' }, t('study.stepChoice')),
    h('option', { value: 'squares', selected: step?.kind === 'squares' }, t('study.stepSquares')),
  );
  const ta = (testid: string, v: string, ph: string) => h('textarea', { testid, rows: 2, value: v, placeholder: ph });
  const p = text2(step?.prompt);
  const hi = text2(step?.hint);
  const su = text2(step?.success);
  const promptZh = ta('step-prompt-zh', p.zh, '中文');
  const promptEn = ta('step-prompt-en', p.en, 'English');
  const hintZh = ta('step-hint-zh', hi.zh, '中文');
  const hintEn = ta('step-hint-en', hi.en, 'English');
  const sucZh = ta('step-success-zh', su.zh, '中文');
  const sucEn = ta('step-success-en', su.en, 'English');
  const lines = (step?.lines as string[][] | undefined)?.[0]?.join(' ') ?? '';
  const targets = (step?.targets as string[] | undefined)?.join(' ') ?? '';
  const choices = ((step?.choices as unknown[] | undefined) ?? []).map((c) => `${text2(c).zh} | ${text2(c).en}`).join('\n');
  const answer = ((step?.answer as number[] | undefined) ?? []).map((a) => a + 1).join(' ');
  const movesIn = h('input', { testid: 'step-line', value: lines, placeholder: 'e2e4 e7e5 g1f3' });
  const squaresIn = h('input', { testid: 'step-targets', value: targets, placeholder: 'e4 d5' });
  const choicesIn = h('textarea', { testid: 'step-choices', rows: 3, value: choices, placeholder: t('study.choicesHelp') });
  const answerIn = h('input', { testid: 'step-answer', value: answer, placeholder: '1' });
  const kindFields = {
    moves: h('div', { class: 'field' }, h('label', {}, t('study.stepLine')), movesIn),
    squares: h('div', { class: 'field' }, h('label', {}, t('study.stepTargets')), squaresIn),
    choice: h('div', {}, h('div', { class: 'field' }, h('label', {}, t('study.stepChoices')), choicesIn), h('div', { class: 'field' }, h('label', {}, t('study.stepAnswer')), answerIn)),
  };
  const showKind = () => {
    for (const [k, el] of Object.entries(kindFields)) el.hidden = k !== kind.value;
  };
  kind.addEventListener('change', showKind);
  showKind();
  const save = () => {
    // The fields the form does not show (a course step's goal other than a line, its wrong answers' reasons…) are
    // kept while the kind stays the same.
    const kept: Partial<Step> = step && step.kind === kind.value ? { ...step } : {};
    const s: Step = {
      ...kept,
      kind: kind.value,
      fen,
      prompt: both(promptZh.value, promptEn.value, { zh: '', en: '' }),
      hint: both(hintZh.value, hintEn.value, { zh: '再想一想。', en: 'Think again.' }),
      success: both(sucZh.value, sucEn.value, { zh: '对了！', en: 'Right!' }),
    };
    if (kind.value === 'moves') {
      const line = words(movesIn.value);
      if (line.length || !kept.goal || kept.goal === 'line') {
        s.goal = 'line';
        s.lines = [line];
        // The learner's own moves of the line (every other one, the replies left out).
        s.solutions = [line.filter((_, i) => i % 2 === 0)];
      }
    } else if (kind.value === 'squares') s.targets = words(squaresIn.value);
    else {
      s.choices = choicesIn.value
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => {
          const [zh, en] = l.split('|');
          return both(zh ?? '', en ?? '', { zh: '', en: '' });
        });
      s.answer = words(answerIn.value).map((x) => Number(x) - 1);
    }
    onSave(s);
  };
  const pair = (label: string, a: HTMLElement, b: HTMLElement) => h('div', { class: 'field study-pair' }, h('label', {}, label), a, b);
  return h(
    'div',
    { class: 'study-step-form', testid: 'step-form' },
    h('div', { class: 'field' }, h('label', {}, t('study.stepKind')), kind),
    pair(t('study.stepPrompt'), promptZh, promptEn),
    kindFields.moves,
    kindFields.squares,
    kindFields.choice,
    pair(t('study.stepHint'), hintZh, hintEn),
    pair(t('study.stepSuccess'), sucZh, sucEn),
    h(
      'div',
      { class: 'form-buttons' },
      h('button', { type: 'button', class: 'btn primary', testid: 'step-save', onclick: save }, t('study.stepApply')),
      step ? h('button', { type: 'button', class: 'btn danger', testid: 'step-remove', onclick: () => onSave(undefined) }, t('study.stepRemove')) : null,
    ),
  );
}

/** A reader's try at a step: what was answered so far and the last verdict. */
export interface TryState {
  moves: string[];
  squares: string[];
  fen: string;
  verdict: LearnVerdict | null;
  busy: boolean;
}

export function newTry(fen: string): TryState {
  return { moves: [], squares: [], fen, verdict: null, busy: false };
}

/** The step's prompt, the choices of a choice step, and what the judge said. */
export function stepPanel(step: Step, st: TryState, choose: (i: number) => void, restart: () => void): HTMLElement {
  const v = st.verdict;
  const said = v
    ? v.done
      ? h('p', { class: 'good', testid: 'step-done' }, '✓ ', stepText(v.success ?? step.success))
      : v.ok
        ? h('p', { class: 'hint', testid: 'step-ok' }, t('study.stepGood'))
        : h('p', { class: 'warn', testid: 'step-wrong' }, v.reason ? pick(v.reason.zh, v.reason.en) : '', ' ', v.hint ? stepText(v.hint) : '')
    : null;
  const choices =
    step.kind === 'choice'
      ? h(
          'div',
          { class: 'form-buttons study-choices' },
          ((step.choices as unknown[]) ?? []).map((c, i) =>
            h('button', { type: 'button', class: 'btn', testid: 'step-choice', disabled: st.busy || !!v?.done, onclick: () => choose(i) }, stepText(c)),
          ),
        )
      : null;
  return h(
    'div',
    { class: 'study-step', testid: 'study-step', 'data-kind': step.kind },
    h('p', { class: 'study-step-prompt' }, h('strong', {}, t('study.stepTitle')), ' ', stepText(step.prompt)),
    choices,
    said,
    h('button', { type: 'button', class: 'btn small', testid: 'step-restart', onclick: restart }, t('study.stepRestart')),
  );
}

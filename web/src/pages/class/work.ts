// SPDX-License-Identifier: GPL-3.0-or-later
// The teacher's class page: the homework given (and a form to give more: a lesson or a chapter of the course, puzzles
// of a theme, games against the computer, a study, a tournament; an optional due date), and the dashboard — the
// students × the homework, each cell done / late / not done by its colour and its sign and word, the class's weakest
// puzzle themes, a CSV of it all.

import { errorText } from '../../app';
import { h, replace } from '../../dom';
import { pick, t } from '../../i18n';
import type { Key } from '../../i18n';
import { displayName } from '../../ui/names';
import { clampInt, dueFromInput, grid, weakest } from './ctrl';
import { dateText, describe, kindText, markIcon, markText, themeName } from './names';
import type { Catalog } from './names';
import type { ClassData } from './index';
import { classApi } from './xhr';
import type { Assignment, AssignmentBody, AssignmentKind } from './xhr';

const KINDS: AssignmentKind[] = ['lesson', 'chapter', 'puzzles', 'computer', 'study', 'tournament'];

const field = (id: string, label: string, ...rest: HTMLElement[]) => h('div', { class: 'field' }, h('label', { for: id }, label), rest);

export async function assignmentsPart(d: ClassData): Promise<HTMLElement> {
  const err = h('p', { class: 'warn', role: 'alert', testid: 'assign-error' });
  let list: Assignment[] = [];
  try {
    list = (await classApi.assignments(d.view.id)).assignments;
  } catch (e) {
    err.textContent = errorText(e);
  }
  const unassign = (a: Assignment) => {
    if (!confirm(t('class.confirmUnassign'))) return;
    classApi
      .unassign(d.view.id, a.id)
      .then(d.reload)
      .catch((e) => (err.textContent = errorText(e)));
  };
  const item = (a: Assignment) =>
    h(
      'li',
      { testid: 'assignment', 'data-id': a.id, 'data-kind': a.kind },
      h('span', { class: 'what' }, describe(a, d.catalog)),
      ' ',
      h('span', { class: 'hint' }, a.due ? t('class.dueOn', { date: dateText(a.due) }) : t('class.noDue')),
      ' ',
      h('button', { class: 'btn small', type: 'button', testid: 'unassign', onclick: () => unassign(a) }, t('class.unassign')),
    );
  return h(
    'div',
    {},
    h('h2', {}, t('class.hwTitle')),
    list.length ? h('ul', { class: 'assignments' }, list.map(item)) : h('p', { class: 'hint', testid: 'assignments-none' }, t('class.hwNone')),
    err,
    assignForm(d),
  );
}

/** The inputs of the homework form, each kind's in its own fields (shown for that kind only). */
function formInputs(c: Catalog) {
  const lesson = h(
    'select',
    { id: 'assign-lesson', testid: 'assign-lesson' },
    c.chapters.map((ch) => {
      const g = h('optgroup', {}, ch.lessons.map((l) => h('option', { value: l.id }, pick(l.title.zh, l.title.en))));
      g.label = pick(ch.title.zh, ch.title.en);
      return g;
    }),
  );
  const chapter = h('select', { id: 'assign-chapter', testid: 'assign-chapter' }, c.chapters.map((ch) => h('option', { value: ch.id }, pick(ch.title.zh, ch.title.en))));
  // The trainer's motifs that have puzzles (a seed's tactic is one of them), with how many.
  const motifs = (c.themes?.motifs ?? []).filter((m) => m.count > 0);
  const theme = h('select', { id: 'assign-theme', testid: 'assign-theme' }, motifs.map((m) => h('option', { value: m.id }, `${pick(m.zh, m.en)} (${m.count})`)));
  const count = h('input', { id: 'assign-count', testid: 'assign-count', type: 'number', min: '1', max: '100', value: '5' });
  const level = h('select', { id: 'assign-level', testid: 'assign-level' }, c.levels.map((l) => h('option', { value: String(l.level) }, t('home.levelOption', { level: String(l.level), name: pick(l.name_zh, l.name_en), elo: String(l.elo) }))));
  const games = h('input', { id: 'assign-games', testid: 'assign-games', type: 'number', min: '1', max: '20', value: '1' });
  // A study or tournament: chosen from the teacher's, or its id (or link) typed.
  const study = h('input', { id: 'assign-study', testid: 'assign-study', autocomplete: 'off', list: 'assign-study-list' });
  const studyList = h('datalist', { id: 'assign-study-list' }, c.studies.map((s) => h('option', { value: s.id }, s.title)));
  const tournament = h('input', { id: 'assign-tournament', testid: 'assign-tournament', autocomplete: 'off', list: 'assign-tournament-list' });
  const tourList = h('datalist', { id: 'assign-tournament-list' }, c.tournaments.filter((x) => !x.finished).map((x) => h('option', { value: x.id }, x.name)));
  const due = h('input', { id: 'assign-due', testid: 'assign-due', type: 'date' });
  const kind = h('select', { id: 'assign-kind', testid: 'assign-kind' }, KINDS.map((k) => h('option', { value: k }, kindText(k))));
  const fields: Record<AssignmentKind, HTMLElement[]> = {
    lesson: [field('assign-lesson', t('class.lesson'), lesson)],
    chapter: [field('assign-chapter', t('class.chapter'), chapter)],
    puzzles: [field('assign-theme', t('puzzle.theme'), theme), field('assign-count', t('class.countPuzzles'), count)],
    computer: [field('assign-level', t('home.level'), level), field('assign-games', t('class.countGames'), games)],
    study: [field('assign-study', t('class.studyId'), study, studyList)],
    tournament: [field('assign-tournament', t('class.tournamentId'), tournament, tourList)],
  };
  return { kind, lesson, chapter, theme, count, level, games, study, tournament, due, fields };
}
type FormInputs = ReturnType<typeof formInputs>;

function body(f: FormInputs): AssignmentBody {
  const kind = f.kind.value as AssignmentKind;
  const due = dueFromInput(f.due.value);
  const b: AssignmentBody = { kind, ...(due ? { due } : {}) };
  if (kind === 'lesson') b.lesson = f.lesson.value;
  if (kind === 'chapter') b.chapter = f.chapter.value;
  if (kind === 'puzzles') Object.assign(b, { theme: f.theme.value, count: clampInt(f.count.value, 1, 100, 5) });
  if (kind === 'computer') Object.assign(b, { level: Number(f.level.value), count: clampInt(f.games.value, 1, 20, 1) });
  if (kind === 'study') b.study = f.study.value.trim().replace(/^.*\/study\//, '');
  if (kind === 'tournament') b.tournament = f.tournament.value.trim().replace(/^.*\/tournament\//, '');
  return b;
}

function assignForm(d: ClassData): HTMLElement {
  const f = formInputs(d.catalog);
  const box = h('div', {});
  const sync = () => replace(box, f.fields[f.kind.value as AssignmentKind]);
  f.kind.addEventListener('change', sync);
  sync();
  const err = h('p', { class: 'warn', role: 'alert', testid: 'assign-form-error' });
  const submit = h('button', { class: 'btn primary', type: 'submit', testid: 'assign-submit' }, t('class.assign'));
  const onsubmit = (e: SubmitEvent) => {
    e.preventDefault();
    err.textContent = '';
    submit.disabled = true;
    classApi
      .assign(d.view.id, body(f))
      .then(d.reload)
      .catch((x) => {
        err.textContent = errorText(x);
        submit.disabled = false;
      });
  };
  return h(
    'form',
    { class: 'form class-form', testid: 'assign-form', onsubmit },
    h('h3', {}, t('class.hwAdd')),
    field('assign-kind', t('class.kind'), f.kind),
    box,
    field('assign-due', t('class.due'), f.due),
    h('div', { class: 'form-buttons' }, submit),
    err,
  );
}

export async function dashboardPart(d: ClassData): Promise<HTMLElement> {
  const head = [h('h2', {}, t('class.dashTitle')), h('p', { class: 'hint' }, t('class.dashHelp'))];
  let p;
  try {
    p = await classApi.progress(d.view.id);
  } catch (e) {
    return h('div', {}, head, h('p', { class: 'warn' }, errorText(e)));
  }
  const g = grid(p);
  const cell = (m: 'done' | 'late' | 'open', aid: string) =>
    h('td', { class: `mark mark-${m}`, testid: 'mark', 'data-mark': m, 'data-assignment': aid }, h('span', { 'aria-hidden': 'true' }, markIcon(m)), ' ', markText(m));
  const n = g.rows.length;
  const table = h(
    'table',
    { class: 'table dash-grid', testid: 'dash-grid' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { class: 'sticky' }, t('class.student')),
        g.assignments.map((a, i) => h('th', { 'data-assignment': a.id }, h('div', {}, describe(a, d.catalog)), h('div', { class: 'hint' }, t('class.doneBy', { n: String(g.doneBy[i]), of: String(n) })))),
        h('th', {}, t('class.total')),
        h('th', {}, t('class.puzzlesCol')),
        h('th', {}, t('class.gamesCol')),
        h('th', {}, t('class.lastSeen')),
      ),
    ),
    h(
      'tbody',
      {},
      g.rows.map((r) =>
        h(
          'tr',
          { testid: 'dash-row', 'data-username': r.username },
          h('th', { class: 'sticky', translate: 'no' }, displayName(r.username)),
          r.marks.map((m, i) => cell(m, g.assignments[i].id)),
          h('td', {}, `${r.done}/${g.assignments.length}`),
          h('td', { class: 'num' }, t('class.puzzlesCell', { solved: String(r.puzzles.solved), failed: String(r.puzzles.failed) })),
          h('td', { class: 'num' }, String(r.games)),
          h('td', {}, r.lastSeen ? dateText(r.lastSeen) : '—'),
        ),
      ),
    ),
  );
  const weak = weakest(p.weak_themes);
  const weakEl = weak.length
    ? h(
        'ol',
        { class: 'weak-themes', testid: 'weak-themes' },
        weak.map((w) => h('li', { 'data-theme': w.theme }, h('b', {}, themeName(d.catalog, w.theme)), ' ', t('class.weakRow', { solved: String(w.solved), failed: String(w.failed), rate: String(Math.round(w.success * 100)) }))),
      )
    : h('p', { class: 'hint', testid: 'weak-none' }, t('class.weakNone'));
  const legend = [
    h('p', { class: 'legend' }, (['done', 'late', 'open'] as const).map((m) => h('span', { class: `mark mark-${m}` }, markIcon(m), ' ', markText(m)))),
    h('p', { class: 'hint' }, t('classMark.lateHelp')),
  ];
  return h(
    'div',
    {},
    head,
    g.rows.length && g.assignments.length ? [legend, h('div', { class: 'table-scroll' }, table)] : h('p', { class: 'hint' }, t((g.rows.length ? 'class.hwNone' : 'class.noStudents') as Key)),
    h('h3', {}, t('class.weakTitle')),
    weakEl,
    h('p', {}, h('a', { href: classApi.csvUrl(d.view.id), download: '', class: 'btn', testid: 'class-csv' }, t('class.csv'))),
  );
}

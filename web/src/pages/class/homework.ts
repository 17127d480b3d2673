// SPDX-License-Identifier: GPL-3.0-or-later
// 我的作业 / My homework (`/homework`): a student's assignments from all their classes, what is still to do first
// (the soonest due first), each with its class, due date, progress and a link to where it is done.

import { currentUser, errorText, link } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import type { Child } from '../../dom';
import { t } from '../../i18n';
import { homeworkOrder, overdue, workLink } from './ctrl';
import { dateText, describe, loadCatalog, markIcon, markText } from './names';
import type { Catalog } from './names';
import { classApi } from './xhr';
import type { Homework, Mark } from './xhr';

export function homeworkPage(): Page {
  const me = currentUser();
  const el = h('div', { class: 'page narrow homework-page', testid: 'homework-page' }, h('h1', {}, t('hw.title')));
  if (!me || me.guest) {
    el.append(h('p', { class: 'hint', testid: 'homework-login' }, t('hw.loginFirst'), ' ', link('/login', t('nav.login'))));
    return { el };
  }
  const body = h('div', {}, h('p', {}, t('common.loading')));
  el.append(body);
  Promise.all([classApi.homework(), loadCatalog()])
    .then(([r, c]) => replace(body, list(r.assignments, c)))
    .catch((e) => replace(body, h('p', { class: 'warn' }, errorText(e))));
  return { el };
}

function list(all: Homework[], c: Catalog): Child[] {
  if (!all.length) return [h('p', { class: 'hint', testid: 'homework-none' }, t('hw.none'))];
  const sorted = homeworkOrder(all);
  const open = sorted.filter((a) => !a.done);
  const done = sorted.filter((a) => a.done);
  return [
    h('h2', {}, t('hw.open'), ` (${open.length})`),
    open.length ? h('ul', { class: 'homework-list' }, open.map((a) => item(a, c))) : h('p', { class: 'hint' }, t('hw.allDone')),
    done.length ? [h('h2', {}, t('hw.doneTitle'), ` (${done.length})`), h('ul', { class: 'homework-list' }, done.map((a) => item(a, c)))] : null,
  ];
}

function item(a: Homework, c: Catalog): HTMLElement {
  const mark: Mark = a.done ? (a.late ? 'late' : 'done') : 'open';
  const late = overdue(a, Date.now());
  return h(
    'li',
    { class: `homework-item mark-${mark}`, testid: 'homework-item', 'data-id': a.id, 'data-kind': a.kind, 'data-done': a.done ? '1' : '0' },
    h(
      'div',
      { class: 'homework-head' },
      h('span', { class: 'kind', translate: 'no' }, a.class_name),
      h('span', { class: `mark mark-${mark}`, testid: 'homework-mark' }, mark === 'late' ? ['✓ ', t('hw.doneLate')] : [markIcon(mark), ' ', markText(mark)]),
    ),
    h('div', { class: 'what' }, link(workLink(a), describe(a, c), { testid: 'homework-link' })),
    h(
      'div',
      { class: 'hint' },
      a.due ? h('span', { class: late ? 'overdue' : '' }, t('class.dueOn', { date: dateText(a.due) }), late ? ` (${t('hw.overdue')})` : '') : t('class.noDue'),
      a.progress && a.progress.of > 1 ? [' · ', h('span', { testid: 'homework-progress' }, t('hw.progress', { done: String(a.progress.done), of: String(a.progress.of) }))] : null,
    ),
    a.done ? null : h('div', { class: 'form-buttons' }, link(workLink(a), t('hw.start'), { class: 'btn primary small', testid: 'homework-start' })),
  );
}

// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: `/study` (my studies and those shared with my classes; a new study; a course lesson copied into
// one) and `/study/{id}` (the editor for its owner, the same page read-only for a reader, with present mode).

import { HttpError } from '../../api';
import { currentUser, errorText, link, navigate, notFoundEl } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { getLang, t } from '../../i18n';
import { displayName } from '../../ui/names';
import { loadCourse } from '../learn/xhr';
import { studyEditor } from './editor';
import { studyApi } from './xhr';
import type { StudyView } from './xhr';

export function studyListPage(): Page {
  const me = currentUser();
  const el = h('div', { class: 'page class-page study-list-page' }, h('h1', {}, t('study.title')), h('p', { class: 'hint' }, t('study.intro')));
  if (!me || me.guest) {
    el.append(h('p', { class: 'hint', testid: 'study-login' }, t('study.loginFirst'), ' ', link('/login', t('nav.login'))));
    return { el };
  }
  const listEl = h('div', { testid: 'study-list' }, h('p', {}, t('common.loading')));
  el.append(listEl, createForm(), lessonForm());
  studyApi
    .list()
    .then((l) => replace(listEl, listPart(l.studies)))
    .catch((e) => replace(listEl, h('p', { class: 'warn' }, errorText(e))));
  return { el };
}

function listPart(ss: StudyView[]): HTMLElement {
  if (!ss.length) return h('p', { class: 'hint', testid: 'study-none' }, t('study.none'));
  const row = (s: StudyView) =>
    h(
      'tr',
      { testid: 'study-row', 'data-id': s.id },
      h('td', {}, link(`/study/${s.id}`, s.title || '—', { translate: 'no' })),
      h('td', { translate: 'no' }, displayName(s.owner)),
      h('td', {}, t(`study.vis.${s.visibility}`)),
      h('td', {}, new Date(s.updated_at_ms).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en')),
    );
  const heads = [t('study.name'), t('study.owner'), t('study.visibility'), t('study.updated')];
  return h('table', { class: 'table' }, h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))), h('tbody', {}, ss.map(row)));
}

function createForm(): HTMLElement {
  const input = h('input', { id: 'study-title', testid: 'study-title-new', autocomplete: 'off', placeholder: t('study.titlePlaceholder') });
  const err = h('p', { class: 'warn', role: 'alert', testid: 'study-create-error' });
  const onsubmit = (e: SubmitEvent) => {
    e.preventDefault();
    err.textContent = '';
    studyApi
      .create(input.value.trim())
      .then((s) => navigate(`/study/${s.id}`))
      .catch((x) => (err.textContent = errorText(x)));
  };
  return h(
    'section',
    {},
    h('h2', {}, t('study.createTitle')),
    h(
      'form',
      { class: 'form class-form', onsubmit },
      h('div', { class: 'field' }, h('label', { for: 'study-title' }, t('study.name')), input, h('button', { class: 'btn primary', type: 'submit', testid: 'study-create' }, t('study.create'))),
      err,
    ),
  );
}

function lessonForm(): HTMLElement {
  const sel = h('select', { id: 'study-lesson', testid: 'study-lesson' });
  const err = h('p', { class: 'warn', role: 'alert' });
  loadCourse()
    .then((chs) => {
      const zh = getLang() === 'zh';
      for (const c of chs)
        for (const l of c.lessons) sel.append(h('option', { value: l.id }, `${zh ? c.title.zh : c.title.en} · ${zh ? l.title.zh : l.title.en}`));
    })
    .catch((e) => (err.textContent = errorText(e)));
  const copy = () =>
    studyApi
      .fromLesson(sel.value)
      .then((s) => navigate(`/study/${s.id}`))
      .catch((x) => (err.textContent = errorText(x)));
  return h(
    'section',
    {},
    h('h2', {}, t('study.fromLessonTitle')),
    h('p', { class: 'hint' }, t('study.fromLessonHelp')),
    h('div', { class: 'field' }, h('label', { for: 'study-lesson' }, t('study.lesson')), sel, h('button', { type: 'button', class: 'btn', testid: 'study-from-lesson', onclick: copy }, t('study.copy'))),
    err,
  );
}

export function studyPage(id: string): Page {
  const el = h('div', { class: 'page study-page', testid: 'study-page' }, h('p', {}, t('common.loading')));
  let destroy: (() => void) | null = null;
  let alive = true;
  studyApi
    .get(id)
    .then((v) => {
      if (!alive) return;
      const ed = studyEditor(v);
      destroy = ed.destroy;
      replace(el, ed.el);
      ed.mounted();
    })
    .catch((e) => {
      if (!alive) return;
      if (e instanceof HttpError && (e.status === 404 || e.status === 403)) replace(el, notFoundEl(errorText(e)));
      else replace(el, h('p', { class: 'warn' }, errorText(e)));
    });
  return {
    el,
    destroy() {
      alive = false;
      destroy?.();
    },
  };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// 我的班级 / Classes: `/class` (my classes, as teacher or student; create one; join one with a code) and
// `/class/{id}` (the teacher's page: students and their login cards, the join code, homework, the dashboard; a
// student sees the class's name and a way to their homework).

import { HttpError } from '../../api';
import { currentUser, errorText, link, navigate, notFoundEl, refreshClassRoles } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { t } from '../../i18n';
import { displayName } from '../../ui/names';
import { loadCatalog } from './names';
import type { Catalog } from './names';
import { assignmentsPart, dashboardPart } from './work';
import { forgetCards, studentsPart } from './students';
import { classApi } from './xhr';
import type { ClassSummary, ClassView } from './xhr';

export function classListPage(): Page {
  const me = currentUser();
  const el = h('div', { class: 'page class-page' }, h('h1', {}, t('class.title')), h('p', { class: 'hint' }, t('class.intro')));
  if (!me || me.guest) {
    el.append(h('p', { class: 'hint', testid: 'class-login' }, t('class.loginFirst'), ' ', link('/login', t('nav.login'))));
    return { el };
  }
  const listEl = h('div', { testid: 'class-list' }, h('p', {}, t('common.loading')));
  el.append(listEl, createForm(), joinForm());
  classApi
    .list()
    .then((l) => replace(listEl, listPart(l.classes)))
    .catch((e) => replace(listEl, h('p', { class: 'warn' }, errorText(e))));
  return { el };
}

function listPart(cs: ClassSummary[]): HTMLElement {
  if (!cs.length) return h('p', { class: 'hint', testid: 'class-none' }, t('class.none'));
  const row = (c: ClassSummary) =>
    h(
      'tr',
      { testid: 'class-row', 'data-id': c.id, 'data-role': c.role },
      h('td', {}, link(c.role === 'teacher' ? `/class/${c.id}` : '/homework', c.name, { translate: 'no' })),
      h('td', {}, t(c.role === 'teacher' ? 'class.roleTeacher' : 'class.roleStudent')),
      h('td', { translate: 'no' }, displayName(c.owner)),
      h('td', {}, c.role === 'teacher' ? String(c.students) : '—'),
    );
  const heads = [t('class.name'), t('class.role'), t('class.owner'), t('class.studentsCount')];
  return h('table', { class: 'table' }, h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))), h('tbody', {}, cs.map(row)));
}

/** A one-field form: a label, an input, a button; `send` resolves when done (its error is shown). */
function oneField(id: string, label: string, button: string, placeholder: string, send: (v: string) => Promise<unknown>): HTMLElement {
  const input = h('input', { id, testid: id, autocomplete: 'off', placeholder });
  const err = h('p', { class: 'warn', testid: `${id}-error`, role: 'alert' });
  const submit = h('button', { class: 'btn primary', type: 'submit', testid: `${id}-submit` }, button);
  const onsubmit = (e: SubmitEvent) => {
    e.preventDefault();
    err.textContent = '';
    submit.disabled = true;
    send(input.value.trim())
      .catch((x) => (err.textContent = errorText(x)))
      .finally(() => (submit.disabled = false));
  };
  return h('form', { class: 'form class-form', onsubmit }, h('div', { class: 'field' }, h('label', { for: id }, label), input, submit), err);
}

function createForm(): HTMLElement {
  return h(
    'section',
    {},
    h('h2', {}, t('class.createTitle')),
    oneField('class-name', t('class.name'), t('class.create'), t('class.namePlaceholder'), async (name) => {
      const c = await classApi.create(name);
      await refreshClassRoles();
      navigate(`/class/${c.id}`);
    }),
  );
}

function joinForm(): HTMLElement {
  return h(
    'section',
    {},
    h('h2', {}, t('class.joinTitle')),
    oneField('join-code', t('class.joinCode'), t('class.join'), 'ABC123', async (code) => {
      await classApi.join(code);
      await refreshClassRoles();
      navigate('/homework');
    }),
  );
}

/** What the class page draws from: the class, and the homework, the progress and the names (the teacher's). */
export interface ClassData {
  view: ClassView;
  catalog: Catalog;
  reload(): void;
}

export function classPage(id: string): Page {
  const el = h('div', { class: 'page class-page', testid: 'class-page' }, h('p', {}, t('common.loading')));
  let alive = true;
  const catalog = loadCatalog();
  const load = async () => {
    try {
      const view = await classApi.get(id);
      if (!alive) return;
      if (!view.students) return replace(el, studentView(view));
      const data: ClassData = { view, catalog: await catalog, reload: () => void load() };
      if (alive) render(el, data);
    } catch (e) {
      if (!alive) return;
      if (e instanceof HttpError && (e.status === 404 || e.status === 403)) replace(el, notFoundEl(errorText(e)));
      else replace(el, h('p', { class: 'warn' }, errorText(e)));
    }
  };
  void load();
  return {
    el,
    destroy() {
      alive = false;
      forgetCards();
    },
  };
}

function studentView(v: ClassView): HTMLElement {
  return h(
    'div',
    {},
    h('h1', { translate: 'no' }, v.name),
    h('p', {}, t('class.studentView', { owner: displayName(v.owner) })),
    h('p', {}, link('/homework', t('class.toHomework'), { class: 'btn primary', testid: 'to-homework' })),
  );
}

/** The teacher's page: the sections keep their own state; a change reloads the class and draws them again. */
function render(el: HTMLElement, d: ClassData): void {
  const scrollY = window.scrollY;
  const dash = h('section', { class: 'class-dashboard', testid: 'class-dashboard' }, h('p', {}, t('common.loading')));
  const hw = h('section', { class: 'class-homework', testid: 'class-homework' });
  replace(
    el,
    h('p', { class: 'crumbs' }, link('/class', t('class.back'))),
    h('h1', { translate: 'no', testid: 'class-title' }, d.view.name),
    studentsPart(d),
    hw,
    dash,
    settingsPart(d),
  );
  window.scrollTo(0, scrollY);
  void assignmentsPart(d).then((x) => replace(hw, x));
  void dashboardPart(d).then((x) => replace(dash, x));
}

/** The join code, strangers' challenges, the class's name, deleting it. */
function settingsPart(d: ClassData): HTMLElement {
  const v = d.view;
  const err = h('p', { class: 'warn', role: 'alert' });
  const act = (p: Promise<unknown>) =>
    p.then(d.reload).catch((e) => (err.textContent = errorText(e)));
  const code = v.join_code
    ? [h('p', {}, t('class.codeHelp')), h('p', { class: 'join-code', testid: 'class-join-code', translate: 'no' }, v.join_code)]
    : h('p', { class: 'hint', testid: 'class-join-code-none' }, t('class.noCode'));
  const allow = h('input', { type: 'checkbox', id: 'class-allow', testid: 'class-allow', checked: !!v.allow_challenges });
  allow.addEventListener('change', () => void act(classApi.update(v.id, { allow_challenges: allow.checked })));
  const name = h('input', { id: 'class-rename', testid: 'class-rename', value: v.name, autocomplete: 'off' });
  const del = () => {
    if (!confirm(t('class.confirmDelete', { name: v.name }))) return;
    classApi
      .remove(v.id)
      .then(() => refreshClassRoles())
      .then(() => navigate('/class'))
      .catch((e) => (err.textContent = errorText(e)));
  };
  return h(
    'section',
    { class: 'class-settings' },
    h('h2', {}, t('class.codeTitle')),
    code,
    h(
      'div',
      { class: 'form-buttons' },
      h('button', { class: 'btn', type: 'button', testid: 'class-new-code', onclick: () => void act(classApi.newJoinCode(v.id)) }, t(v.join_code ? 'class.newCode' : 'class.openCode')),
      v.join_code ? h('button', { class: 'btn', type: 'button', testid: 'class-close-code', onclick: () => void act(classApi.closeJoinCode(v.id)) }, t('class.closeCode')) : null,
    ),
    h('h2', {}, t('class.settingsTitle')),
    h('label', { class: 'check', for: 'class-allow' }, allow, ' ', t('class.allowChallenges')),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'class-rename' }, t('class.name')),
      name,
      h('button', { class: 'btn', type: 'button', onclick: () => void act(classApi.update(v.id, { name: name.value.trim() })) }, t('class.rename')),
    ),
    h('div', { class: 'form-buttons' }, h('button', { class: 'btn danger', type: 'button', testid: 'class-delete', onclick: del }, t('class.delete'))),
    err,
  );
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The teacher's class page: the students (their accounts, reset a password, remove from the class), accounts made
// for new students, and the login cards of the passwords just made (kept while the page is open: a reload of the
// class does not lose them, leaving the page does — the server shows a password once).

import { errorText } from '../../app';
import { h, replace } from '../../dom';
import { t } from '../../i18n';
import { displayName } from '../../ui/names';
import { clampInt } from './ctrl';
import { loginCards } from './cards';
import { dayText } from './names';
import type { ClassData } from './index';
import { classApi } from './xhr';
import type { ClassStudent, Login } from './xhr';

/** The cards on show: the class they belong to and the logins. */
let shown: { classId: string; logins: Login[] } | null = null;

/** Leaving the page: the passwords are not shown again. */
export function forgetCards(): void {
  shown = null;
}

export function studentsPart(d: ClassData): HTMLElement {
  const v = d.view;
  const students = v.students ?? [];
  const err = h('p', { class: 'warn', role: 'alert', testid: 'students-error' });
  const cardsEl = h('div', {});
  const showCards = (logins: Login[] | null) => {
    shown = logins ? { classId: v.id, logins } : null;
    replace(cardsEl, logins ? loginCards(logins, v.name, () => showCards(null)) : null);
  };
  if (shown?.classId === v.id) showCards(shown.logins);
  else shown = null;

  const reset = (s: ClassStudent) => {
    if (!confirm(t('class.confirmReset', { name: s.username }))) return;
    err.textContent = '';
    classApi
      .resetPassword(v.id, s.username)
      .then((l) => {
        showCards([l]);
        d.reload();
      })
      .catch((e) => (err.textContent = errorText(e)));
  };
  const remove = (s: ClassStudent) => {
    if (!confirm(t('class.confirmRemove', { name: s.username }))) return;
    classApi
      .removeStudent(v.id, s.username)
      .then(d.reload)
      .catch((e) => (err.textContent = errorText(e)));
  };
  const row = (s: ClassStudent) =>
    h(
      'tr',
      { testid: 'student-row', 'data-username': s.username },
      h('td', { translate: 'no' }, displayName(s.username)),
      h('td', {}, t(s.created_by_teacher ? 'class.accountMade' : 'class.accountOwn'), s.must_change_password ? h('span', { class: 'tag', testid: 'must-change' }, ' · ', t('class.mustChange')) : null),
      h('td', {}, s.joined_at ? dayText(s.joined_at) : '—'),
      h(
        'td',
        { class: 'row-buttons' },
        s.created_by_teacher ? h('button', { class: 'btn small', type: 'button', testid: 'student-reset', onclick: () => reset(s) }, t('class.reset')) : null,
        h('button', { class: 'btn small', type: 'button', testid: 'student-remove', onclick: () => remove(s) }, t('class.remove')),
      ),
    );
  const heads = [t('class.username'), t('class.account'), t('class.joinedAt'), ''];
  const table = students.length
    ? h('div', { class: 'table-scroll' }, h('table', { class: 'table', testid: 'students' }, h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))), h('tbody', {}, students.map(row))))
    : h('p', { class: 'hint', testid: 'students-none' }, t('class.noStudents'));
  return h('section', { class: 'class-students' }, h('h2', {}, t('class.studentsTitle'), ` (${students.length})`), table, err, addForm(d, showCards), cardsEl);
}

function addForm(d: ClassData, showCards: (l: Login[]) => void): HTMLElement {
  const count = h('input', { id: 'add-count', testid: 'add-count', type: 'number', min: '1', max: '60', value: '5' });
  const err = h('p', { class: 'warn', role: 'alert', testid: 'add-error' });
  const submit = h('button', { class: 'btn primary', type: 'submit', testid: 'add-students' }, t('class.add'));
  const onsubmit = (e: SubmitEvent) => {
    e.preventDefault();
    err.textContent = '';
    submit.disabled = true;
    classApi
      .addStudents(d.view.id, clampInt(count.value, 1, 60, 5))
      .then((r) => {
        showCards(r.students);
        d.reload();
      })
      .catch((x) => (err.textContent = errorText(x)))
      .finally(() => (submit.disabled = false));
  };
  return h(
    'form',
    { class: 'form class-form', onsubmit },
    h('h3', {}, t('class.addTitle')),
    h('p', { class: 'hint' }, t('class.addHelp')),
    h('div', { class: 'field' }, h('label', { for: 'add-count' }, t('class.addCount')), count, submit),
    err,
  );
}

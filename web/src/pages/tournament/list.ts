// SPDX-License-Identifier: GPL-3.0-or-later
// 比赛 / Tournaments: the open, running and recently finished tournaments; a form to organise one (round-robin or
// Swiss, online or over the board); a TRF-16 file to import an over-the-board event.

import { currentUser, errorText, link, navigate } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { getLang, t } from '../../i18n';
import type { NewTournament, TournamentMode, TournamentSummary, TournamentSystem } from '../../protocol_http';
import { tcFromBox, tcLabel } from '../../ui/names';
import { rulesField, tcField } from '../home-parts';
import { classApi } from '../class/xhr';
import { tourApi } from './xhr';
import { modeText, statusText, systemText } from './text';

export function tournamentListPage(): Page {
  const listEl = h('div', { testid: 'tour-list' }, h('p', {}, t('common.loading')));
  const formEl = h('section', { class: 'tour-create' });
  const importEl = h('section', { class: 'tour-import' });
  const el = h('div', { class: 'page tour-page' }, h('h1', {}, t('tour.title')), h('p', { class: 'hint' }, t('tour.intro')), listEl, formEl, importEl);
  tourApi
    .list()
    .then((l) => replace(listEl, listPart(l.tournaments)))
    .catch((e) => replace(listEl, h('p', { class: 'error' }, errorText(e))));
  const me = currentUser();
  if (!me || me.guest) {
    replace(formEl, h('p', { class: 'hint' }, t('tour.loginToOrganise'), ' ', link('/login', t('nav.login'))));
    replace(importEl);
  } else {
    replace(formEl, h('h2', {}, t('tour.organise')), createForm());
    replace(importEl, importPart());
  }
  return { el };
}

/** The tournaments: name, system and mode, time control, players, round, status, created. */
function listPart(ts: TournamentSummary[]): HTMLElement {
  if (!ts.length) return h('p', { class: 'hint', testid: 'tour-none' }, t('tour.none'));
  const fmt = (x: number) => new Date(x).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en-GB');
  const heads = [t('tour.name'), t('tour.system'), t('tour.timeControl'), t('tour.players'), t('tour.round'), t('tour.status'), t('tour.created')];
  const row = (s: TournamentSummary) =>
    h(
      'tr',
      { testid: 'tour-row', 'data-id': s.id },
      h('td', {}, link(`/tournament/${s.id}`, s.name, { translate: 'no' })),
      h('td', {}, systemText(s.system), ' · ', modeText(s.mode)),
      h('td', {}, s.time_control === '-' ? '—' : tcLabel(s.time_control)),
      h('td', {}, String(s.players)),
      h('td', {}, s.rounds ? `${s.current_round} / ${s.rounds}` : '—'),
      h('td', {}, statusText(s.status)),
      h('td', {}, fmt(s.created_at_ms)),
    );
  return h('table', { class: 'table' }, h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))), h('tbody', {}, ts.map(row)));
}

/** A labelled field: `<div class="field"><label for=…>…</label>…</div>`. */
const field = (id: string, label: string, ...rest: HTMLElement[]) => h('div', { class: 'field' }, h('label', { for: id }, label), rest);

/** The organiser's form's inputs, and the fields that come and go with the system and the mode. */
function formInputs() {
  const name = h('input', { testid: 'tour-name', id: 'tour-name', autocomplete: 'off', placeholder: t('tour.namePlaceholder') });
  const systems: TournamentSystem[] = ['swiss', 'round_robin', 'double_round_robin', 'arena'];
  const system = h('select', { testid: 'tour-system', id: 'tour-system' }, systems.map((s) => h('option', { value: s }, systemText(s))));
  const modes: TournamentMode[] = ['online', 'otb'];
  const mode = h('select', { testid: 'tour-mode', id: 'tour-mode' }, modes.map((m) => h('option', { value: m }, modeText(m))));
  const rounds = h('input', { testid: 'tour-rounds', id: 'tour-rounds', type: 'number', min: '1', max: '30', value: '5' });
  const minutes = h('input', { testid: 'tour-minutes', id: 'tour-minutes', type: 'number', min: '10', max: '720', value: '60' });
  const gap = h('input', { testid: 'tour-gap', id: 'tour-gap', type: 'number', min: '0', max: '604800', value: '30' });
  const rated = h('input', { testid: 'tour-rated', id: 'tour-rated', type: 'checkbox' });
  // A class needs minutes to sit down and find its boards: five by default, not the 30 s of a casual game.
  const grace = h(
    'select',
    { testid: 'tour-grace', id: 'tour-grace' },
    [1, 2, 3, 5, 10, 15].map((m) => h('option', { value: String(m * 60), selected: m === 5 }, String(m))),
  );
  const presence = h('input', { testid: 'tour-presence', id: 'tour-presence', type: 'checkbox', checked: true });
  const startsAt = h('input', { testid: 'tour-starts-at', id: 'tour-starts-at', type: 'datetime-local', step: '1' });
  // A class tournament (issue 42): the classes the user teaches, filled in when the server answers.
  const klass = h('select', { testid: 'tour-class', id: 'tour-class' }, h('option', { value: '' }, t('tour.classNone')));
  const classField = field('tour-class', t('tour.classField'), klass, h('span', { class: 'hint' }, t('tour.classHelp')));
  classField.hidden = true;
  classApi
    .list()
    .then((l) => {
      const taught = l.classes.filter((c) => c.role === 'teacher');
      for (const c of taught) klass.append(h('option', { value: c.id }, c.name));
      classField.hidden = taught.length === 0;
    })
    .catch(() => undefined);
  return {
    name,
    system,
    mode,
    rounds,
    minutes,
    gap,
    rated,
    grace,
    presence,
    startsAt,
    klass,
    classField,
    tc: tcField('10+5'),
    rules: rulesField('online'),
    roundsField: field('tour-rounds', t('tour.rounds'), rounds),
    minutesField: field('tour-minutes', t('tour.minutes'), minutes),
    gapField: field('tour-gap', t('tour.gap'), gap),
    graceField: field('tour-grace', t('tour.graceField'), grace, h('span', { class: 'hint' }, t('tour.graceHelp'))),
    presenceField: h('label', { class: 'check', for: 'tour-presence' }, presence, ' ', t('tour.presenceField')),
    startsField: field('tour-starts-at', t('tour.startsAt'), startsAt, h('span', { class: 'hint' }, t('tour.startsAtHelp'))),
  };
}
type FormInputs = ReturnType<typeof formInputs>;

/** Shows the fields the chosen system and mode use (an arena is online; over the board has no rule set or rating). */
function syncFields(f: FormInputs): void {
  const system = f.system.value;
  f.roundsField.hidden = system !== 'swiss';
  f.minutesField.hidden = system !== 'arena';
  f.gapField.hidden = system === 'arena';
  if (system === 'arena') f.mode.value = 'online';
  f.mode.disabled = system === 'arena';
  const online = f.mode.value === 'online';
  f.startsField.hidden = !online;
  f.graceField.hidden = !online || system === 'arena';
  f.presenceField.hidden = !online || system === 'arena';
  // Over the board the arbiter's rules apply, not the site's.
  f.rules.el.hidden = !online;
  f.rated.disabled = !online;
  if (f.rated.disabled) f.rated.checked = false;
}

/** The tournament the form asks for. */
function newTournament(f: FormInputs): NewTournament {
  const box = f.tc.input.value.trim();
  const system = f.system.value as TournamentSystem;
  const online = f.mode.value === 'online';
  return {
    name: f.name.value,
    system,
    mode: f.mode.value as TournamentMode,
    time_control: box === '-' || box === '' ? '-' : tcFromBoxOrRaw(box),
    rules: f.rules.read(),
    rated: f.rated.checked,
    rounds: system === 'swiss' ? Number(f.rounds.value) : undefined,
    round_gap_s: Number(f.gap.value || '30'),
    minutes: system === 'arena' ? Number(f.minutes.value) : undefined,
    starts_at_ms: online && f.startsAt.value ? new Date(f.startsAt.value).getTime() : undefined,
    first_move_grace_s: online && system !== 'arena' ? Number(f.grace.value) : undefined,
    presence_check: online && system !== 'arena' ? f.presence.checked : undefined,
    class: f.klass.value || undefined,
  };
}

/** The form to organise a tournament; a created one opens its page. */
function createForm(): HTMLElement {
  const f = formInputs();
  const sync = () => syncFields(f);
  f.system.addEventListener('change', sync);
  f.mode.addEventListener('change', sync);
  sync();
  const err = h('p', { class: 'error', testid: 'tour-error', 'aria-live': 'polite' });
  const submit = h('button', { class: 'btn primary', testid: 'tour-submit', type: 'submit' }, t('tour.create'));
  const onsubmit = (e: Event) => {
    e.preventDefault();
    err.textContent = '';
    const body = newTournament(f);
    submit.disabled = true;
    tourApi
      .create(body)
      .then((v) => navigate(`/tournament/${v.id}`))
      .catch((e2) => {
        err.textContent = errorText(e2);
        submit.disabled = false;
      });
  };
  return h(
    'form',
    { class: 'form', onsubmit },
    field('tour-name', t('tour.name'), f.name),
    field('tour-system', t('tour.system'), f.system),
    field('tour-mode', t('tour.mode'), f.mode),
    f.roundsField,
    f.minutesField,
    f.tc.el,
    f.rules.el,
    f.gapField,
    f.graceField,
    f.presenceField,
    f.startsField,
    f.classField,
    h('label', { class: 'check', for: 'tour-rated' }, f.rated, ' ', t('tour.rated')),
    h('div', { class: 'form-buttons' }, submit),
    err,
  );
}

/** An over-the-board event from a TRF-16 file (pasted or chosen); an imported one opens its page. */
function importPart(): HTMLElement[] {
  const trf = h('textarea', { testid: 'tour-trf', rows: 6, placeholder: '012 …\n001    1 …', 'aria-label': t('tour.trfText') });
  const file = h('input', { type: 'file', testid: 'tour-trf-file', 'aria-label': t('tour.trfFile') });
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (f) void f.text().then((s) => (trf.value = s));
  });
  const ierr = h('p', { class: 'error', testid: 'tour-import-error', 'aria-live': 'polite' });
  const send = () => {
    ierr.textContent = '';
    tourApi
      .importTrf({ trf: trf.value })
      .then((v) => navigate(`/tournament/${v.id}`))
      .catch((e) => (ierr.textContent = errorText(e)));
  };
  return [
    h('h2', {}, t('tour.import')),
    h('p', { class: 'hint' }, t('tour.importHelp')),
    file,
    trf,
    h('div', { class: 'form-buttons' }, h('button', { class: 'btn', testid: 'tour-import', onclick: send }, t('tour.importButton'))),
    ierr,
  ];
}

/** The box's minutes+seconds as a PGN time control, or the text itself for the server to judge. */
function tcFromBoxOrRaw(box: string): string {
  return tcFromBox(box) ?? box;
}

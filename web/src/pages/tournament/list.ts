// SPDX-License-Identifier: GPL-3.0-or-later
// 比赛 / Tournaments: the open, running and recently finished tournaments; a form to organise one (round-robin or
// Swiss, online or over the board); a TRF-16 file to import an over-the-board event.

import { currentUser, errorText, link, navigate } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { getLang, t } from '../../i18n';
import type { TournamentMode, TournamentSummary, TournamentSystem } from '../../protocol_http';
import { tcFromBox, tcLabel } from '../../ui/names';
import { rulesField, tcField } from '../home-parts';
import { tourApi } from './xhr';
import { modeText, statusText, systemText } from './text';

export function tournamentListPage(): Page {
  const listEl = h('div', { testid: 'tour-list' }, h('p', {}, t('common.loading')));
  const formEl = h('section', { class: 'tour-create' });
  const importEl = h('section', { class: 'tour-import' });
  const el = h('div', { class: 'page tour-page' }, h('h1', {}, t('tour.title')), h('p', { class: 'hint' }, t('tour.intro')), listEl, formEl, importEl);

  function renderList(ts: TournamentSummary[]): void {
    if (!ts.length) {
      replace(listEl, h('p', { class: 'hint', testid: 'tour-none' }, t('tour.none')));
      return;
    }
    const fmt = (x: number) => new Date(x).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en-GB');
    replace(
      listEl,
      h(
        'table',
        { class: 'table' },
        h(
          'thead',
          {},
          h('tr', {}, [t('tour.name'), t('tour.system'), t('tour.timeControl'), t('tour.players'), t('tour.round'), t('tour.status'), t('tour.created')].map((x) => h('th', {}, x))),
        ),
        h(
          'tbody',
          {},
          ts.map((s) =>
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
            ),
          ),
        ),
      ),
    );
  }

  function renderForm(): void {
    const me = currentUser();
    if (!me || me.guest) {
      replace(formEl, h('p', { class: 'hint' }, t('tour.loginToOrganise'), ' ', link('/login', t('nav.login'))));
      replace(importEl);
      return;
    }
    const name = h('input', { testid: 'tour-name', id: 'tour-name', autocomplete: 'off', placeholder: t('tour.namePlaceholder') });
    const system = h(
      'select',
      { testid: 'tour-system', id: 'tour-system' },
      (['swiss', 'round_robin', 'double_round_robin', 'arena'] as TournamentSystem[]).map((s) => h('option', { value: s }, systemText(s))),
    );
    const mode = h(
      'select',
      { testid: 'tour-mode', id: 'tour-mode' },
      (['online', 'otb'] as TournamentMode[]).map((m) => h('option', { value: m }, modeText(m))),
    );
    const rounds = h('input', { testid: 'tour-rounds', id: 'tour-rounds', type: 'number', min: '1', max: '30', value: '5' });
    const roundsField = h('div', { class: 'field' }, h('label', { for: 'tour-rounds' }, t('tour.rounds')), rounds);
    const minutes = h('input', { testid: 'tour-minutes', id: 'tour-minutes', type: 'number', min: '10', max: '720', value: '60' });
    const minutesField = h('div', { class: 'field' }, h('label', { for: 'tour-minutes' }, t('tour.minutes')), minutes);
    const gap = h('input', { testid: 'tour-gap', id: 'tour-gap', type: 'number', min: '0', max: '604800', value: '30' });
    const rated = h('input', { testid: 'tour-rated', id: 'tour-rated', type: 'checkbox' });
    const tc = tcField('10+5');
    const rules = rulesField('online');
    const err = h('p', { class: 'error', testid: 'tour-error', 'aria-live': 'polite' });
    const gapField = h('div', { class: 'field' }, h('label', { for: 'tour-gap' }, t('tour.gap')), gap);
    // A class needs minutes to sit down and find its boards: five by default, not the 30 s of a casual game.
    const grace = h(
      'select',
      { testid: 'tour-grace', id: 'tour-grace' },
      [1, 2, 3, 5, 10, 15].map((m) => h('option', { value: String(m * 60), selected: m === 5 }, String(m))),
    );
    const graceField = h('div', { class: 'field' }, h('label', { for: 'tour-grace' }, t('tour.graceField')), grace, h('span', { class: 'hint' }, t('tour.graceHelp')));
    const presence = h('input', { testid: 'tour-presence', id: 'tour-presence', type: 'checkbox', checked: true });
    const presenceField = h('label', { class: 'check', for: 'tour-presence' }, presence, ' ', t('tour.presenceField'));
    const startsAt = h('input', { testid: 'tour-starts-at', id: 'tour-starts-at', type: 'datetime-local', step: '1' });
    const startsField = h(
      'div',
      { class: 'field' },
      h('label', { for: 'tour-starts-at' }, t('tour.startsAt')),
      startsAt,
      h('span', { class: 'hint' }, t('tour.startsAtHelp')),
    );
    const sync = () => {
      roundsField.hidden = system.value !== 'swiss';
      minutesField.hidden = system.value !== 'arena';
      gapField.hidden = system.value === 'arena';
      if (system.value === 'arena') mode.value = 'online';
      mode.disabled = system.value === 'arena';
      startsField.hidden = mode.value !== 'online';
      graceField.hidden = mode.value !== 'online' || system.value === 'arena';
      presenceField.hidden = mode.value !== 'online' || system.value === 'arena';
      // Over the board the arbiter's rules apply, not the site's.
      rules.el.hidden = mode.value !== 'online';
      rated.disabled = mode.value !== 'online';
      if (rated.disabled) rated.checked = false;
    };
    system.addEventListener('change', sync);
    mode.addEventListener('change', sync);
    sync();
    const submit = h('button', {
      class: 'btn primary',
      testid: 'tour-submit',
      type: 'submit',
    }, t('tour.create'));
    const form = h(
      'form',
      {
        class: 'form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          err.textContent = '';
          const box = tc.input.value.trim();
          submit.disabled = true;
          tourApi
            .create({
              name: name.value,
              system: system.value as TournamentSystem,
              mode: mode.value as TournamentMode,
              time_control: box === '-' || box === '' ? '-' : tcFromBoxOrRaw(box),
              rules: rules.read(),
              rated: rated.checked,
              rounds: system.value === 'swiss' ? Number(rounds.value) : undefined,
              round_gap_s: Number(gap.value || '30'),
              minutes: system.value === 'arena' ? Number(minutes.value) : undefined,
              starts_at_ms: mode.value === 'online' && startsAt.value ? new Date(startsAt.value).getTime() : undefined,
              first_move_grace_s: mode.value === 'online' && system.value !== 'arena' ? Number(grace.value) : undefined,
              presence_check: mode.value === 'online' && system.value !== 'arena' ? presence.checked : undefined,
            })
            .then((v) => navigate(`/tournament/${v.id}`))
            .catch((e2) => {
              err.textContent = errorText(e2);
              submit.disabled = false;
            });
        },
      },
      h('div', { class: 'field' }, h('label', { for: 'tour-name' }, t('tour.name')), name),
      h('div', { class: 'field' }, h('label', { for: 'tour-system' }, t('tour.system')), system),
      h('div', { class: 'field' }, h('label', { for: 'tour-mode' }, t('tour.mode')), mode),
      roundsField,
      minutesField,
      tc.el,
      rules.el,
      gapField,
      graceField,
      presenceField,
      startsField,
      h('label', { class: 'check', for: 'tour-rated' }, rated, ' ', t('tour.rated')),
      h('div', { class: 'form-buttons' }, submit),
      err,
    );
    replace(formEl, h('h2', {}, t('tour.organise')), form);

    const trf = h('textarea', { testid: 'tour-trf', rows: 6, placeholder: '012 …\n001    1 …', 'aria-label': t('tour.trfText') });
    const file = h('input', { type: 'file', testid: 'tour-trf-file', 'aria-label': t('tour.trfFile') });
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (f) void f.text().then((s) => (trf.value = s));
    });
    const ierr = h('p', { class: 'error', testid: 'tour-import-error', 'aria-live': 'polite' });
    replace(
      importEl,
      h('h2', {}, t('tour.import')),
      h('p', { class: 'hint' }, t('tour.importHelp')),
      file,
      trf,
      h(
        'div',
        { class: 'form-buttons' },
        h(
          'button',
          {
            class: 'btn',
            testid: 'tour-import',
            onclick: () => {
              ierr.textContent = '';
              tourApi
                .importTrf({ trf: trf.value })
                .then((v) => navigate(`/tournament/${v.id}`))
                .catch((e) => (ierr.textContent = errorText(e)));
            },
          },
          t('tour.importButton'),
        ),
      ),
      ierr,
    );
  }

  tourApi
    .list()
    .then((l) => renderList(l.tournaments))
    .catch((e) => replace(listEl, h('p', { class: 'error' }, errorText(e))));
  renderForm();
  return { el };
}

/** The box's minutes+seconds as a PGN time control, or the text itself for the server to judge. */
function tcFromBoxOrRaw(box: string): string {
  return tcFromBox(box) ?? box;
}

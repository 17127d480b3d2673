// SPDX-License-Identifier: GPL-3.0-or-later
// Parts of the home page: the beginner's card (to 学棋), the time-control field (a box in minutes+seconds, its
// reading, the presets), the link of a friend challenge waiting to be sent, the games being played now (mini
// boards), and one's own games in progress.

import { lastMoveKeys } from '../chess';
import { h, replace } from '../dom';
import { t } from '../i18n';
import { link, toast } from '../app';
import type { LiveGame, StartChoice } from '../protocol';
import type { LearnProgress, Me } from '../protocol_http';
import { countDone, nextToLearn } from './learn/ctrl';
import { loadCourse, localProgress, syncProgress } from './learn/xhr';
import { makeBoard } from '../ui/board';
import { playerName, tcFromBox, tcLabel, tcToBox } from '../ui/names';

const TC_PRESETS: { tc: string; key: 'tc.bullet' | 'tc.blitz' | 'tc.rapid' | 'tc.classical' | 'tc.none' }[] = [
  { tc: '60+0', key: 'tc.bullet' },
  { tc: '180+2', key: 'tc.blitz' },
  { tc: '300+3', key: 'tc.blitz' },
  { tc: '600+5', key: 'tc.rapid' },
  { tc: '900+10', key: 'tc.rapid' },
  { tc: '1800+20', key: 'tc.classical' },
  { tc: '-', key: 'tc.none' },
];

/**
 * The time-control field: the box (`text`: minutes+seconds as the presets show them, or the FIDE multi-period
 * form), what it reads as next to it (or why it cannot be read), the help line and the preset chips.
 */
export function tcField(text: string): { el: HTMLElement[]; input: HTMLInputElement } {
  const input = h('input', {
    testid: 'time-control',
    id: 'setup-tc',
    value: text,
    autocomplete: 'off',
    'aria-label': t('home.timeControl'),
  });
  const hint = h('span', { class: 'hint', testid: 'tc-hint' });
  const show = () => {
    const tc = tcFromBox(input.value);
    hint.textContent = tc === null ? t('home.tcBad', { tc: input.value.trim() }) : tcLabel(tc);
    hint.classList.toggle('warn', tc === null);
  };
  show();
  input.addEventListener('input', show);
  const chips = h(
    'div',
    { class: 'chips' },
    TC_PRESETS.map((p) =>
      h(
        'button',
        {
          type: 'button',
          class: 'chip',
          'data-tc': p.tc,
          onclick: () => {
            input.value = tcToBox(p.tc);
            show();
          },
        },
        h('b', {}, tcLabel(p.tc)),
        p.tc === '-' ? null : [' ', h('small', {}, t(p.key))],
      ),
    ),
  );
  return {
    input,
    el: [
      h('div', { class: 'field' }, h('label', { for: 'setup-tc' }, t('home.timeControl')), h('div', { class: 'tc-row' }, input, hint)),
      h('p', { class: 'hint' }, t('home.tcHelp')),
      chips,
    ],
  };
}

/** The games being played now, as cards with a mini board (the old boards in `boards` are destroyed first). */
export function renderLiveGames(liveEl: HTMLElement, games: LiveGame[], boards: { destroy(): void }[]): void {
  for (const b of boards.splice(0)) b.destroy();
  if (!games.length) {
    replace(liveEl, h('p', { class: 'hint' }, t('home.noLiveGames')));
    return;
  }
  replace(
    liveEl,
    games.slice(0, 8).map((g) => {
      const boardEl = h('div', { class: 'cg-wrap mini-board' });
      const card = h(
        'a',
        { class: 'live-card', href: `/game/${g.game_id}`, 'data-link': '', testid: 'live-game', 'data-game': g.game_id },
        boardEl,
        h('div', { class: 'live-names', translate: 'no' }, `${playerName(g.white)} – ${playerName(g.black)}`),
        h('div', { class: 'hint' }, `${tcLabel(g.time_control)} · ${g.rated ? t('home.ratedShort') : t('home.casualShort')}`),
      );
      boards.push(
        makeBoard(boardEl, {
          fen: g.fen,
          viewOnly: true,
          coordinates: false,
          lastMove: lastMoveKeys(g.last_move ?? undefined),
        }),
      );
      return card;
    }),
  );
}

/** Links back to one's own games in progress. */
export function renderMyGames(playingEl: HTMLElement, ids: string[]): void {
  if (!ids.length) {
    replace(playingEl);
    return;
  }
  replace(
    playingEl,
    h('h3', {}, t('home.yourGames')),
    h(
      'div',
      { class: 'chips' },
      ids.map((id) =>
        h('a', { href: `/game/${id}`, 'data-link': '', class: 'chip', testid: 'resume-game' }, t('home.resume'), ' ', h('span', { translate: 'no' }, id)),
      ),
    ),
  );
}

/** A friend challenge waiting for its friend: the link to send (with a copy button), and a way to cancel it. */
export function challengeBox(url: string, onCancel: () => void): HTMLElement {
  const linkInput = h('input', { readonly: true, value: url, testid: 'friend-link', class: 'friend-link' });
  return h(
    'div',
    { class: 'challenge-box' },
    h('h3', {}, t('home.linkReady')),
    h('p', {}, t('home.sendLink')),
    h(
      'div',
      { class: 'tc-row' },
      linkInput,
      h(
        'button',
        {
          class: 'btn',
          testid: 'copy-link',
          onclick: () => {
            linkInput.select();
            navigator.clipboard?.writeText(url).then(
              () => toast(t('home.copied')),
              () => undefined,
            );
          },
        },
        t('home.copy'),
      ),
    ),
    h('p', { class: 'waiting' }, t('home.waitingFriend')),
    h('button', { class: 'btn', testid: 'cancel-challenge', onclick: onCancel }, t('common.cancel')),
  );
}

export type VariantPick = 'standard' | 'chess960' | 'chess960Number';

/**
 * The start of a new game: standard chess, Chess960 from a random start, or Chess960 from a chosen start number
 * (0–959; its box shows only then). `read()` is `null` while the number is not one.
 */
export function variantField(
  pick: VariantPick,
  number: string,
): { el: HTMLElement[]; read(): StartChoice | null; picked(): { variant: VariantPick; number: string } } {
  const sel = h(
    'select',
    { testid: 'variant', id: 'setup-variant' },
    (['standard', 'chess960', 'chess960Number'] as const).map((v) =>
      h('option', { value: v, selected: v === pick }, t(`variant.${v}`)),
    ),
  );
  const box = h('input', { type: 'number', min: '0', max: '959', value: number, testid: 'chess960-number', id: 'setup-960' });
  const boxField = h('label', { class: 'field', for: 'setup-960' }, h('span', {}, t('home.chess960Number')), box);
  const show = () => (boxField.hidden = sel.value !== 'chess960Number');
  sel.addEventListener('change', show);
  show();
  return {
    el: [h('label', { class: 'field', for: 'setup-variant' }, h('span', {}, t('home.variant')), sel), boxField],
    read() {
      if (sel.value === 'standard') return { kind: 'standard' };
      if (sel.value === 'chess960') return { kind: 'chess960' };
      const n = Number(box.value);
      return Number.isInteger(n) && n >= 0 && n <= 959 && box.value.trim() !== '' ? { kind: 'chess960', position: n } : null;
    },
    picked: () => ({ variant: sel.value as VariantPick, number: box.value }),
  };
}

/** The rule sets offered when starting a game (docs/game.md, "Rule sets"). */
const RULE_SETS = [
  'online',
  'touch_move',
  'touch_move+illegal_moves_count',
  'king_into_check',
  'adjournment',
  'touch_move+illegal_moves_count+adjournment',
] as const;

/** The rule set of a new game; `read()` is what `play_computer` and `challenge_friend` take (none for online). */
export function rulesField(pick: string): { el: HTMLElement; read(): string | undefined; picked(): string } {
  const sel = h(
    'select',
    { testid: 'rules', id: 'setup-rules' },
    RULE_SETS.map((r) =>
      h(
        'option',
        { value: r, selected: r === pick },
        r
          .split('+')
          .map((p) => t(`rules.${p}` as 'rules.online'))
          .join(' + '),
      ),
    ),
  );
  return {
    el: h('label', { class: 'field', for: 'setup-rules' }, h('span', {}, t('home.rules')), sel),
    read: () => (sel.value === 'online' ? undefined : sel.value),
    picked: () => sel.value,
  };
}

const FIRST_STEPS_HIDDEN = 'gx.home.firstStepsHidden';

/**
 * The beginner's card: "New to chess? Start with Learn". Prominent (`data-state="new"`) while no lesson of 学棋 is
 * done — a guest, a new account; once some are, a discreet line that continues the course (`"progress"`); nothing
 * once the course is done or the card was closed in this browser. The progress is the browser's at once, then the
 * account's (merged by Learn's own sync).
 */
export function firstStepsCard(me: Me | null): { el: HTMLElement; destroy(): void } {
  const el = h('section', { class: 'first-steps', testid: 'first-steps' });
  let alive = true;
  const closed = () => {
    try {
      return localStorage.getItem(FIRST_STEPS_HIDDEN) === '1';
    } catch {
      return false;
    }
  };
  const close = () => {
    try {
      localStorage.setItem(FIRST_STEPS_HIDDEN, '1');
    } catch {
      // private mode: closed for this page only
    }
    el.hidden = true;
  };
  const doneIn = (p: LearnProgress) => Object.values(p.lessons).filter((l) => l.done).length;

  function render(done: number, total: number | null, next: string | null): void {
    if (closed() || (total !== null && total > 0 && done >= total)) {
      el.hidden = true;
      replace(el);
      return;
    }
    el.hidden = false;
    const fresh = done === 0;
    el.className = 'first-steps ' + (fresh ? 'prominent' : 'discreet');
    el.dataset.state = fresh ? 'new' : 'progress';
    const closeBtn = h(
      'button',
      { type: 'button', class: 'first-steps-close', testid: 'first-steps-close', title: t('first.close'), 'aria-label': t('first.close'), onclick: close },
      '×',
    );
    if (fresh) {
      replace(
        el,
        h('div', { class: 'first-steps-text' }, h('h2', {}, t('first.title')), h('p', {}, t('first.text'))),
        link('/learn', t('first.go'), { class: 'btn big primary', testid: 'first-steps-go' }),
        closeBtn,
      );
    } else {
      replace(
        el,
        link(next ? `/learn/${next}` : '/learn', t('first.continue'), { testid: 'first-steps-go' }),
        total !== null ? h('span', { class: 'hint' }, ' · ', t('first.progress', { done: String(done), total: String(total) })) : null,
        closeBtn,
      );
    }
  }

  const local = localProgress(me ? { id: me.id, guest: me.guest } : null);
  render(doneIn(local), null, null);
  const who = me ? { id: me.id, guest: me.guest } : null;
  Promise.all([loadCourse(), syncProgress(who)])
    .then(([course, p]) => {
      if (!alive) return;
      const { done, total } = countDone(course, p);
      render(done, total, nextToLearn(course, p)?.id ?? null);
    })
    .catch(() => undefined);
  return {
    el,
    destroy() {
      alive = false;
    },
  };
}

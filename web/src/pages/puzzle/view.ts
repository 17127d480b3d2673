// SPDX-License-Identifier: GPL-3.0-or-later
// 战术训练 / Puzzles: rendering — the mode tabs with the puzzle rating, the theme chooser (the seeds' eighteen
// tactics first, then the other motifs), the round's panel (prompt, feedback, hint and solution, the result with
// the motifs explained, the rating change and the line), the streak's counter and the dashboard.

import { link } from '../../app';
import { chineseSan } from '../../chess';
import { h } from '../../dom';
import type { Child } from '../../dom';
import { getLang, pick, t } from '../../i18n';
import type { Key } from '../../i18n';
import { getSetting, setSetting } from '../../settings';
import { fenAt, helped, lineOf, ratingText, signed } from './ctrl';
import type { RoundState } from './ctrl';
import { DIFFICULTIES } from './xhr';
import type { Difficulty, Motif, Themes, PuzzleText } from './xhr';
import type { DashboardRating, DashboardRound, DashboardTheme } from '../../protocol_http';

export const tx = (x: PuzzleText | null | undefined): string => (x ? pick(x.zh, x.en) : '');
/** A move as the learner chose to read moves: Chinese piece letters (马f3) or English ones (Nf3). */
const sanText = (s: string) => (getSetting('chineseLetters') ? chineseSan(s) : s);

export type Tab = 'train' | 'daily' | 'streak' | 'dashboard';

// A move written in a sentence: piece letter, optional from-file/rank, optional capture, square, promotion, check.
const SAN_IN_TEXT = /(^|[\s…(（"“])([KQRBN][a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?[+#]?|[a-h](?:x[a-h])?[18]=[QRBN][+#]?)(?=$|[\s,.;:!?，。；：！？)）"”])/g;

/** The moves in a sentence from the server in the learner's letters (the server writes them in the letters asked
 * for; a sentence that came without asking, such as a rules explanation, is turned here). */
export function sanInText(text: string): string {
  return getSetting('chineseLetters') ? text.replace(SAN_IN_TEXT, (_, pre: string, san: string) => pre + chineseSan(san)) : text;
}

/** The mode tabs and the current puzzle rating (`?` while provisional; none in streaks, which are not rated). */
export function topBar(tab: Tab, rating: { rating: number; provisional: boolean } | null): HTMLElement {
  const tabs: [Tab, string, string][] = [
    ['train', '/puzzle', t('puzzle.tab.train')],
    ['daily', '/puzzle/daily', t('puzzle.tab.daily')],
    ['streak', '/puzzle/streak', t('puzzle.tab.streak')],
    ['dashboard', '/puzzle/dashboard', t('puzzle.tab.dashboard')],
  ];
  return h(
    'div',
    { class: 'puzzle-top' },
    h('h1', {}, t('puzzle.title')),
    h(
      'nav',
      { class: 'puzzle-tabs' },
      tabs.map(([k, href, text]) => link(href, text, { class: 'puzzle-tab' + (k === tab ? ' active' : ''), testid: `puzzle-tab-${k}` })),
    ),
    h(
      'div',
      { class: 'puzzle-rating-box' },
      h('span', { class: 'hint' }, t('puzzle.yourRating')),
      h(
        'span',
        {
          class: 'puzzle-rating',
          testid: 'puzzle-rating',
          'data-rating': rating ? String(Math.round(rating.rating)) : '',
          'data-provisional': rating?.provisional ? '1' : '0',
        },
        rating ? ratingText(rating.rating, rating.provisional) : '…',
      ),
      // Said on the page (not only in a tooltip) so that a phone shows it too.
      rating?.provisional ? h('span', { class: 'hint puzzle-provisional-note', testid: 'puzzle-provisional-note' }, t('puzzle.provisionalNote')) : null,
    ),
  );
}

/** The difficulty chooser: how far from your rating the next puzzles are (as on lichess, ±300 and ±600). */
export function difficultyPicker(current: Difficulty, onChange: (d: Difficulty) => void): HTMLElement {
  const select = h(
    'select',
    {
      class: 'puzzle-difficulty',
      testid: 'puzzle-difficulty',
      'aria-label': t('puzzle.difficulty'),
      onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value as Difficulty),
    },
    DIFFICULTIES.map((d) => h('option', { value: d, selected: d === current }, t(`puzzle.diff.${d}` as Key))),
  );
  return h('label', { class: 'field puzzle-difficulty-field' }, h('span', {}, t('puzzle.difficulty')), select);
}

/** The name of a seed tactic in the chooser: its name, with its motifs' names when they differ (双重打击 · 捉双). */
function seedLabel(s: Themes['seeds'][number], th: Themes): string {
  const name = pick(s.zh, s.en);
  const others = s.motifs
    .map((id) => th.motifs.find((m) => m.id === id))
    .filter((m): m is Themes['motifs'][number] => !!m)
    .map((m) => pick(m.zh, m.en))
    .filter((n) => n !== name);
  return `${s.number}. ${name}${others.length ? ' · ' + others.join(pick('、', ', ')) : ''}`;
}

function group(label: string, options: HTMLElement[]): HTMLOptGroupElement {
  const g = h('optgroup', {}, options);
  g.label = label;
  return g;
}

/** The theme chooser: any, the seeds' tactics (`seed-N`), the other motifs (the server lists only those with puzzles). */
export function themePicker(th: Themes | null, current: string | null, onChange: (theme: string | null) => void): HTMLElement {
  const opt = (value: string, label: string, count: number, title?: string) =>
    h('option', { value, selected: value === (current ?? ''), disabled: count === 0 && value !== current, title }, `${label} (${count})`);
  const seedMotifs = new Set(th?.seeds.flatMap((s) => s.motifs) ?? []);
  const select = h(
    'select',
    {
      class: 'puzzle-theme',
      testid: 'puzzle-theme',
      'aria-label': t('puzzle.theme'),
      onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value || null),
    },
    h('option', { value: '', selected: !current }, t('puzzle.anyTheme')),
    th
      ? [
          group(t('puzzle.seedGroup'), th.seeds.map((s) => opt(`seed-${s.number}`, seedLabel(s, th), s.count))),
          group(
            t('puzzle.otherGroup'),
            th.motifs.filter((m) => !seedMotifs.has(m.id)).map((m) => opt(m.id, pick(m.zh, m.en), m.count, tx(m.about))),
          ),
          // The server lists only themes with puzzles; one chosen earlier that has none now stays choosable.
          current && !th.seeds.some((s) => `seed-${s.number}` === current) && !th.motifs.some((m) => m.id === current)
            ? h('option', { value: current, selected: true }, `${current} (0)`)
            : null,
        ]
      : null,
  );
  return h('label', { class: 'field puzzle-theme-field' }, h('span', {}, t('puzzle.theme')), select);
}

export interface RoundHandlers {
  hint(): void;
  solution(): void;
  next(): void;
  step(ply: number): void;
  /** Draws the panel again (after a display setting changed). */
  redraw(): void;
}

function prompt(st: RoundState): HTMLElement {
  const side = st.puzzle.solver === 'white' ? t('puzzle.whiteToPlay') : t('puzzle.blackToPlay');
  let sub = t('puzzle.findBest');
  if (!st.setupDone) sub = t('puzzle.watchSetup');
  else if (st.pending) sub = t('puzzle.checking');
  return h(
    'div',
    { class: `puzzle-prompt ${st.puzzle.solver}`, testid: 'puzzle-prompt', 'data-solver': st.puzzle.solver },
    h('span', { class: `dot ${st.puzzle.solver}` }),
    h('div', {}, h('div', { class: 'puzzle-to-play' }, side), h('div', { class: 'hint' }, sub)),
  );
}

function feedback(st: RoundState): Child {
  const f = st.feedback;
  if (!f) return null;
  if (f.kind === 'good') return h('div', { class: 'puzzle-feedback good', testid: 'puzzle-feedback', 'data-kind': 'good', role: 'status' }, t('puzzle.good'));
  if (f.kind === 'error') return h('div', { class: 'puzzle-feedback wrong', testid: 'puzzle-feedback', 'data-kind': 'error', role: 'alert' }, f.text);
  const head = f.kind === 'wrong' ? t(st.mode === 'streak' ? 'puzzle.wrongStreak' : 'puzzle.wrong') : t('puzzle.illegal');
  return h(
    'div',
    { class: 'puzzle-feedback wrong', testid: 'puzzle-feedback', 'data-kind': f.kind, role: 'alert' },
    h('b', {}, head),
    f.reason ? h('span', { testid: 'puzzle-reason' }, ' ' + sanInText(tx(f.reason))) : null,
  );
}

/** The round's panel while solving, then the result. */
export function roundPanel(st: RoundState, th: Themes | null, on: RoundHandlers): HTMLElement {
  const streak = st.mode === 'streak';
  return h(
    'div',
    { class: 'puzzle-round' },
    st.over ? null : prompt(st),
    feedback(st),
    st.over
      ? null
      : h(
          'div',
          { class: 'puzzle-help' },
          streak
            ? null
            : h(
                'button',
                { class: 'btn', testid: 'puzzle-hint', disabled: !st.setupDone || st.busy || st.hints >= 2, onclick: on.hint, 'data-hints': String(st.hints) },
                st.hints === 0 ? t('puzzle.hint') : st.hints === 1 ? t('puzzle.hintMove') : t('puzzle.hintShown'),
              ),
          h('button', { class: 'btn', testid: 'puzzle-solution', disabled: !st.setupDone || st.busy, onclick: on.solution }, streak ? t('puzzle.giveUp') : t('puzzle.solution')),
          streak ? null : h('p', { class: 'hint puzzle-help-note' }, helped(st) ? t('puzzle.helpedNote') : t('puzzle.helpNote')),
        ),
    st.over ? resultView(st, th, on) : st.win === false && !streak ? h('p', { class: 'hint', testid: 'puzzle-lost-note' }, t('puzzle.lostKeepTrying')) : null,
    st.over || st.win === false
      ? h('button', { class: 'btn primary big', testid: 'puzzle-next', onclick: on.next }, streak && st.win !== true ? t('puzzle.newStreak') : t('puzzle.next'))
      : null,
  );
}

function ratingChange(st: RoundState): Child {
  if (st.mode === 'streak') return null;
  const a = st.answer;
  if (!a) return h('p', { class: 'hint', testid: 'puzzle-change' }, st.sent ? t('puzzle.saving') : '');
  const d = a.rating.after - a.rating.before;
  return h(
    'p',
    { class: 'puzzle-change', testid: 'puzzle-change', 'data-before': String(a.rating.before), 'data-after': String(a.rating.after) },
    t('puzzle.ratingChange', { before: String(Math.round(a.rating.before)), after: ratingText(a.rating.after, a.rating.provisional) }),
    ' ',
    h('b', { class: d > 0 ? 'up' : d < 0 ? 'down' : '' }, signed(d)),
  );
}

function motifsView(st: RoundState, th: Themes | null): HTMLElement {
  const seeds = new Map((th?.seeds ?? []).map((s) => [s.number, s]));
  const about = new Map((th?.motifs ?? []).map((m) => [m.id, m.about]));
  // Each sentence once: motifs saying the same (牵制 and 绝对牵制 name one pin) share one item. The server sends
  // such a motif right after the first with an empty sentence; the same sentence twice is caught here as well.
  const groups: { motifs: Motif[]; sentence: string }[] = [];
  for (const m of st.puzzle.motifs) {
    const own = tx(m.text);
    const repeated = m.text !== undefined && !own && groups.length > 0;
    const sentence = own || (m.text === undefined ? tx(about.get(m.id)) : '');
    const same = repeated ? groups[groups.length - 1] : groups.find((g) => sentence && g.sentence === sentence);
    if (same) same.motifs.push(m);
    else groups.push({ motifs: [m], sentence });
  }
  const name = (m: Motif) => {
    const seed = m.seed ? seeds.get(m.seed) : undefined;
    return [
      h('b', {}, pick(m.zh, m.en)),
      seed && pick(seed.zh, seed.en) !== pick(m.zh, m.en) ? h('span', { class: 'hint' }, pick(`（${seed.zh}）`, ` (${seed.en})`)) : null,
    ];
  };
  return h(
    'div',
    { class: 'puzzle-motifs', testid: 'puzzle-motifs' },
    h('h3', {}, t('puzzle.motifs')),
    groups.length
      ? h(
          'ul',
          {},
          groups.map((g) =>
            h(
              'li',
              { 'data-motif': g.motifs[0].id, 'data-motifs': g.motifs.map((m) => m.id).join(' ') },
              g.motifs.flatMap((m, i) => [i > 0 ? h('span', { class: 'hint' }, ' · ') : null, ...name(m)]),
              g.sentence ? h('div', { class: 'puzzle-motif-text' }, sanInText(g.sentence)) : null,
            ),
          ),
        )
      : h('p', { class: 'hint' }, t('puzzle.noMotifs')),
  );
}

/** The line (setup move and the moves after it), to step through with the buttons or ←/→. */
function lineView(st: RoundState, on: RoundHandlers): HTMLElement {
  const line = lineOf(st);
  const view = st.view;
  const start = line.positions[0];
  const firstNumber = start.fullmoves;
  const blackFirst = start.turn === 'black';
  const items: Child[] = [];
  line.moves.forEach((m, i) => {
    const white = (i % 2 === 0) !== blackFirst;
    const n = firstNumber + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
    if (white || i === 0) items.push(h('span', { class: 'num' }, white ? `${n}.` : `${n}…`));
    items.push(
      h(
        'button',
        { class: 'mv' + (i + 1 === view ? ' current' : '') + (i === 0 ? ' setup' : ''), 'data-ply': String(i + 1), onclick: () => on.step(i + 1), translate: 'no' },
        sanText(m.san),
      ),
    );
  });
  const fen = fenAt(st, 1);
  const moves = line.moves.slice(1).map((m) => m.uci);
  const analysis = `/analysis?fen=${encodeURIComponent(fen)}${moves.length ? '&moves=' + moves.join(',') : ''}`;
  return h(
    'div',
    { class: 'puzzle-line', testid: 'puzzle-line', 'data-view': String(view) },
    h('div', { class: 'puzzle-movetext' }, items),
    h(
      'div',
      { class: 'nav-buttons' },
      h('button', { class: 'btn', testid: 'puzzle-prev', title: t('nav.prev'), 'aria-label': t('nav.prev'), disabled: view <= 0, onclick: () => on.step(view - 1) }, '←'),
      h('button', { class: 'btn', testid: 'puzzle-fwd', title: t('nav.next'), 'aria-label': t('nav.next'), disabled: view >= line.moves.length, onclick: () => on.step(view + 1) }, '→'),
    ),
    h('p', { class: 'hint' }, t('puzzle.stepHelp')),
    lettersToggle(on),
    link(analysis, t('puzzle.analyse'), { class: 'btn', testid: 'puzzle-analysis' }),
  );
}

/** The choice of piece letters (the same setting as the game's and the analysis board's). */
function lettersToggle(on: RoundHandlers): HTMLElement {
  const box = h('input', {
    type: 'checkbox',
    testid: 'puzzle-letters',
    checked: getSetting('chineseLetters'),
    onchange: (e: Event) => {
      setSetting('chineseLetters', (e.target as HTMLInputElement).checked);
      on.redraw();
    },
  });
  return h('label', { class: 'check puzzle-letters' }, box, ' ', t('settings.chineseLetters'), ' ', h('span', { lang: 'zh', class: 'hint', translate: 'no' }, '(马f3)'));
}

function resultView(st: RoundState, th: Themes | null, on: RoundHandlers): HTMLElement {
  const won = st.win === true;
  const solved = st.over && !st.solutionShown;
  const p = st.puzzle;
  let head: string;
  if (st.mode === 'streak') head = won ? t('puzzle.solved') : t('puzzle.streakOver');
  else if (won) head = t('puzzle.solved');
  else if (solved) head = st.mistakes ? t('puzzle.solvedAfterMistake') : t('puzzle.solvedWithHint');
  else head = t('puzzle.failed');
  return h(
    'div',
    { class: `puzzle-result ${won ? 'win' : 'loss'}`, testid: 'puzzle-result', 'data-result': won ? 'solved' : 'failed', role: 'status' },
    h('div', { class: 'puzzle-result-head' }, won ? '✓ ' : '✗ ', head),
    !won && helped(st) && st.mode !== 'streak' ? h('p', { class: 'hint' }, t('puzzle.countsAsLoss')) : null,
    ratingChange(st),
    h(
      'p',
      { class: 'hint puzzle-facts' },
      t('puzzle.facts', { number: p.number ? String(p.number) : p.id, rating: String(Math.round(p.rating)), plays: String(p.plays) }),
      ' ',
      link(`/puzzle/${encodeURIComponent(p.id)}`, t('puzzle.permalink'), { testid: 'puzzle-permalink' }),
      p.game_url && /^https?:\/\//.test(p.game_url) ? [' · ', h('a', { href: p.game_url, target: '_blank' }, t('puzzle.sourceGame'))] : null,
    ),
    motifsView(st, th),
    lineView(st, on),
  );
}

/** The streak's counter: puzzles solved in a row now, and the best in this browser. */
export function streakBar(n: number, best: number): HTMLElement {
  return h(
    'div',
    { class: 'puzzle-streak', testid: 'puzzle-streak', 'data-streak': String(n), 'data-best': String(best) },
    h('span', { class: 'puzzle-streak-n' }, t('puzzle.streakNow', { n: String(n) })),
    h('span', { class: 'hint' }, t('puzzle.streakBest', { n: String(best) })),
    h('p', { class: 'hint' }, t('puzzle.streakRules')),
  );
}

/** The dashboard's figures: an account's from the server, a guest's from the browser (which has no deviation). */
export interface DashboardData {
  rating: Omit<DashboardRating, 'deviation'>;
  history: DashboardRound[];
  themes: DashboardTheme[];
  guest: boolean;
}

function themeName(id: string, th: Themes | null): string {
  const m = th?.motifs.find((x) => x.id === id);
  return m ? pick(m.zh, m.en) : id;
}

function dateText(at: number): string {
  if (!at) return '';
  // Seconds or milliseconds since 1970.
  const d = new Date(at < 1e12 ? at * 1000 : at);
  return d.toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en-GB') + ' ' + d.toLocaleTimeString(getLang() === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' });
}

/** History and themes solved/failed (a guest's from this browser, an account's from the server). */
export function dashboardView(d: DashboardData, th: Themes | null): HTMLElement {
  const themes = [...d.themes].sort((a, b) => b.solved + b.failed - (a.solved + a.failed) || a.id.localeCompare(b.id));
  const wins = d.history.filter((x) => x.win).length;
  return h(
    'div',
    { class: 'puzzle-dashboard', testid: 'puzzle-dashboard' },
    h(
      'section',
      {},
      h('h2', {}, t('puzzle.dash.summary')),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, t('puzzle.yourRating')),
        h('dd', { testid: 'puzzle-dash-rating' }, ratingText(d.rating.rating, d.rating.provisional)),
        h('dt', {}, t('puzzle.dash.rounds')),
        h('dd', { testid: 'puzzle-dash-rounds' }, String(d.rating.rounds)),
        h('dt', {}, t('puzzle.dash.recent')),
        h('dd', {}, t('puzzle.dash.recentWins', { wins: String(wins), n: String(d.history.length) })),
      ),
      d.guest ? h('p', { class: 'hint' }, t('puzzle.dash.guestNote')) : null,
    ),
    h(
      'section',
      {},
      h('h2', {}, t('puzzle.dash.themes')),
      themes.length
        ? h(
            'table',
            { class: 'table', testid: 'puzzle-dash-themes' },
            h('thead', {}, h('tr', {}, h('th', {}, t('puzzle.theme')), h('th', {}, t('puzzle.dash.solved')), h('th', {}, t('puzzle.dash.failed')), h('th', {}, '%'))),
            h(
              'tbody',
              {},
              themes.map((x) =>
                h(
                  'tr',
                  { 'data-theme': x.id },
                  h('td', {}, themeName(x.id, th)),
                  h('td', { class: 'up' }, String(x.solved)),
                  h('td', { class: 'down' }, String(x.failed)),
                  h('td', {}, `${Math.round((100 * x.solved) / Math.max(1, x.solved + x.failed))}%`),
                ),
              ),
            ),
          )
        : h('p', { class: 'hint' }, t('puzzle.dash.none')),
    ),
    h(
      'section',
      {},
      h('h2', {}, t('puzzle.dash.history')),
      d.history.length
        ? h(
            'table',
            { class: 'table', testid: 'puzzle-dash-history' },
            h('thead', {}, h('tr', {}, h('th', {}, t('puzzle.dash.puzzle')), h('th', {}, t('puzzle.dash.result')), h('th', {}, t('puzzle.dash.ratingAfter')), h('th', {}, t('puzzle.dash.when')))),
            h(
              'tbody',
              {},
              d.history.map((x) =>
                h(
                  'tr',
                  { 'data-id': x.id, 'data-win': x.win ? '1' : '0' },
                  h('td', {}, link(`/puzzle/${encodeURIComponent(x.id)}`, x.number ? t('puzzle.numbered', { number: String(x.number) }) : x.id, { translate: 'no' })),
                  h('td', { class: x.win ? 'up' : 'down' }, x.win ? '✓ ' + t('puzzle.dash.win') : '✗ ' + t('puzzle.dash.loss')),
                  h('td', {}, String(Math.round(x.rating_after))),
                  h('td', { class: 'hint' }, dateText(x.at)),
                ),
              ),
            ),
          )
        : h('p', { class: 'hint' }, t('puzzle.dash.none')),
    ),
  );
}

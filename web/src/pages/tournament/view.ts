// SPDX-License-Identifier: GPL-3.0-or-later
// 比赛 / One tournament: rendering — the head (terms, organiser and arbiters, who is here), the buttons (join, leave,
// bye, start, pair, the PGN and TRF downloads), the arena's standings and games, the standings with FIDE tie-breaks,
// the rounds' pairings (the organiser and arbiters enter results there), the crosstable, the players with their
// history, and the organiser's forms. The state and the calls are the controller's (ctrl.ts).

import { currentUser, errorText, link, toast } from '../../app';
import { h, replace } from '../../dom';
import type { Child } from '../../dom';
import { getLang, t } from '../../i18n';
import type { Key } from '../../i18n';
import type { ArenaView, TournamentResult, TournamentRound, TournamentView } from '../../protocol_http';
import { tcLabel } from '../../ui/names';
import { finishedRounds, joinable, nextRoundDue } from './ctrl';
import type { TourCtrl } from './ctrl';
import {
  byeText,
  cellText,
  codeText,
  CROSS_CODES,
  modeText,
  RESULTS,
  resultText,
  score,
  statusText,
  systemText,
  tieBreakName,
  tieBreakShort,
} from './text';
import { tourApi } from './xhr';

type Board = TournamentRound['boards'][number];

const listSep = () => (getLang() === 'zh' ? '、' : ', ');
const locale = () => (getLang() === 'zh' ? 'zh-CN' : 'en-GB');
/** A table that scrolls sideways on a phone rather than widening the page. */
const scroll = (table: HTMLElement) => h('div', { class: 'table-scroll' }, table);
const headRow = (...cells: Child[]) => h('thead', {}, h('tr', {}, cells));
const th = (k: Key) => h('th', {}, t(k));

export interface TourView {
  el: HTMLElement;
  /** Draws the whole tournament. */
  render(v: TournamentView): void;
  /** The tournament could not be read at all. */
  failed(e: unknown): void;
}

export function makeView(ctrl: TourCtrl): TourView {
  const head = h('div', { class: 'tour-head' }, h('p', {}, t('common.loading')));
  const actions = h('div', { class: 'form-buttons tour-actions' });
  const arenaEl = h('section', { testid: 'arena' });
  const roundsEl = h('section', { testid: 'tour-rounds' });
  const standingsEl = h('section', { testid: 'standings' });
  const crossEl = h('section', { testid: 'crosstable' });
  const playersEl = h('section', { testid: 'tour-players' });
  const organiseEl = h('section', { testid: 'tour-organise' });
  const el = h('div', { class: 'page tour-page' }, head, actions, arenaEl, standingsEl, roundsEl, crossEl, playersEl, organiseEl);

  const drawRounds = (v: TournamentView) => replace(roundsEl, v.arena ? [] : roundsPart(ctrl, v, () => drawRounds(v)));
  const drawPlayers = (v: TournamentView) => replace(playersEl, playersPart(ctrl, v, () => drawPlayers(v)));
  return {
    el,
    render(v) {
      replace(head, headPart(v));
      replace(actions, actionButtons(ctrl, v));
      replace(arenaEl, v.arena ? arenaPart(ctrl, v.arena, v) : []);
      replace(standingsEl, standingsPart(v));
      drawRounds(v);
      replace(crossEl, crossPart(ctrl, v));
      drawPlayers(v);
      replace(organiseEl, organisePart(ctrl, v));
    },
    failed(e) {
      replace(head, h('p', { class: 'error', testid: 'tour-error' }, errorText(e)));
    },
  };
}

/** The parts of a rule set beyond the plain online rules. */
function clubRules(rules: string): string[] {
  return rules.split('+').filter((r) => r && r !== 'online');
}

function headPart(v: TournamentView): Child[] {
  const next = v.next_round_at_ms;
  const club = clubRules(v.rules);
  return [
    h('h1', { translate: 'no', testid: 'tour-title' }, v.name),
    h(
      'p',
      { class: 'level-line' },
      h('span', { class: 'badge', testid: 'tour-status', 'data-status': v.status }, statusText(v.status)),
      ' ',
      systemText(v.system),
      ' · ',
      modeText(v.mode),
      ' · ',
      v.time_control === '-' ? t('tour.noClock') : tcLabel(v.time_control),
      // Over the board the site's rule set does not apply: the arbiter's rules do. Online, the plain online rules
      // go without saying (the way of play is named just before); a club rule is named.
      v.mode === 'online' && club.length ? [' · ', club.map((r) => t(`rules.${r}` as 'rules.online')).join(' + ')] : null,
      ' · ',
      v.rated ? t('tour.ratedShort') : t('tour.casualShort'),
    ),
    presenceLine(v),
    h(
      'p',
      { class: 'hint' },
      t('tour.organiser', { name: v.organiser }),
      v.arbiters.length ? [' · ', t('tour.arbiters', { names: v.arbiters.join(listSep()) })] : null,
      v.rounds ? [' · ', t('tour.roundOf', { n: String(v.round_list.length), total: String(v.rounds) })] : null,
      v.class ? [' · ', h('span', { testid: 'tour-class-only' }, t('tour.classOnly'))] : null,
    ),
    v.starts_at_ms && v.status === 'open'
      ? h('p', { class: 'hint', testid: 'tour-starts' }, t('tour.startsAtShown', { time: new Date(v.starts_at_ms).toLocaleString(locale()) }))
      : null,
    next && v.status === 'running' ? h('p', { class: 'hint', testid: 'tour-next' }, t('tour.nextAt', { time: new Date(next).toLocaleTimeString(locale()) })) : null,
  ];
}

/** Online: the first-move grace, the presence check's rule, who is here, and who a waiting round waits for. */
function presenceLine(v: TournamentView): HTMLElement | null {
  if (v.mode !== 'online' || v.arena || v.status === 'finished') return null;
  const grace = v.first_move_grace_s ? t('tour.graceShown', { n: String(Math.round((v.first_move_grace_s / 60) * 10) / 10) }) : '';
  if (!v.presence_check) return grace ? h('p', { class: 'hint', testid: 'tour-grace' }, grace) : null;
  const active = v.players.filter((p) => !p.withdrawn);
  const here = active.filter((p) => p.present);
  const away = active.filter((p) => p.present === false);
  const waiting = v.status === 'running' && nextRoundDue(v) && away.length > 0;
  return h(
    'div',
    { class: 'tour-presence', testid: 'tour-presence' },
    h('p', { class: 'hint' }, v.system === 'swiss' ? t('tour.presenceSwiss') : t('tour.presenceRR'), ' ', h('span', { testid: 'tour-grace' }, grace)),
    h(
      'p',
      {},
      h('b', { testid: 'present-count' }, t('tour.presentCount', { n: String(here.length), total: String(active.length) })),
      waiting ? [' · ', h('span', { testid: 'tour-waiting' }, t('tour.waitingFor', { names: away.map((p) => p.name).join(listSep()) }))] : null,
    ),
  );
}

function actionButtons(ctrl: TourCtrl, v: TournamentView): HTMLElement[] {
  const buttons: HTMLElement[] = [];
  const btn = (cls: string, testid: string, text: string, onclick: () => void, disabled = false) =>
    h('button', { class: cls, testid, disabled, onclick }, text);
  const arena = v.arena;
  if (arena && v.status === 'running' && v.you_joined) {
    const mine = arena.standings.find((r) => r.no === v.your_no);
    buttons.push(
      mine?.paused
        ? btn('btn primary', 'tour-join', t('tour.arenaResume'), () => ctrl.join())
        : btn('btn', 'tour-leave', t('tour.arenaPause'), () => ctrl.leave()),
    );
  }
  if (currentUser() && !v.you_joined && joinable(v) && !(v.mode === 'otb' && v.status !== 'open')) {
    buttons.push(btn('btn primary', 'tour-join', t('tour.join'), () => ctrl.join()));
  }
  if (v.you_joined && v.status !== 'finished' && !(arena && v.status === 'running') && !v.players.find((p) => p.no === v.your_no)?.withdrawn) {
    const leave = () => {
      if (v.status === 'open' || confirm(t('tour.withdrawConfirm'))) ctrl.leave();
    };
    buttons.push(btn('btn', 'tour-leave', v.status === 'open' ? t('tour.leave') : t('tour.withdraw'), leave));
  }
  const nextRound = v.round_list.length + 1;
  if (v.system === 'swiss' && v.you_joined && v.status !== 'finished' && nextRound <= Math.max(v.rounds, 1)) {
    const asked = v.next_round_byes.includes(v.your_no);
    const text = asked ? t('tour.byeAsked', { n: String(nextRound) }) : t('tour.askBye', { n: String(nextRound) });
    buttons.push(btn('btn', 'tour-bye', text, () => ctrl.askBye(v.your_no), asked));
  }
  if (v.you_organise && v.status === 'open') {
    buttons.push(btn('btn primary', 'tour-start', t('tour.start'), () => ctrl.start(), v.players.length < 2));
  }
  if (v.you_arbitrate && v.status === 'running' && nextRoundDue(v)) {
    buttons.push(btn('btn primary', 'tour-pair', t('tour.pairNext', { n: String(v.round_list.length + 1) }), () => ctrl.pair()));
  }
  if (v.status !== 'open') {
    buttons.push(h('a', { class: 'btn', href: tourApi.pgnUrl(ctrl.id), download: `guoxiang_tournament_${ctrl.id}.pgn`, testid: 'tour-pgn' }, t('tour.downloadPgn')));
    buttons.push(h('a', { class: 'btn', href: tourApi.trfUrl(ctrl.id), download: `guoxiang_tournament_${ctrl.id}.trf`, testid: 'tour-trf' }, t('tour.downloadTrf')));
  }
  return buttons;
}

/** A board's result: text, or for the organiser and arbiters a chooser that enters it — but not on a board they
 *  play themselves (the server refuses it, `own_board`: docs/security.md "Conflicts of interest"). */
function resultCell(ctrl: TourCtrl, v: TournamentView, r: TournamentRound, b: Board): HTMLElement {
  const own = v.your_no > 0 && (b.white === v.your_no || b.black === v.your_no);
  if (!v.you_arbitrate || own) return h('td', { class: 'board-result', testid: 'board-result' }, resultText(b.result));
  const sel = h(
    'select',
    { testid: 'board-result-entry', 'aria-label': t('tour.enterResult', { board: String(b.board) }) },
    h('option', { value: '', selected: b.result === null }, '*'),
    RESULTS.map((x) => h('option', { value: x, selected: b.result === x }, resultText(x))),
  );
  sel.addEventListener('change', () => {
    if (!sel.value) return;
    ctrl.result(r.number, b.board, sel.value as TournamentResult);
  });
  return h('td', { class: 'board-result', testid: 'board-result' }, sel);
}

const gameLink = (b: { game_id: string | null; result: unknown }, attrs: { testid?: string } = {}) =>
  b.game_id ? link(`/game/${b.game_id}`, b.result ? t('tour.viewGame') : t('tour.watchGame'), attrs) : null;

/** The pairings of the round chosen in the tabs, its byes, and whether it is over. */
function roundsPart(ctrl: TourCtrl, v: TournamentView, redraw: () => void): Child[] {
  if (!v.round_list.length) return [h('h2', {}, t('tour.pairings')), h('p', { class: 'hint' }, v.status === 'open' ? t('tour.notStarted') : '—')];
  const shown = ctrl.shownRound;
  const r = v.round_list[shown - 1];
  const tab = (x: TournamentRound) =>
    h(
      'button',
      {
        class: `chip${x.number === shown ? ' active' : ''}`,
        role: 'tab',
        testid: 'round-tab',
        'data-round': String(x.number),
        'aria-pressed': String(x.number === shown),
        onclick: () => {
          ctrl.showRound(x.number);
          redraw();
        },
      },
      t('tour.roundN', { n: String(x.number) }),
    );
  const rows = r.boards.map((b) =>
    h(
      'tr',
      { testid: 'board-row', 'data-round': String(r.number), 'data-board': String(b.board) },
      h('td', {}, String(b.board)),
      h('td', { translate: 'no' }, `${ctrl.nameOf(b.white)} (${b.white})`),
      resultCell(ctrl, v, r, b),
      h('td', { translate: 'no' }, `${ctrl.nameOf(b.black)} (${b.black})`),
      h('td', {}, gameLink(b, { testid: 'board-game' }) ?? ''),
    ),
  );
  return [
    h('h2', {}, t('tour.pairings')),
    h('div', { class: 'chips', role: 'tablist' }, v.round_list.map(tab)),
    scroll(h('table', { class: 'table pairings' }, headRow(th('tour.board'), th('tour.white'), th('tour.result'), th('tour.black'), h('th', {}, '')), h('tbody', {}, rows))),
    r.byes.length
      ? h('p', { class: 'hint', testid: 'round-byes' }, r.byes.map((b, i) => [i ? ' · ' : '', `${ctrl.nameOf(b.no)} (${b.no}): ${byeText(b.kind)} ${score(b.points)}`]))
      : null,
    h('p', { class: 'hint' }, r.finished ? t('tour.roundFinished') : t('tour.roundPlaying')),
  ];
}

/** The standings with the tie-breaks and their legend (none before round 1 is over, none in an arena). */
function standingsPart(v: TournamentView): Child[] {
  const done = finishedRounds(v);
  // No table of zeros before anyone has played: the standings start after round 1.
  if (!v.standings.length || v.arena || v.status === 'open' || (done === 0 && v.status !== 'finished')) {
    return v.status === 'running' && !v.arena ? [h('p', { class: 'hint', testid: 'standings-later' }, t('tour.standingsLater'))] : [];
  }
  const rows = v.standings.map((s) =>
    h(
      'tr',
      { testid: 'standing-row', 'data-no': String(s.no), 'data-rank': String(s.rank) },
      h('td', {}, String(s.rank)),
      h('td', {}, String(s.no)),
      h('td', { translate: 'no' }, s.name),
      h('td', {}, s.rating === null ? '—' : String(s.rating)),
      h('td', { testid: 'standing-score' }, score(s.score)),
      s.tie_breaks.map((x, i) => h('td', { 'data-tb': v.tie_breaks[i] }, score(x))),
    ),
  );
  const head = headRow(
    th('tour.rank'),
    th('tour.no'),
    th('tour.player'),
    th('tour.rating'),
    th('tour.points'),
    v.tie_breaks.map((tb) => h('th', { 'data-tb': tb, title: `${tb}: ${tieBreakName(tb)}` }, tieBreakShort(tb))),
  );
  return [
    h('h2', {}, v.status === 'finished' ? t('tour.finalStandings') : t('tour.standingsAfter', { n: String(done) })),
    scroll(h('table', { class: 'table standings' }, head, h('tbody', {}, rows))),
    v.tie_breaks.length
      ? h(
          'div',
          { class: 'tour-legend', testid: 'tb-legend' },
          h('p', {}, t('tour.tbLegend')),
          h('dl', {}, v.tie_breaks.map((tb) => [h('dt', {}, tieBreakShort(tb), ' ', h('small', {}, tb)), h('dd', {}, tieBreakName(tb))])),
        )
      : null,
  ];
}

/** The crosstable, with a legend of the codes it shows. */
function crossPart(ctrl: TourCtrl, v: TournamentView): Child[] {
  if (!v.crosstable.length || !v.round_list.length) return [];
  const used = new Set(v.crosstable.flatMap((l) => l.cells.map((c) => c.code)));
  const legend = h(
    'div',
    { class: 'tour-legend', testid: 'cross-legend' },
    h('p', {}, t('tour.crossLegend')),
    h('dl', {}, CROSS_CODES.filter((c) => used.has(c)).map((c) => [h('dt', {}, h('code', {}, c)), h('dd', {}, codeText(c))])),
  );
  const rows = v.crosstable.map((line) =>
    h(
      'tr',
      { testid: 'cross-row', 'data-no': String(line.no) },
      h('td', {}, String(line.no)),
      h('td', { translate: 'no' }, line.name),
      line.cells.map((c) => h('td', { title: c.opponent ? `${ctrl.nameOf(c.opponent)}: ${codeText(c.code)}` : codeText(c.code) }, cellText(c.opponent, c.colour, c.code))),
      h('td', {}, score(line.score)),
    ),
  );
  const head = headRow(th('tour.no'), th('tour.player'), v.round_list.map((r) => h('th', {}, String(r.number))), th('tour.points'));
  return [h('h2', {}, t('tour.crosstable')), scroll(h('table', { class: 'table crosstable' }, head, h('tbody', {}, rows))), legend];
}

const MARK_CLASS: Record<string, string> = { normal: '', streak_starter: 'streak', double: 'double', no_points: 'nopoints' };

/** An arena: the rules and the time left, the standings with each player's sheet, and the games so far. */
function arenaPart(ctrl: TourCtrl, a: ArenaView, v: TournamentView): Child[] {
  const left = a.ends_at_ms ? Math.max(0, a.ends_at_ms - Date.now()) : null;
  const clock = left === null ? '' : `${Math.floor(left / 60000)}:${String(Math.floor((left % 60000) / 1000)).padStart(2, '0')}`;
  const pairing = (g: ArenaView['games'][number]) => `${ctrl.nameOf(g.white)} – ${ctrl.nameOf(g.black)}`;
  return [
    h('h2', {}, t('tour.arenaStandings')),
    h('p', { class: 'hint' }, t('tour.arenaRules'), v.status === 'running' && clock ? [' ', h('b', { testid: 'arena-clock' }, t('tour.arenaLeft', { time: clock }))] : null),
    a.standings.length ? arenaTable(ctrl, a) : h('p', { class: 'hint' }, t('tour.noPlayers')),
    a.games.length
      ? h(
          'div',
          {},
          h('h3', {}, t('tour.arenaGames', { n: String(a.games.length) })),
          h(
            'ul',
            { class: 'arena-games' },
            a.games.map((g) => h('li', { testid: 'arena-game' }, g.game_id ? link(`/game/${g.game_id}`, pairing(g)) : pairing(g), ' ', resultText(g.result))),
          ),
        )
      : null,
  ];
}

function arenaTable(ctrl: TourCtrl, a: ArenaView): HTMLElement {
  const rows = a.standings.map((r) =>
    h(
      'tr',
      { testid: 'arena-row', 'data-no': String(r.no) },
      h('td', {}, String(r.rank)),
      h(
        'td',
        { translate: 'no' },
        r.name,
        r.on_fire ? h('span', { title: t('tour.arenaFire'), 'aria-label': t('tour.arenaFire') }, ' 🔥') : null,
        r.paused ? h('small', { class: 'hint' }, ' ', t('tour.arenaPaused')) : null,
      ),
      h('td', {}, String(r.rating)),
      h('td', { class: 'sheet' }, r.sheet.map((e) => h('span', { class: `mark ${MARK_CLASS[e.mark]}`, title: ctrl.nameOf(e.opponent) }, String(e.points)))),
      h('td', { testid: 'arena-score' }, String(r.score)),
      h('td', {}, r.performance === null ? '—' : String(r.performance)),
    ),
  );
  const head = headRow(th('tour.rank'), th('tour.player'), th('tour.rating'), th('tour.arenaSheet'), th('tour.points'), th('tour.arenaPerf'));
  return h('table', { class: 'table standings arena' }, head, h('tbody', {}, rows));
}

/** A player's rounds: opponent, colour, result, the game. */
function historyOf(ctrl: TourCtrl, v: TournamentView, no: number): HTMLElement {
  const items = v.round_list.map((r) => {
    const b = r.boards.find((x) => x.white === no || x.black === no);
    if (b) {
      const white = b.white === no;
      const opp = white ? b.black : b.white;
      const game = gameLink(b);
      return h(
        'li',
        {},
        t('tour.roundN', { n: String(r.number) }),
        ': ',
        white ? t('tour.white') : t('tour.black'),
        ' ',
        t('tour.vs', { name: ctrl.nameOf(opp) }),
        ' ',
        resultText(b.result),
        game ? [' ', game] : null,
      );
    }
    const bye = r.byes.find((x) => x.no === no);
    return h('li', {}, t('tour.roundN', { n: String(r.number) }), ': ', bye ? `${byeText(bye.kind)} ${score(bye.points)}` : '—');
  });
  return h('ol', { class: 'player-history' }, items);
}

/** The players, each with their presence, an arbiter's withdrawal and the history they can open. */
function playersPart(ctrl: TourCtrl, v: TournamentView, redraw: () => void): Child[] {
  return [
    h('h2', {}, t('tour.playerList', { n: String(v.players.length) })),
    v.players.length
      ? h(
          'table',
          { class: 'table' },
          headRow(th('tour.no'), th('tour.player'), th('tour.rating'), th('tour.points'), h('th', {}, '')),
          h('tbody', {}, v.players.map((p) => playerRows(ctrl, v, p, redraw))),
        )
      : h('p', { class: 'hint' }, t('tour.noPlayers')),
  ];
}

function playerRows(ctrl: TourCtrl, v: TournamentView, p: TournamentView['players'][number], redraw: () => void): Child[] {
  // In a round-robin a withdrawal forfeits the player's games, so one who plays withdraws only themselves (own_board).
  const roundRobin = v.system === 'round_robin' || v.system === 'double_round_robin';
  const conflict = roundRobin && v.your_no > 0 && p.no !== v.your_no;
  const withdraw =
    v.you_arbitrate && v.status === 'running' && !p.withdrawn && p.no && !conflict
      ? h(
          'button',
          {
            class: 'btn small',
            testid: 'withdraw-player',
            onclick: () => {
              if (confirm(t('tour.withdrawPlayerConfirm', { name: p.name }))) ctrl.withdraw(p.no);
            },
          },
          t('tour.withdraw'),
        )
      : null;
  const history = v.round_list.length
    ? h(
        'button',
        {
          class: 'btn small',
          testid: 'player-history-toggle',
          'aria-pressed': String(ctrl.openHistory.has(p.no)),
          onclick: () => {
            ctrl.toggleHistory(p.no);
            redraw();
          },
        },
        t('tour.history'),
      )
    : null;
  const presence =
    p.present === null || p.withdrawn
      ? null
      : [' ', h('span', { class: `badge presence ${p.present ? 'here' : 'away'}`, testid: 'presence', 'data-present': String(p.present), translate: 'yes' }, p.present ? t('tour.present') : t('tour.absent'))];
  const row = h(
    'tr',
    { testid: 'player-row', 'data-no': String(p.no) },
    h('td', {}, p.no ? String(p.no) : '—'),
    h('td', { translate: 'no' }, p.user ? link(`/@/${encodeURIComponent(p.user)}`, p.name) : p.name, p.withdrawn ? h('small', { class: 'hint' }, ' ', t('tour.withdrawn')) : null, presence),
    h('td', {}, p.rating === null ? '—' : String(p.rating)),
    h('td', {}, score(p.score)),
    h('td', {}, withdraw, history),
  );
  if (!ctrl.openHistory.has(p.no)) return [row, null];
  const td = h('td', {}, historyOf(ctrl, v, p.no));
  td.colSpan = 5;
  return [row, h('tr', { testid: 'player-history', 'data-no': String(p.no) }, td)];
}

/** The organiser's forms: a pasted player list, a player over the board, forbidden pairs, arbiters. */
function organisePart(ctrl: TourCtrl, v: TournamentView): Child[] {
  if (!v.you_organise || v.status === 'finished') return [];
  return [
    h('h2', {}, t('tour.organise')),
    v.status === 'open' && !v.arena ? pasteForm(ctrl, v) : null,
    v.mode === 'otb' && v.status === 'open' ? addPlayerForm(ctrl) : null,
    v.system === 'swiss' && v.players.length >= 2 ? forbidForm(ctrl, v) : null,
    arbiterForm(ctrl),
  ];
}

function pasteForm(ctrl: TourCtrl, v: TournamentView): Child[] {
  const list = h('textarea', { testid: 'paste-list', rows: 5, 'aria-label': t('tour.pasteTitle'), placeholder: v.mode === 'otb' ? '王小明 1200\n李华\n张三, 赵四' : 'xiaoming\nlihua, zhangsan' });
  // The page redraws when the tournament changes (someone joins): what was typed stays.
  list.value = ctrl.pasteDraft;
  list.addEventListener('input', () => (ctrl.pasteDraft = list.value));
  const listErr = h('p', { class: 'error', testid: 'paste-error', 'aria-live': 'polite' });
  const submit = (e: Event) => {
    e.preventDefault();
    listErr.textContent = '';
    ctrl
      .addList(list.value)
      .then((n) => toast(t('tour.pasted', { n: String(n) })))
      .catch((e2) => (listErr.textContent = errorText(e2)));
  };
  return [
    h('h3', {}, t('tour.pasteTitle')),
    h('p', { class: 'hint' }, v.mode === 'otb' ? t('tour.pasteHelpOtb') : t('tour.pasteHelpOnline')),
    h(
      'form',
      { class: 'paste-form', onsubmit: submit },
      list,
      h('div', { class: 'form-buttons' }, h('button', { class: 'btn', type: 'submit', testid: 'paste-add' }, t('tour.pasteButton'))),
      listErr,
    ),
  ];
}

/** A one-line form that calls `send` when submitted. */
function inlineForm(send: () => void, ...children: Child[]): HTMLElement {
  const onsubmit = (e: Event) => {
    e.preventDefault();
    send();
  };
  return h('form', { class: 'inline-form', onsubmit }, children);
}

function addPlayerForm(ctrl: TourCtrl): HTMLElement {
  const name = h('input', { testid: 'add-player-name', placeholder: t('tour.player'), 'aria-label': t('tour.player') });
  const rating = h('input', { testid: 'add-player-rating', type: 'number', min: '0', max: '3500', placeholder: t('tour.rating'), 'aria-label': t('tour.rating') });
  return inlineForm(
    () => ctrl.addPlayer(name.value, rating.value ? Number(rating.value) : undefined),
    name,
    rating,
    h('button', { class: 'btn', type: 'submit', testid: 'add-player' }, t('tour.addPlayer')),
  );
}

function forbidForm(ctrl: TourCtrl, v: TournamentView): Child[] {
  const opts = () => v.players.map((p) => h('option', { value: String(p.no) }, `${p.no}. ${p.name}`));
  const a = h('select', { testid: 'forbid-a', 'aria-label': t('tour.player') }, opts());
  const b = h('select', { testid: 'forbid-b', 'aria-label': t('tour.player') }, opts());
  return [
    h('h3', {}, t('tour.forbidden')),
    h('p', { class: 'hint' }, t('tour.forbiddenHelp')),
    v.forbidden.length ? h('p', { testid: 'forbidden-list' }, v.forbidden.map((f, i) => [i ? ' · ' : '', `${ctrl.nameOf(f.a)} – ${ctrl.nameOf(f.b)}`])) : null,
    inlineForm(() => ctrl.forbid(Number(a.value), Number(b.value)), a, b, h('button', { class: 'btn', type: 'submit', testid: 'forbid' }, t('tour.forbid'))),
  ];
}

function arbiterForm(ctrl: TourCtrl): HTMLElement {
  const arb = h('input', { testid: 'add-arbiter-name', placeholder: t('tour.arbiterName'), 'aria-label': t('tour.arbiterName') });
  return inlineForm(() => ctrl.addArbiter(arb.value), arb, h('button', { class: 'btn', type: 'submit', testid: 'add-arbiter' }, t('tour.addArbiter')));
}

// SPDX-License-Identifier: GPL-3.0-or-later
// One tournament: its terms, the players (join, leave, withdraw), the rounds with their boards and results (the
// organiser and arbiters enter them over the board), the standings with FIDE tie-breaks, the crosstable, and the
// PGN and TRF downloads. It refreshes itself while it is shown (a round's games end on other pages).

import { currentUser, errorText, link, toast } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import { getLang, t } from '../../i18n';
import type { ArenaView, TournamentResult, TournamentRound, TournamentView } from '../../protocol_http';
import { tcLabel } from '../../ui/names';
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

const REFRESH_MS = 3000;

export function tournamentPage(id: string): Page {
  const head = h('div', { class: 'tour-head' }, h('p', {}, t('common.loading')));
  const actions = h('div', { class: 'form-buttons tour-actions' });
  const roundsEl = h('section', { testid: 'tour-rounds' });
  const standingsEl = h('section', { testid: 'standings' });
  const crossEl = h('section', { testid: 'crosstable' });
  const playersEl = h('section', { testid: 'tour-players' });
  const organiseEl = h('section', { testid: 'tour-organise' });
  const el = h('div', { class: 'page tour-page' }, head, actions, standingsEl, roundsEl, crossEl, playersEl, organiseEl);
  let view: TournamentView | null = null;
  let timer = 0;
  let shownRound = 0;
  let dead = false;

  const nameOf = (no: number) => view?.players.find((p) => p.no === no)?.name ?? `#${no}`;

  function act(p: Promise<TournamentView>): void {
    p.then(render).catch((e) => toast(errorText(e)));
  }

  function renderHead(v: TournamentView): void {
    const next = v.next_round_at_ms;
    replace(
      head,
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
        // Over the board the site's rule set does not apply: the arbiter's rules do.
        v.mode === 'online'
          ? [
              ' · ',
              v.rules
                .split('+')
                .map((r) => t(`rules.${r}` as 'rules.online'))
                .join(' + '),
            ]
          : null,
        ' · ',
        v.rated ? t('tour.ratedShort') : t('tour.casualShort'),
      ),
      presenceLine(v),
      h(
        'p',
        { class: 'hint' },
        t('tour.organiser', { name: v.organiser }),
        v.arbiters.length ? [' · ', t('tour.arbiters', { names: v.arbiters.join(getLang() === 'zh' ? '、' : ', ') })] : null,
        v.rounds ? [' · ', t('tour.roundOf', { n: String(v.round_list.length), total: String(v.rounds) })] : null,
      ),
      v.starts_at_ms && v.status === 'open'
        ? h('p', { class: 'hint', testid: 'tour-starts' }, t('tour.startsAtShown', { time: new Date(v.starts_at_ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB') }))
        : null,
      next && v.status === 'running'
        ? h('p', { class: 'hint', testid: 'tour-next' }, t('tour.nextAt', { time: new Date(next).toLocaleTimeString(getLang() === 'zh' ? 'zh-CN' : 'en-GB') }))
        : null,
    );
  }

  /** Online: the first-move grace, the presence check's rule, who is here, and who a waiting round waits for. */
  function presenceLine(v: TournamentView): HTMLElement | null {
    if (v.mode !== 'online' || v.arena || v.status === 'finished') return null;
    const grace = v.first_move_grace_s ? t('tour.graceShown', { n: String(Math.round((v.first_move_grace_s / 60) * 10) / 10) }) : '';
    if (!v.presence_check) return grace ? h('p', { class: 'hint', testid: 'tour-grace' }, grace) : null;
    const active = v.players.filter((p) => !p.withdrawn);
    const here = active.filter((p) => p.present);
    const away = active.filter((p) => p.present === false);
    const last = v.round_list[v.round_list.length - 1];
    const waiting = v.status === 'running' && (!last || last.finished) && v.round_list.length < v.rounds && away.length > 0;
    return h(
      'div',
      { class: 'tour-presence', testid: 'tour-presence' },
      h('p', { class: 'hint' }, v.system === 'swiss' ? t('tour.presenceSwiss') : t('tour.presenceRR'), ' ', h('span', { testid: 'tour-grace' }, grace)),
      h(
        'p',
        {},
        h('b', { testid: 'present-count' }, t('tour.presentCount', { n: String(here.length), total: String(active.length) })),
        waiting ? [' · ', h('span', { testid: 'tour-waiting' }, t('tour.waitingFor', { names: away.map((p) => p.name).join(getLang() === 'zh' ? '、' : ', ') }))] : null,
      ),
    );
  }

  function renderActions(v: TournamentView): void {
    const me = currentUser();
    const buttons: HTMLElement[] = [];
    const arena = v.arena;
    const canJoin =
      v.status === 'open' ||
      (v.status === 'running' && ((v.system === 'swiss' && v.round_list.length < v.rounds) || v.system === 'arena'));
    const myArenaRow = arena?.standings.find((r) => r.no === v.your_no);
    if (arena && v.status === 'running' && v.you_joined) {
      buttons.push(
        myArenaRow?.paused
          ? h('button', { class: 'btn primary', testid: 'tour-join', onclick: () => act(tourApi.join(id)) }, t('tour.arenaResume'))
          : h('button', { class: 'btn', testid: 'tour-leave', onclick: () => act(tourApi.leave(id)) }, t('tour.arenaPause')),
      );
    }
    if (me && !v.you_joined && canJoin && !(v.mode === 'otb' && v.status !== 'open')) {
      buttons.push(h('button', { class: 'btn primary', testid: 'tour-join', onclick: () => act(tourApi.join(id)) }, t('tour.join')));
    }
    if (v.you_joined && v.status !== 'finished' && !(arena && v.status === 'running')) {
      const mine = v.players.find((p) => p.no === v.your_no);
      if (!mine?.withdrawn) {
        buttons.push(
          h(
            'button',
            {
              class: 'btn',
              testid: 'tour-leave',
              onclick: () => {
                if (v.status === 'open' || confirm(t('tour.withdrawConfirm'))) act(tourApi.leave(id));
              },
            },
            v.status === 'open' ? t('tour.leave') : t('tour.withdraw'),
          ),
        );
      }
    }
    const nextRound = v.round_list.length + 1;
    if (v.system === 'swiss' && v.you_joined && v.status !== 'finished' && nextRound <= Math.max(v.rounds, 1)) {
      const asked = v.next_round_byes.includes(v.your_no);
      buttons.push(
        h(
          'button',
          { class: 'btn', testid: 'tour-bye', disabled: asked, onclick: () => act(tourApi.bye(id, { no: v.your_no })) },
          asked ? t('tour.byeAsked', { n: String(nextRound) }) : t('tour.askBye', { n: String(nextRound) }),
        ),
      );
    }
    if (v.you_organise && v.status === 'open') {
      buttons.push(h('button', { class: 'btn primary', testid: 'tour-start', disabled: v.players.length < 2, onclick: () => act(tourApi.start(id)) }, t('tour.start')));
    }
    const last = v.round_list[v.round_list.length - 1];
    if (v.you_arbitrate && v.status === 'running' && (!last || last.finished) && v.round_list.length < v.rounds) {
      buttons.push(h('button', { class: 'btn primary', testid: 'tour-pair', onclick: () => act(tourApi.pair(id)) }, t('tour.pairNext', { n: String(v.round_list.length + 1) })));
    }
    if (v.status !== 'open') {
      buttons.push(h('a', { class: 'btn', href: tourApi.pgnUrl(id), download: `guoxiang_tournament_${id}.pgn`, testid: 'tour-pgn' }, t('tour.downloadPgn')));
      buttons.push(h('a', { class: 'btn', href: tourApi.trfUrl(id), download: `guoxiang_tournament_${id}.trf`, testid: 'tour-trf' }, t('tour.downloadTrf')));
    }
    replace(actions, buttons);
  }

  function resultCell(v: TournamentView, r: TournamentRound, b: TournamentRound['boards'][number]): HTMLElement {
    if (!v.you_arbitrate) return h('td', { class: 'board-result', testid: 'board-result' }, resultText(b.result));
    const sel = h(
      'select',
      { testid: 'board-result-entry', 'aria-label': t('tour.enterResult', { board: String(b.board) }) },
      h('option', { value: '', selected: b.result === null }, '*'),
      RESULTS.map((x) => h('option', { value: x, selected: b.result === x }, resultText(x))),
    );
    sel.addEventListener('change', () => {
      if (!sel.value) return;
      act(tourApi.result(id, { round: r.number, board: b.board, result: sel.value as TournamentResult }));
    });
    return h('td', { class: 'board-result', testid: 'board-result' }, sel);
  }

  function renderRounds(v: TournamentView): void {
    if (!v.round_list.length) {
      replace(roundsEl, h('h2', {}, t('tour.pairings')), h('p', { class: 'hint' }, v.status === 'open' ? t('tour.notStarted') : '—'));
      return;
    }
    if (!shownRound || shownRound > v.round_list.length) shownRound = v.round_list.length;
    const r = v.round_list[shownRound - 1];
    const tabs = h(
      'div',
      { class: 'chips', role: 'tablist' },
      v.round_list.map((x) =>
        h(
          'button',
          {
            class: `chip${x.number === shownRound ? ' active' : ''}`,
            role: 'tab',
            testid: 'round-tab',
            'data-round': String(x.number),
            'aria-pressed': String(x.number === shownRound),
            onclick: () => {
              shownRound = x.number;
              renderRounds(v);
            },
          },
          t('tour.roundN', { n: String(x.number) }),
        ),
      ),
    );
    const rows = r.boards.map((b) =>
      h(
        'tr',
        { testid: 'board-row', 'data-round': String(r.number), 'data-board': String(b.board) },
        h('td', {}, String(b.board)),
        h('td', { translate: 'no' }, `${nameOf(b.white)} (${b.white})`),
        resultCell(v, r, b),
        h('td', { translate: 'no' }, `${nameOf(b.black)} (${b.black})`),
        h('td', {}, b.game_id ? link(`/game/${b.game_id}`, b.result ? t('tour.viewGame') : t('tour.watchGame'), { testid: 'board-game' }) : ''),
      ),
    );
    replace(
      roundsEl,
      h('h2', {}, t('tour.pairings')),
      tabs,
      // Scrolls sideways on a phone rather than widening the page.
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'table pairings' },
          h('thead', {}, h('tr', {}, h('th', {}, t('tour.board')), h('th', {}, t('tour.white')), h('th', {}, t('tour.result')), h('th', {}, t('tour.black')), h('th', {}, ''))),
          h('tbody', {}, rows),
        ),
      ),
      r.byes.length
        ? h(
            'p',
            { class: 'hint', testid: 'round-byes' },
            r.byes.map((b, i) => [i ? ' · ' : '', `${nameOf(b.no)} (${b.no}): ${byeText(b.kind)} ${score(b.points)}`]),
          )
        : null,
      h('p', { class: 'hint' }, r.finished ? t('tour.roundFinished') : t('tour.roundPlaying')),
    );
  }

  function renderStandings(v: TournamentView): void {
    const finishedRounds = v.round_list.filter((r) => r.finished).length;
    // No table of zeros before anyone has played: the standings start after round 1.
    if (!v.standings.length || v.arena || v.status === 'open' || (finishedRounds === 0 && v.status !== 'finished')) {
      if (v.status === 'running' && !v.arena) replace(standingsEl, h('p', { class: 'hint', testid: 'standings-later' }, t('tour.standingsLater')));
      else replace(standingsEl);
      return;
    }
    replace(
      standingsEl,
      h('h2', {}, v.status === 'finished' ? t('tour.finalStandings') : t('tour.standingsAfter', { n: String(finishedRounds) })),
      h(
        'div',
        { class: 'table-scroll' },
        h(
        'table',
        { class: 'table standings' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, t('tour.rank')),
            h('th', {}, t('tour.no')),
            h('th', {}, t('tour.player')),
            h('th', {}, t('tour.rating')),
            h('th', {}, t('tour.points')),
            v.tie_breaks.map((tb) => h('th', { 'data-tb': tb, title: `${tb}: ${tieBreakName(tb)}` }, tieBreakShort(tb))),
          ),
        ),
        h(
          'tbody',
          {},
          v.standings.map((s) =>
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
          ),
        ),
      ),
      ),
      v.tie_breaks.length
        ? h(
            'div',
            { class: 'tour-legend', testid: 'tb-legend' },
            h('p', {}, t('tour.tbLegend')),
            h(
              'dl',
              {},
              v.tie_breaks.map((tb) => [h('dt', {}, tieBreakShort(tb), ' ', h('small', {}, tb)), h('dd', {}, tieBreakName(tb))]),
            ),
          )
        : null,
    );
  }

  function renderCross(v: TournamentView): void {
    if (!v.crosstable.length || !v.round_list.length) {
      replace(crossEl);
      return;
    }
    // The legend lists the codes this table shows.
    const used = new Set(v.crosstable.flatMap((l) => l.cells.map((c) => c.code)));
    const legend = h(
      'div',
      { class: 'tour-legend', testid: 'cross-legend' },
      h('p', {}, t('tour.crossLegend')),
      h('dl', {}, CROSS_CODES.filter((c) => used.has(c)).map((c) => [h('dt', {}, h('code', {}, c)), h('dd', {}, codeText(c))])),
    );
    replace(
      crossEl,
      h('h2', {}, t('tour.crosstable')),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'table crosstable' },
          h('thead', {}, h('tr', {}, h('th', {}, t('tour.no')), h('th', {}, t('tour.player')), v.round_list.map((r) => h('th', {}, String(r.number))), h('th', {}, t('tour.points')))),
          h(
            'tbody',
            {},
            v.crosstable.map((line) =>
              h(
                'tr',
                { testid: 'cross-row', 'data-no': String(line.no) },
                h('td', {}, String(line.no)),
                h('td', { translate: 'no' }, line.name),
                line.cells.map((c) => h('td', { title: c.opponent ? `${nameOf(c.opponent)}: ${codeText(c.code)}` : codeText(c.code) }, cellText(c.opponent, c.colour, c.code))),
                h('td', {}, score(line.score)),
              ),
            ),
          ),
        ),
      ),
      legend,
    );
  }

  const arenaEl = h('section', { testid: 'arena' });
  el.insertBefore(arenaEl, standingsEl);

  function renderArena(a: ArenaView | null, v: TournamentView): void {
    if (!a) {
      replace(arenaEl);
      return;
    }
    const left = a.ends_at_ms ? Math.max(0, a.ends_at_ms - Date.now()) : null;
    const clock = left === null ? '' : `${Math.floor(left / 60000)}:${String(Math.floor((left % 60000) / 1000)).padStart(2, '0')}`;
    const markClass: Record<string, string> = { normal: '', streak_starter: 'streak', double: 'double', no_points: 'nopoints' };
    replace(
      arenaEl,
      h('h2', {}, t('tour.arenaStandings')),
      h(
        'p',
        { class: 'hint' },
        t('tour.arenaRules'),
        v.status === 'running' && clock ? [' ', h('b', { testid: 'arena-clock' }, t('tour.arenaLeft', { time: clock }))] : null,
      ),
      a.standings.length
        ? h(
            'table',
            { class: 'table standings arena' },
            h('thead', {}, h('tr', {}, h('th', {}, t('tour.rank')), h('th', {}, t('tour.player')), h('th', {}, t('tour.rating')), h('th', {}, t('tour.arenaSheet')), h('th', {}, t('tour.points')), h('th', {}, t('tour.arenaPerf')))),
            h(
              'tbody',
              {},
              a.standings.map((r) =>
                h(
                  'tr',
                  { testid: 'arena-row', 'data-no': String(r.no) },
                  h('td', {}, String(r.rank)),
                  h('td', { translate: 'no' }, r.name, r.on_fire ? h('span', { title: t('tour.arenaFire'), 'aria-label': t('tour.arenaFire') }, ' 🔥') : null, r.paused ? h('small', { class: 'hint' }, ' ', t('tour.arenaPaused')) : null),
                  h('td', {}, String(r.rating)),
                  h('td', { class: 'sheet' }, r.sheet.map((e) => h('span', { class: `mark ${markClass[e.mark]}`, title: nameOf(e.opponent) }, String(e.points)))),
                  h('td', { testid: 'arena-score' }, String(r.score)),
                  h('td', {}, r.performance === null ? '—' : String(r.performance)),
                ),
              ),
            ),
          )
        : h('p', { class: 'hint' }, t('tour.noPlayers')),
      a.games.length
        ? h(
            'div',
            {},
            h('h3', {}, t('tour.arenaGames', { n: String(a.games.length) })),
            h(
              'ul',
              { class: 'arena-games' },
              a.games.map((g) =>
                h('li', { testid: 'arena-game' }, g.game_id ? link(`/game/${g.game_id}`, `${nameOf(g.white)} – ${nameOf(g.black)}`) : `${nameOf(g.white)} – ${nameOf(g.black)}`, ' ', resultText(g.result)),
              ),
            ),
          )
        : null,
    );
  }

  const openHistory = new Set<number>();
  let pasteDraft = '';

  /** A player's rounds: opponent, colour, result, the game. */
  function historyOf(v: TournamentView, no: number): HTMLElement {
    const items = v.round_list.map((r) => {
      const b = r.boards.find((x) => x.white === no || x.black === no);
      if (b) {
        const white = b.white === no;
        const opp = white ? b.black : b.white;
        return h(
          'li',
          {},
          t('tour.roundN', { n: String(r.number) }),
          ': ',
          white ? t('tour.white') : t('tour.black'),
          ' ',
          t('tour.vs', { name: nameOf(opp) }),
          ' ',
          resultText(b.result),
          b.game_id ? [' ', link(`/game/${b.game_id}`, b.result ? t('tour.viewGame') : t('tour.watchGame'))] : null,
        );
      }
      const bye = r.byes.find((x) => x.no === no);
      return h('li', {}, t('tour.roundN', { n: String(r.number) }), ': ', bye ? `${byeText(bye.kind)} ${score(bye.points)}` : '—');
    });
    return h('ol', { class: 'player-history' }, items);
  }

  function renderPlayers(v: TournamentView): void {
    replace(
      playersEl,
      h('h2', {}, t('tour.playerList', { n: String(v.players.length) })),
      v.players.length
        ? h(
            'table',
            { class: 'table' },
            h('thead', {}, h('tr', {}, h('th', {}, t('tour.no')), h('th', {}, t('tour.player')), h('th', {}, t('tour.rating')), h('th', {}, t('tour.points')), h('th', {}, ''))),
            h(
              'tbody',
              {},
              v.players.map((p) =>
                [h(
                  'tr',
                  { testid: 'player-row', 'data-no': String(p.no) },
                  h('td', {}, p.no ? String(p.no) : '—'),
                  h(
                    'td',
                    { translate: 'no' },
                    p.user ? link(`/@/${encodeURIComponent(p.user)}`, p.name) : p.name,
                    p.withdrawn ? h('small', { class: 'hint' }, ' ', t('tour.withdrawn')) : null,
                    p.present === null || p.withdrawn
                      ? null
                      : [' ', h('span', { class: `badge presence ${p.present ? 'here' : 'away'}`, testid: 'presence', 'data-present': String(p.present), translate: 'yes' }, p.present ? t('tour.present') : t('tour.absent'))],
                  ),
                  h('td', {}, p.rating === null ? '—' : String(p.rating)),
                  h('td', {}, score(p.score)),
                  h(
                    'td',
                    {},
                    v.you_arbitrate && v.status === 'running' && !p.withdrawn && p.no
                      ? h(
                          'button',
                          {
                            class: 'btn small',
                            testid: 'withdraw-player',
                            onclick: () => {
                              if (confirm(t('tour.withdrawPlayerConfirm', { name: p.name }))) act(tourApi.withdraw(id, { no: p.no }));
                            },
                          },
                          t('tour.withdraw'),
                        )
                      : null,
                    v.round_list.length
                      ? h(
                          'button',
                          {
                            class: 'btn small',
                            testid: 'player-history-toggle',
                            'aria-pressed': String(openHistory.has(p.no)),
                            onclick: () => {
                              if (openHistory.has(p.no)) openHistory.delete(p.no);
                              else openHistory.add(p.no);
                              renderPlayers(v);
                            },
                          },
                          t('tour.history'),
                        )
                      : null,
                  ),
                ),
                openHistory.has(p.no) ? h('tr', { testid: 'player-history', 'data-no': String(p.no) }, (() => {
                  const td = h('td', {}, historyOf(v, p.no));
                  td.colSpan = 5;
                  return td;
                })()) : null],
              ),
            ),
          )
        : h('p', { class: 'hint' }, t('tour.noPlayers')),
    );
  }

  function renderOrganise(v: TournamentView): void {
    if (!v.you_organise || v.status === 'finished') {
      replace(organiseEl);
      return;
    }
    const parts: (HTMLElement | null)[] = [h('h2', {}, t('tour.organise'))];
    if (v.status === 'open' && !v.arena) {
      const list = h('textarea', { testid: 'paste-list', rows: 5, 'aria-label': t('tour.pasteTitle'), placeholder: v.mode === 'otb' ? '王小明 1200\n李华\n张三, 赵四' : 'xiaoming\nlihua, zhangsan' });
      // The page redraws when the tournament changes (someone joins): what was typed stays.
      list.value = pasteDraft;
      list.addEventListener('input', () => (pasteDraft = list.value));
      const listErr = h('p', { class: 'error', testid: 'paste-error', 'aria-live': 'polite' });
      parts.push(
        h('h3', {}, t('tour.pasteTitle')),
        h('p', { class: 'hint' }, v.mode === 'otb' ? t('tour.pasteHelpOtb') : t('tour.pasteHelpOnline')),
        h(
          'form',
          {
            class: 'paste-form',
            onsubmit: (e: Event) => {
              e.preventDefault();
              listErr.textContent = '';
              const before = v.players.length;
              tourApi
                .addList(id, { text: list.value })
                .then((nv) => {
                  pasteDraft = '';
                  toast(t('tour.pasted', { n: String(nv.players.length - before) }));
                  render(nv);
                })
                .catch((e2) => (listErr.textContent = errorText(e2)));
            },
          },
          list,
          h('div', { class: 'form-buttons' }, h('button', { class: 'btn', type: 'submit', testid: 'paste-add' }, t('tour.pasteButton'))),
          listErr,
        ),
      );
    }
    if (v.mode === 'otb' && v.status === 'open') {
      const name = h('input', { testid: 'add-player-name', placeholder: t('tour.player'), 'aria-label': t('tour.player') });
      const rating = h('input', { testid: 'add-player-rating', type: 'number', min: '0', max: '3500', placeholder: t('tour.rating'), 'aria-label': t('tour.rating') });
      parts.push(
        h(
          'form',
          {
            class: 'inline-form',
            onsubmit: (e: Event) => {
              e.preventDefault();
              act(tourApi.addPlayer(id, { name: name.value, rating: rating.value ? Number(rating.value) : undefined }));
            },
          },
          name,
          rating,
          h('button', { class: 'btn', type: 'submit', testid: 'add-player' }, t('tour.addPlayer')),
        ),
      );
    }
    if (v.system === 'swiss' && v.players.length >= 2) {
      const opts = () => v.players.map((p) => h('option', { value: String(p.no) }, `${p.no}. ${p.name}`));
      const a = h('select', { testid: 'forbid-a', 'aria-label': t('tour.player') }, opts());
      const b = h('select', { testid: 'forbid-b', 'aria-label': t('tour.player') }, opts());
      parts.push(
        h('h3', {}, t('tour.forbidden')),
        h('p', { class: 'hint' }, t('tour.forbiddenHelp')),
        v.forbidden.length
          ? h('p', { testid: 'forbidden-list' }, v.forbidden.map((f, i) => [i ? ' · ' : '', `${nameOf(f.a)} – ${nameOf(f.b)}`]))
          : null,
        h(
          'form',
          {
            class: 'inline-form',
            onsubmit: (e: Event) => {
              e.preventDefault();
              act(tourApi.forbid(id, { a: Number(a.value), b: Number(b.value) }));
            },
          },
          a,
          b,
          h('button', { class: 'btn', type: 'submit', testid: 'forbid' }, t('tour.forbid')),
        ),
      );
    }
    const arb = h('input', { testid: 'add-arbiter-name', placeholder: t('tour.arbiterName'), 'aria-label': t('tour.arbiterName') });
    parts.push(
      h(
        'form',
        {
          class: 'inline-form',
          onsubmit: (e: Event) => {
            e.preventDefault();
            act(tourApi.addArbiter(id, { name: arb.value }));
          },
        },
        arb,
        h('button', { class: 'btn', type: 'submit', testid: 'add-arbiter' }, t('tour.addArbiter')),
      ),
    );
    replace(organiseEl, parts);
  }

  let lastJson = '';
  function render(v: TournamentView): void {
    if (dead) return;
    // The same answer again (the refresh): nothing to redraw, and a result being chosen stays open.
    const json = JSON.stringify(v);
    if (json === lastJson) return;
    lastJson = json;
    view = v;
    renderHead(v);
    renderActions(v);
    renderArena(v.arena, v);
    renderStandings(v);
    if (v.arena) replace(roundsEl);
    else renderRounds(v);
    renderCross(v);
    renderPlayers(v);
    renderOrganise(v);
  }

  function refresh(): void {
    if (dead) return;
    if (document.visibilityState === 'visible') {
      tourApi
        .get(id)
        .then(render)
        .catch((e) => {
          if (!view) replace(head, h('p', { class: 'error', testid: 'tour-error' }, errorText(e)));
        });
    }
    timer = window.setTimeout(refresh, REFRESH_MS);
  }
  refresh();

  return {
    el,
    destroy() {
      dead = true;
      window.clearTimeout(timer);
    },
  };
}

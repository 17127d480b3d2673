// SPDX-License-Identifier: GPL-3.0-or-later
// A player's page: Glicko-2 ratings per speed, 级别 and 积分, the rating history, the games with PGN download.

import { api, HttpError, pgnUrl, SPEEDS } from '../api';
import type { ExportGame, ExportPlayer, Profile, RatingPoint } from '../protocol_http';
import { classRoles, currentUser, errorText, link, navigate, sessionChanged, toastError } from '../app';
import type { Page } from '../app';
import { h, replace } from '../dom';
import { getLang, pick, t } from '../i18n';
import { lineChart } from '../ui/chart';
import { displayName } from '../ui/names';

const COLORS: Record<string, string> = {
  bullet: '#c0392b',
  blitz: '#2471a3',
  rapid: '#229954',
  classical: '#b9770e',
  correspondence: '#7d3c98',
};

const PAGE = 20;

export function profilePage(name: string): Page {
  const head = h('div', { class: 'profile-head' }, h('p', {}, t('common.loading')));
  const ratingsEl = h('div', { class: 'ratings', testid: 'ratings' });
  const chartEl = h('div', { class: 'chart-box', testid: 'rating-chart' });
  const gamesEl = h('div', { class: 'games', testid: 'games' });
  // The sections appear once the player is known: an unknown name shows its message and nothing else.
  const sections = [
    h('section', {}, h('h2', {}, t('profile.ratings')), ratingsEl),
    h('section', {}, h('h2', {}, t('profile.history')), chartEl),
    h('section', {}, h('h2', {}, t('profile.games')), gamesEl),
  ];
  const el = h('div', { class: 'page profile-page' }, head);

  function renderHead(p: Profile): void {
    const me = currentUser();
    const mine = !!me && me.id === p.id;
    replace(
      head,
      h(
        'h1',
        {},
        h('span', { testid: 'profile-name', translate: 'no' }, displayName(p.username)),
        p.online ? h('span', { class: 'online', title: t('profile.online'), 'aria-label': t('profile.online') }, ' ●') : null,
      ),
      h(
        'p',
        { class: 'level-line' },
        h('span', { class: 'badge', testid: 'level-name' }, pick(p.level_zh, p.level_en)),
        ' ',
        h('span', { testid: 'points' }, t('profile.points', { n: String(p.points) })),
        ' · ',
        t('profile.gameCount', { n: String(p.count.all) }),
        p.guest ? h('span', { class: 'hint' }, ' · ', t('profile.guest')) : null,
      ),
      p.playing.length
        ? h('p', {}, t('profile.playingNow'), ' ', p.playing.map((g) => link(`/game/${g}`, g, { class: 'chip', translate: 'no' })))
        : null,
      h(
        'div',
        { class: 'form-buttons' },
        p.count.all > 0
          ? h('a', { class: 'btn', testid: 'download-all', href: `/api/games/user/${encodeURIComponent(p.username)}`, download: `guoxiang_${p.username}.pgn` }, t('profile.downloadAll'))
          : null,
        mine && !p.guest && classRoles().student ? link('/homework', t('nav.homework'), { class: 'btn', testid: 'profile-homework' }) : null,
        mine && !p.guest ? link('/class', t('nav.classes'), { class: 'btn', testid: 'profile-classes' }) : null,
        mine && !p.guest ? link('/study', t('nav.studies'), { class: 'btn', testid: 'profile-studies' }) : null,
        mine && !p.guest ? link('/account', t('nav.account'), { class: 'btn', testid: 'profile-account' }) : null,
        mine && !p.guest
          ? h(
              'button',
              {
                class: 'btn',
                testid: 'logout',
                onclick: () => {
                  api
                    .logout()
                    .then(() => sessionChanged())
                    .then(() => navigate('/'))
                    .catch(toastError);
                },
              },
              t('profile.logout'),
            )
          : null,
      ),
    );
    replace(
      ratingsEl,
      h(
        'table',
        { class: 'table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('profile.speed')), h('th', {}, t('home.rating')), h('th', {}, h('abbr', { title: t('profile.rdTitle'), testid: 'rd-head' }, 'RD'), h('sup', {}, '*')), h('th', {}, t('profile.games')))),
        h(
          'tbody',
          {},
          SPEEDS.map((s) => {
            const r = p.perfs[s];
            return h(
              'tr',
              { 'data-speed': s },
              h('td', {}, h('span', { class: 'swatch', style: `background:${COLORS[s]}` }), ' ', t(`speed.${s}`)),
              h('td', {}, r ? `${r.rating}${r.prov ? '?' : ''}` : '1500?'),
              h('td', {}, r ? String(r.rd) : '350'),
              h('td', {}, r ? String(r.games) : '0'),
            );
          }),
        ),
      ),
      h('p', { class: 'hint' }, t('profile.provisional')),
      h('p', { class: 'hint', testid: 'rd-note' }, '* ', t('profile.rdNote')),
    );
  }

  function renderChart(points: RatingPoint[]): void {
    if (!points.length) {
      replace(chartEl, h('p', { class: 'hint' }, t('profile.noHistory')));
      return;
    }
    const series = SPEEDS.map((s) => ({
      label: t(`speed.${s}`),
      color: COLORS[s],
      points: points.filter((p) => p.speed === s).map((p) => ({ x: p.at, y: p.rating })),
    })).filter((s) => s.points.length);
    const fmt = (x: number) => new Date(x).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en-GB');
    replace(
      chartEl,
      lineChart(series, fmt, t('profile.history')),
      h(
        'div',
        { class: 'legend' },
        series.map((s) => h('span', {}, h('span', { class: 'swatch', style: `background:${s.color}` }), ' ', s.label)),
      ),
    );
  }

  function side(p: ExportPlayer): string {
    if (p.aiLevel !== undefined) return t('engine.name', { level: String(p.aiLevel) });
    return p.user ? displayName(p.user.name) : '?';
  }

  /** The rating change of this profile's player in a rated game. */
  function diffOf(g: ExportGame): HTMLElement | null {
    const lower = name.toLowerCase();
    const me = [g.players.white, g.players.black].find((p) => p.user?.name.toLowerCase() === lower);
    const d = me?.ratingDiff;
    if (d === undefined) return null;
    return h('small', { class: d >= 0 ? 'up' : 'down', testid: 'rating-diff' }, d >= 0 ? `+${d}` : `−${-d}`);
  }

  function resultOf(g: ExportGame): string {
    if (g.status === 'aborted') return t('result.aborted');
    if (g.winner === 'white') return '1-0';
    if (g.winner === 'black') return '0-1';
    if (g.status === 'started') return '*';
    return '½-½';
  }

  function loadGames(offset: number): void {
    api
      .games(name, offset, PAGE)
      .then((page) => {
        if (!page.games.length) {
          replace(gamesEl, h('p', { class: 'hint' }, t('profile.noGames')));
          return;
        }
        const fmt = (x: number) => new Date(x).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB');
        replace(
          gamesEl,
          h(
            'table',
            { class: 'table games-table' },
            h(
              'thead',
              {},
              h('tr', {}, h('th', {}, t('profile.players')), h('th', {}, t('profile.result')), h('th', {}, t('profile.opening')), h('th', {}, t('profile.date')), h('th', {}, '')),
            ),
            h(
              'tbody',
              {},
              page.games.map((g) =>
                h(
                  'tr',
                  { testid: 'game-row', 'data-game': g.id },
                  h('td', { translate: 'no' }, link(`/game/${g.id}`, `${side(g.players.white)} – ${side(g.players.black)}`)),
                  h('td', {}, resultOf(g), ' ', g.rated ? diffOf(g) : h('small', { class: 'hint' }, t('home.casualShort'))),
                  h('td', {}, g.opening ? `${g.opening.eco} ${pick(g.opening.name_zh, g.opening.name)}` : '—'),
                  h('td', {}, fmt(g.createdAt)),
                  h(
                    'td',
                    { class: 'row-actions' },
                    h('a', { href: pgnUrl(g.id), download: `guoxiang_${g.id}.pgn`, testid: 'download-pgn' }, 'PGN'),
                    ' ',
                    link(`/analysis/${g.id}`, t('game.analyse')),
                  ),
                ),
              ),
            ),
          ),
          h(
            'div',
            { class: 'form-buttons' },
            h('button', { class: 'btn small', disabled: offset === 0, onclick: () => loadGames(Math.max(0, offset - PAGE)) }, t('profile.newer')),
            h('span', { class: 'hint' }, t('profile.range', { from: String(offset + 1), to: String(offset + page.games.length), total: String(page.total) })),
            h('button', { class: 'btn small', disabled: offset + PAGE >= page.total, onclick: () => loadGames(offset + PAGE) }, t('profile.older')),
          ),
        );
      })
      .catch((e: unknown) => replace(gamesEl, h('p', { class: 'warn' }, errorText(e))));
  }

  api
    .profile(name)
    .then((p) => {
      renderHead(p);
      el.append(...sections);
      api
        .ratingHistory(name)
        .then(renderChart)
        .catch(() => renderChart([]));
      loadGames(0);
    })
    .catch((e: unknown) => {
      const unknown = e instanceof HttpError && e.status === 404;
      replace(
        head,
        h('h1', { translate: 'no' }, displayName(name)),
        h('p', { class: 'warn', testid: 'profile-error' }, unknown ? t('profile.unknown', { name }) : errorText(e)),
      );
    });
  return { el };
}

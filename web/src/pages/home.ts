// SPDX-License-Identifier: GPL-3.0-or-later
// The home page: play the computer, play a friend (a link to send), quick pairing, the lobby's seeks, games being
// played now, and one's own games in progress.

import { api } from '../api';
import type { Level } from '../protocol_http';
import { currentUser, ensureUser, socket, toast, toastError } from '../app';
import type { Page } from '../app';
import { h, replace } from '../dom';
import { pick, t } from '../i18n';
import type { ColorChoice, LiveGame, PoolSize, Seek, ServerMessage } from '../protocol';
import { playerName, tcFromBox, tcLabel } from '../ui/names';
import { challengeBox, firstStepsCard, renderLiveGames, renderMyGames, rulesField, tcField, variantField } from './home-parts';
import type { VariantPick } from './home-parts';

type Mode = 'computer' | 'friend' | 'seek';

let levelsCache: Level[] | null = null;
/** `tc` is the box's text (minutes+seconds, as the presets show them), not the PGN tag. */
let lastSetup: { level: string; color: ColorChoice; tc: string; variant: VariantPick; number: string; rules: string } = {
  level: '1',
  color: 'white',
  tc: '10+5',
  variant: 'standard',
  number: '518',
  rules: 'online',
};

/** `computerLevel`: a homework's link (`/?computer=N`) opens the computer's setup at that level. */
export function homePage(computerLevel: string | null = null): Page {
  const me = currentUser();
  const registered = !!me && !me.guest;
  let seeks: Seek[] = [];
  let pools: PoolSize[] = [];
  let games: LiveGame[] = [];
  let inPool: string | null = null;
  let mySeek: string | null = null;
  let mode: Mode | null = null;
  let challengeUrl: string | null = null;
  let challengeId: string | null = null;
  const miniBoards: { destroy(): void }[] = [];

  const setupEl = h('div', { class: 'setup' });
  const poolsEl = h('div', { class: 'pools' });
  const seeksEl = h('div', { class: 'seeks', testid: 'seeks' });
  const liveEl = h('div', { class: 'live-games', testid: 'live-games' });
  const playingEl = h('div', { class: 'my-games' });

  const firstSteps = firstStepsCard(me);
  const el = h(
    'div',
    { class: 'page home-page' },
    firstSteps.el,
    h(
      'section',
      { class: 'play-box' },
      h('h1', { class: 'title' }, t('home.title')),
      h('p', { class: 'subtitle' }, t('home.subtitle'), registered ? null : [pick('', ' '), h('span', { testid: 'guest-line' }, t('home.guestLine'))]),
      h(
        'div',
        { class: 'play-buttons' },
        h('button', { class: 'btn big primary', testid: 'play-computer', onclick: () => open('computer') }, t('home.playComputer')),
        h('button', { class: 'btn big', testid: 'play-friend', onclick: () => open('friend') }, t('home.playFriend')),
        h('button', { class: 'btn big', testid: 'create-seek', onclick: () => open('seek') }, t('home.createSeek')),
      ),
      setupEl,
      playingEl,
    ),
    h(
      'div',
      { class: 'home-right' },
      h('section', { class: 'pool-box' }, h('h2', {}, t('home.quickPairing')), poolsEl),
      h('section', { class: 'lobby-box' }, h('h2', {}, t('home.lobby')), seeksEl),
    ),
    h('section', { class: 'live-box' }, h('h2', {}, t('home.liveGames')), liveEl),
  );

  function open(m: Mode): void {
    mode = mode === m && !challengeUrl ? null : m;
    challengeUrl = null;
    challengeId = null;
    renderSetup();
  }

  function renderSetup(): void {
    if (!mode) {
      replace(setupEl);
      setupEl.hidden = true;
      return;
    }
    setupEl.hidden = false;
    const m = mode;
    const levelSel = h('select', { testid: 'level', id: 'setup-level' });
    const fillLevels = (ls: Level[]) => {
      replace(
        levelSel,
        ls.map((l) =>
          h(
            'option',
            { value: String(l.level), selected: String(l.level) === lastSetup.level },
            t('home.levelOption', { level: String(l.level), name: pick(l.name_zh, l.name_en), elo: String(l.elo) }),
          ),
        ),
      );
    };
    if (levelsCache) fillLevels(levelsCache);
    else
      api
        .levels()
        .then((ls) => {
          levelsCache = ls;
          fillLevels(ls);
        })
        .catch(toastError);
    const colorSel = h(
      'select',
      { testid: 'color', id: 'setup-color' },
      (['white', 'random', 'black'] as const).map((c) =>
        h('option', { value: c, selected: c === lastSetup.color }, t(`color.choice.${c}`)),
      ),
    );
    const tc = tcField(lastSetup.tc);
    const startAs = variantField(lastSetup.variant, lastSetup.number);
    // The rule set: for a friend or the computer; seeks and pools play online rules.
    const ruleSet = rulesField(lastSetup.rules);
    const ratedBox = h('input', { type: 'checkbox', testid: 'rated', disabled: !registered });
    const start = h(
      'button',
      { class: 'btn primary', testid: 'start-game', type: 'submit' },
      m === 'computer' ? t('home.start') : m === 'friend' ? t('home.createLink') : t('home.postSeek'),
    );
    const form = h(
      'form',
      {
        class: 'setup-form',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          const tcText = tc.input.value.trim();
          const tcTag = tcFromBox(tcText);
          if (tcTag === null) {
            toast(t('home.tcBad', { tc: tcText }));
            return;
          }
          const color = colorSel.value as ColorChoice;
          const variant = startAs.read();
          if (!variant) {
            toast(t('home.chess960Number'));
            return;
          }
          lastSetup = {
            level: levelSel.value || lastSetup.level,
            color,
            tc: tcText || '-',
            rules: ruleSet.picked(),
            ...startAs.picked(),
          };
          start.disabled = true;
          const done = () => (start.disabled = false);
          if (m === 'computer') {
            socket
              .send({ t: 'play_computer', level: Number(levelSel.value || '1'), color, time_control: tcTag, variant, rules: ruleSet.read() })
              .catch(toastError)
              .finally(done);
          } else if (m === 'friend') {
            socket
              .send({ t: 'challenge_friend', time_control: tcTag, rated: ratedBox.checked, color, variant, rules: ruleSet.read() })
              .then((r) => {
                if (r.t === 'challenge_created') {
                  challengeUrl = r.url;
                  challengeId = r.challenge_id;
                  renderSetup();
                }
              })
              .catch(toastError)
              .finally(done);
          } else {
            socket
              .send({ t: 'create_seek', time_control: tcTag, rated: ratedBox.checked, color, variant })
              .then((r) => {
                if (r.t === 'seek_created') {
                  mySeek = r.seek_id;
                  toast(t('home.seekPosted'));
                  mode = null;
                  renderSetup();
                  renderSeeks();
                }
              })
              .catch(toastError)
              .finally(done);
          }
        },
      },
      h(
        'h3',
        {},
        m === 'computer' ? t('home.playComputer') : m === 'friend' ? t('home.playFriend') : t('home.createSeek'),
      ),
      m === 'computer' ? h('label', { class: 'field', for: 'setup-level' }, h('span', {}, t('home.level')), levelSel) : null,
      h('label', { class: 'field', for: 'setup-color' }, h('span', {}, t('home.color')), colorSel),
      ...startAs.el,
      tc.el,
      m !== 'seek' ? ruleSet.el : null,
      m !== 'computer'
        ? h('label', { class: 'check' }, ratedBox, ' ', registered ? t('home.rated') : t('home.ratedNeedsAccount'))
        : null,
      h('div', { class: 'form-buttons' }, start, h('button', { type: 'button', class: 'btn', onclick: () => open(m) }, t('common.cancel'))),
    );
    if (m === 'friend' && challengeUrl) {
      replace(
        setupEl,
        challengeBox(challengeUrl, () => {
          if (challengeId) socket.send({ t: 'cancel_challenge', challenge_id: challengeId }).catch(toastError);
          challengeUrl = null;
          challengeId = null;
          mode = null;
          renderSetup();
        }),
      );
      return;
    }
    replace(setupEl, form);
  }

  function renderPools(): void {
    const shown = pools.filter((p) => !p.rated || registered);
    if (!shown.length) {
      replace(poolsEl, h('p', { class: 'hint' }, t('common.loading')));
      return;
    }
    replace(
      poolsEl,
      shown.map((p) => {
        const waiting = inPool === `${p.time_control}|${p.rated}`;
        return h(
          'button',
          {
            class: 'pool' + (waiting ? ' waiting' : ''),
            testid: `pool-${p.time_control}${p.rated ? '-rated' : ''}`,
            onclick: () => {
              if (waiting) {
                socket.send({ t: 'leave_pool' }).catch(toastError);
                inPool = null;
              } else {
                inPool = `${p.time_control}|${p.rated}`;
                socket.send({ t: 'join_pool', time_control: p.time_control, rated: p.rated }).catch((e: unknown) => {
                  inPool = null;
                  toastError(e);
                  renderPools();
                });
              }
              renderPools();
            },
          },
          h('span', { class: 'pool-tc' + (tcLabel(p.time_control).length > 7 ? ' long' : '') }, tcLabel(p.time_control)),
          h('span', { class: 'pool-kind' }, p.rated ? t('home.ratedShort') : t('home.casualShort')),
          h('span', { class: 'pool-wait' }, waiting ? t('home.searching') : t('home.waitingN', { n: String(p.waiting) })),
        );
      }),
    );
  }

  function renderSeeks(): void {
    if (!seeks.length) {
      replace(seeksEl, h('p', { class: 'hint' }, t('home.noSeeks')));
      return;
    }
    replace(
      seeksEl,
      h(
        'table',
        { class: 'table' },
        h(
          'thead',
          {},
          h('tr', {}, h('th', {}, t('home.player')), h('th', {}, t('home.rating')), h('th', {}, t('home.timeControl')), h('th', {}, t('home.mode')), h('th', {}, '')),
        ),
        h(
          'tbody',
          {},
          seeks.map((s) => {
            const mine = !!me && s.player.id === me.id;
            return h(
              'tr',
              {},
              h('td', { translate: s.player.is_engine ? 'yes' : 'no' }, playerName(s.player)),
              h('td', {}, s.rating === null ? '—' : String(s.rating)),
              h('td', {}, tcLabel(s.time_control), s.variant.kind === 'chess960' ? ` · ${t('variant.chess960Short')}` : ''),
              h('td', {}, s.rated ? t('home.ratedShort') : t('home.casualShort')),
              h(
                'td',
                {},
                mine
                  ? h(
                      'button',
                      {
                        class: 'btn small',
                        testid: 'cancel-seek',
                        onclick: () => {
                          socket.send({ t: 'cancel_seek', seek_id: s.id }).catch(toastError);
                          mySeek = null;
                        },
                      },
                      t('common.cancel'),
                    )
                  : h(
                      'button',
                      {
                        class: 'btn small primary',
                        testid: 'accept-seek',
                        onclick: () => socket.send({ t: 'accept_seek', seek_id: s.id }).catch(toastError),
                      },
                      t('home.join'),
                    ),
              ),
            );
          }),
        ),
      ),
    );
  }


  let playing: string[] = [];
  const renderLive = () => renderLiveGames(liveEl, games, miniBoards);
  const renderPlaying = () => renderMyGames(playingEl, playing);
  function refreshPlaying(): void {
    // The server also lists games that just ended (kept a while for rematches): keep those still being played.
    const ids = currentUser()?.playing ?? [];
    Promise.all(ids.map((id) => api.game(id).then((g) => (g.status === 'started' || g.status === 'created' ? id : null), () => null)))
      .then((live) => {
        playing = live.filter((x): x is string => x !== null);
        renderPlaying();
      })
      .catch(() => undefined);
  }


  const off = socket.on((m: ServerMessage) => {
    switch (m.t) {
      case 'lobby':
        seeks = m.seeks;
        pools = m.pools;
        games = m.games;
        renderSeeks();
        renderPools();
        renderLive();
        break;
      case 'seek_added':
        seeks = [...seeks.filter((s) => s.id !== m.seek.id), m.seek];
        renderSeeks();
        break;
      case 'seek_removed':
        seeks = seeks.filter((s) => s.id !== m.seek_id);
        if (mySeek === m.seek_id) mySeek = null;
        renderSeeks();
        break;
      case 'pools':
        pools = m.pools;
        renderPools();
        break;
      case 'live_games':
        games = m.games;
        renderLive();
        break;
      case 'challenge':
        if (m.challenge.id === challengeId && m.challenge.status !== 'pending' && m.challenge.status !== 'accepted') {
          toast(t('home.challengeClosed'));
          challengeUrl = null;
          challengeId = null;
          mode = null;
          renderSetup();
        }
        break;
      default:
        break;
    }
  });
  const offReady = socket.onReady(() => {
    socket.send({ t: 'lobby_subscribe' }).catch(toastError);
  });
  renderSetup();
  renderPools();
  renderSeeks();
  renderLive();
  renderPlaying();
  // The user's games in progress may have changed since the page loaded.
  let alive = true;
  void ensureUser().then(() => alive && refreshPlaying());
  // The server sends the games being played with the lobby; refresh them now and then.
  const liveTimer = window.setInterval(() => {
    api
      .live()
      .then((g) => {
        if (!alive) return;
        const before = games.map((x) => x.game_id + (x.last_move ?? '')).join();
        games = g;
        if (g.map((x) => x.game_id + (x.last_move ?? '')).join() !== before) renderLive();
      })
      .catch(() => undefined);
  }, 10_000);

  if (computerLevel && /^[0-9]{1,2}$/.test(computerLevel)) {
    lastSetup.level = computerLevel;
    open('computer');
  }

  return {
    el,
    destroy() {
      alive = false;
      firstSteps.destroy();
      window.clearInterval(liveTimer);
      off();
      offReady();
      for (const b of miniBoards) b.destroy();
      if (inPool) socket.send({ t: 'leave_pool' }).catch(() => undefined);
      socket.send({ t: 'lobby_unsubscribe' }).catch(() => undefined);
    },
  };
}

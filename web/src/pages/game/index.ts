// SPDX-License-Identifier: GPL-3.0-or-later
// The game page: board (click or drag; illegal tries are explained), clocks, the move list with navigation, the
// opening, offers and claims, the result, rematch. Its state is the server's (snapshot + versioned events) run
// through the reducer in ctrl.ts; the board shows our move at once and is put back if the server refuses it.
// This file wires the parts: the socket, the keyboard, the clock loop, the opening look-up, the archive fallback.

import { api, request } from '../../api';
import { HttpError } from '../../api';
import { currentUser, errorText, notFoundEl, onUserChange, socket, toastError } from '../../app';
import type { Page } from '../../app';
import { h, replace } from '../../dom';
import type { TournamentLink } from '../../protocol_http';
import { t } from '../../i18n';
import type { Ctx } from './ctx';
import { makePlay } from './play';
import { initialState, ply, reduce, shownPly } from './ctrl';
import type { Action, GameState } from './ctrl';
import { makeView } from './view';

/** Actions after which the board is drawn from the state (the others leave a piece where the player put it). */
function redrawsBoard(a: Action): boolean {
  switch (a.kind) {
    case 'server':
    case 'archived':
    case 'user':
    case 'goto':
    case 'flip':
      return true;
    case 'pending_claim':
      return a.claim === null;
    case 'seal_confirm':
      return a.move === null;
    case 'sealed_sent':
      return true;
    default:
      return false;
  }
}

export function gamePage(gameId: string): Page {
  let st: GameState = initialState(gameId, currentUser()?.id ?? null);

  const ctx: Ctx = {
    gameId,
    get: () => st,
    dispatch,
    cmd: (action) => {
      socket.send({ t: 'game', game_id: gameId, action }).catch(toastError);
    },
    arbiter: (act) => {
      socket.send({ t: 'arbiter', game_id: gameId, act }).catch(toastError);
    },
    sendMove(uci) {
      const offer = st.offerWithMove;
      dispatch({ kind: 'move_sent' });
      socket
        .send({
          t: 'game',
          game_id: gameId,
          action: { t: 'move', uci, offer_draw: offer },
          lag_ms: Math.round(socket.rtt / 2),
        })
        .catch((e: unknown) => {
          toastError(e);
          view.drawBoard(st);
        });
    },
  };
  const view = makeView(ctx, {
    onBoardMove: (o, d) => play.onBoardMove(o, d),
    onSelect: (key) => play.onSelect(key),
    onTyped: (text) => dispatch({ kind: 'typed', text }),
    onSubmit: () => play.typedMove(st.typed),
  });
  const play = makePlay(ctx, view.promoEl, () => view.drawBoard(st));

  function dispatch(a: Action): void {
    const prev = st;
    st = reduce(st, a);
    // Another game's messages, or nothing new: leave the page (and a piece being dragged) alone.
    if (st === prev && a.kind !== 'refresh') return;
    if (st.resync) {
      socket.send({ t: 'subscribe', game_id: gameId, since_version: st.version }).catch(toastError);
      return;
    }
    if (st.line !== prev.line) fetchOpening();
    if (a.kind === 'typed') return;
    if (a.kind === 'server' && a.msg.t === 'clocks') {
      view.tick(st, performance.now());
      return;
    }
    view.render(st, { board: redrawsBoard(a) });
  }

  // ---- opening ----
  let openingReq = 0;
  function fetchOpening(): void {
    if (st.initialFen || ply(st) === 0 || ply(st) > 40) {
      if (ply(st) === 0 && st.opening) dispatch({ kind: 'opening', opening: null });
      return;
    }
    const req = ++openingReq;
    api
      .opening(st.line.moves.map((m) => m.uci))
      .then((o) => {
        if (req !== openingReq || !o) return;
        dispatch({ kind: 'opening', opening: { zh: o.name_zh, en: o.name_en, eco: o.eco } });
      })
      .catch(() => undefined);
  }

  // ---- keyboard ----
  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft') dispatch({ kind: 'goto', ply: shownPly(st) - 1 });
    else if (e.key === 'ArrowRight') dispatch({ kind: 'goto', ply: shownPly(st) + 1 });
    else if (e.key === 'ArrowUp' || e.key === 'Home') dispatch({ kind: 'goto', ply: 0 });
    else if (e.key === 'ArrowDown' || e.key === 'End') dispatch({ kind: 'goto', ply: ply(st) });
    else if (e.key === 'f') dispatch({ kind: 'flip' });
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  // ---- wiring ----
  const off = socket.on((msg) => dispatch({ kind: 'server', msg, now: performance.now(), rtt: socket.rtt }));
  const offUser = onUserChange(() => dispatch({ kind: 'user', id: currentUser()?.id ?? null }));
  const offReady = socket.onReady(() => {
    socket
      .send(st.snap ? { t: 'subscribe', game_id: gameId, since_version: st.version } : { t: 'subscribe', game_id: gameId })
      // A finished game is no longer live: show it from the archive.
      .catch((e: unknown) => loadArchived(e));
  });
  let timer = 0;
  const loop = () => {
    view.tick(st, performance.now());
    timer = window.setTimeout(loop, 100);
  };
  loop();

  /** Shows the game from the archive; `liveError` is why the live game could not be followed. */
  function loadArchived(liveError: unknown): void {
    api
      .game(gameId)
      .then((game) => dispatch({ kind: 'archived', game, now: performance.now() }))
      .catch((e: unknown) => {
        if (st.snap) return;
        if (e instanceof HttpError && e.status === 404) {
          // Nobody knows this game (or the path was never a game, as /training): the not-found page, in place.
          const nf = notFoundEl();
          view.el.className = nf.className;
          view.el.dataset.testid = 'not-found';
          replace(view.el, ...Array.from(nf.childNodes));
          return;
        }
        replace(view.resultEl, h('div', { class: 'result-reason', testid: 'game-error' }, errorText(liveError)));
        view.resultEl.classList.add('shown');
      });
  }

  // A tournament's game links back to its tournament (standings, the next round): below the page, so that the
  // board does not move under a player's pointer when it arrives.
  request<TournamentLink | null>('GET', `/api/game/${encodeURIComponent(gameId)}/tournament`)
    .then((link) => {
      if (!link || !view.el.isConnected) return;
      const where =
        link.system === 'arena'
          ? link.name
          : `${link.name} · ${t('tour.roundN', { n: String(link.round) })} · ${t('tour.board')} ${link.board}`;
      view.el.append(h('p', { class: 'tour-link', testid: 'tournament-link' }, h('a', { href: `/tournament/${link.id}`, 'data-link': '' }, `🏆 ${where}`)));
    })
    .catch(() => {
      // Not knowing the tournament only leaves the link out.
    });

  return {
    el: view.el,
    destroy() {
      off();
      offReady();
      offUser();
      window.clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
      socket.send({ t: 'unsubscribe', game_id: gameId }).catch(() => undefined);
      view.board.destroy();
      view.destroy();
    },
  };
}

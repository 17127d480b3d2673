// SPDX-License-Identifier: GPL-3.0-or-later
// The game page: board (click or drag; illegal tries are explained), clocks, the move list with navigation, the
// opening, offers and claims, the result, rematch. Its state is the server's (snapshot + versioned events); the
// board shows a move at once and is put back if the server refuses it.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import { api, pgnUrl } from '../api';
import { currentUser, errorText, link, socket, toast, toastError } from '../app';
import type { Page } from '../app';
import {
  checkColor,
  chineseSan,
  claimable,
  destsOf,
  fenOf,
  guessIllegal,
  isPromotion,
  lastMoveKeys,
  legalMove,
  parseTyped,
  replay,
  standardUci,
} from '../chess';
import type { ClaimKind, Line } from '../chess';
import type { NormalMove } from 'chessops/types';
import { h, replace } from '../dom';
import { getLang, pick, t } from '../i18n';
import type {
  Color,
  GameSnapshot,
  GameStatus,
  IllegalMoveReason,
  Player,
  ServerMessage,
  VersionedGameEvent,
} from '../protocol';
import { makeBoard, mirror } from '../ui/board';
import type { BoardApi } from '../ui/board';
import { formatClock, lowTimeMs, remaining } from '../ui/clock';
import type { ClockState } from '../ui/clock';
import { playerName } from '../ui/names';
import { choosePromotion } from '../ui/promotion';
import { getSetting, setSetting } from '../settings';

const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

interface State {
  snap: GameSnapshot | null;
  line: Line;
  initialFen: string | null;
  version: number;
  status: GameStatus;
  drawOffer: Color | null;
  takebackOffer: Color | null;
  mayOfferDraw: [boolean, boolean];
  disconnected: [boolean, boolean];
  /** performance.now() when each side was seen leaving (for the claim-victory countdown). */
  goneSince: [number, number];
  clock: ClockState | null;
  /** The ply shown, or null to follow the game. */
  viewPly: number | null;
  orientation: Color;
  offerWithMove: boolean;
  rematchBy: Color | null;
  rematchDeclined: boolean;
  resignConfirm: boolean;
  illegal: { text: () => string; squares: string[] } | null;
  opening: { zh: string; en: string; eco: string } | null;
  claimRejected: { zh: string; en: string } | null;
  /** A move that would allow a draw claim (FIDE 9.2.1.1, 9.3.1): claim with it, or just play it. */
  pendingClaim: { uci: string; kind: ClaimKind } | null;
}

export function gamePage(gameId: string): Page {
  const st: State = {
    snap: null,
    line: replay(null, []),
    initialFen: null,
    version: 0,
    status: { status: 'created' },
    drawOffer: null,
    takebackOffer: null,
    mayOfferDraw: [true, true],
    disconnected: [false, false],
    goneSince: [0, 0],
    clock: null,
    viewPly: null,
    orientation: 'white',
    offerWithMove: false,
    rematchBy: null,
    rematchDeclined: false,
    resignConfirm: false,
    illegal: null,
    opening: null,
    claimRejected: null,
    pendingClaim: null,
  };

  const boardEl = h('div', { class: 'cg-wrap main-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const topPlayer = h('div', { class: 'player top' });
  const bottomPlayer = h('div', { class: 'player bottom' });
  const clockW = h('div', { class: 'clock', testid: 'clock-white' });
  const clockB = h('div', { class: 'clock', testid: 'clock-black' });
  const openingEl = h('div', { class: 'opening', testid: 'opening-name' });
  const resultEl = h('div', { class: 'result', testid: 'result', role: 'status', 'aria-live': 'polite' });
  const illegalEl = h('div', { class: 'illegal', testid: 'illegal-reason', role: 'alert', 'aria-live': 'assertive' });
  const offersEl = h('div', { class: 'offers' });
  const moveListEl = h('div', { class: 'move-list', testid: 'move-list' });
  const navEl = h('div', { class: 'nav-buttons' });
  const actionsEl = h('div', { class: 'actions' });
  const afterEl = h('div', { class: 'after' });
  const moveInput = h('input', {
    class: 'move-input',
    testid: 'move-input',
    autocomplete: 'off',
    placeholder: t('game.typeMove'),
    'aria-label': t('game.typeMove'),
  });
  const settingsEl = h('div', { class: 'settings' });
  const moveForm = h(
    'form',
    {
      class: 'move-form',
      onsubmit: (e: SubmitEvent) => {
        e.preventDefault();
        typedMove();
      },
    },
    moveInput,
  );

  const el = h(
    'div',
    { class: 'page game-page' },
    h('div', { class: 'board-col' }, topPlayer, h('div', { class: 'board-box' }, boardEl, promoEl), bottomPlayer),
    h(
      'div',
      { class: 'side' },
      openingEl,
      resultEl,
      illegalEl,
      offersEl,
      moveListEl,
      navEl,
      moveForm,
      actionsEl,
      afterEl,
      settingsEl,
    ),
  );

  const board: BoardApi = makeBoard(boardEl, {
    viewOnly: false,
    movable: { free: true, color: undefined, showDests: true, events: { after: onBoardMove } },
    events: {},
  });

  // ---- derived state ----
  const myColor = (): Color | null => {
    const me = currentUser();
    const s = st.snap;
    if (!me || !s) return null;
    if (s.white.id === me.id) return 'white';
    if (s.black.id === me.id) return 'black';
    return null;
  };
  const isOver = () => st.status.status === 'finished' || st.status.status === 'aborted';
  const ply = () => st.line.moves.length;
  const shownPly = () => (st.viewPly === null ? ply() : st.viewPly);
  const livePos = () => st.line.positions[ply()];
  const turn = (): Color => livePos().turn;
  const myTurn = () => !isOver() && myColor() === turn() && st.viewPly === null;

  // ---- board ----
  function drawBoard(): void {
    const p = shownPly();
    const pos = st.line.positions[p];
    const fen = fenOf(pos);
    const mine = myColor();
    const live = st.viewPly === null;
    const canMove = live && !isOver() && mine !== null && mine === pos.turn;
    // On the opponent's turn one's own pieces can be premoved (played when the turn comes, if still legal).
    const canPremove = live && !isOver() && mine !== null && mine !== pos.turn;
    const premove = board.state.premovable.current;
    if (!canPremove && !canMove && premove) board.cancelPremove();
    board.set({
      fen,
      orientation: st.orientation,
      turnColor: pos.turn,
      check: checkColor(pos),
      lastMove: lastMoveKeys(st.line.moves[p - 1]?.uci),
      movable: {
        free: canMove,
        color: canMove || canPremove ? (mine ?? undefined) : undefined,
        dests: canMove ? destsOf(pos) : new Map(),
      },
      premovable: { enabled: canPremove || (canMove && !!premove) },
    });
    if (canMove && premove) {
      board.cancelPremove();
      const [from, to] = premove;
      const m = legalMove(pos, from, to, isPromotion(pos, from, to) ? 'queen' : undefined);
      if (m) {
        board.move(from, to);
        sendMove(standardUci(pos, m));
      }
    }
    board.setAutoShapes(illegalShapes());
    mirror(boardEl, fen, st.orientation);
    boardEl.dataset.turn = pos.turn;
    boardEl.dataset.ply = String(p);
    boardEl.dataset.myColor = mine ?? '';
    boardEl.dataset.live = live ? '1' : '0';
    boardEl.dataset.status = st.status.status;
  }

  function illegalShapes(): DrawShape[] {
    if (!st.illegal) return [];
    return st.illegal.squares.map((s, i) => ({ orig: s as Key, brush: i === 0 ? 'yellow' : 'red' }));
  }

  function onBoardMove(orig: Key, dest: Key): void {
    const pos = livePos();
    if (!myTurn()) {
      drawBoard();
      return;
    }
    if (isPromotion(pos, orig, dest) && legalMove(pos, orig, dest, 'queen')) {
      askPromotion(orig, dest);
      return;
    }
    const m = legalMove(pos, orig, dest);
    if (!m) {
      drawBoard(); // snap back
      explain(orig, dest);
      return;
    }
    playOrClaim(m);
  }

  /** Plays a legal move, unless it would allow a draw claim: then the player chooses. */
  function playOrClaim(m: NormalMove): void {
    const pos = livePos();
    const uci = standardUci(pos, m);
    const after = pos.clone();
    after.play(m);
    const kind = claimable([...st.line.positions, after]);
    if (!kind) {
      sendMove(uci);
      return;
    }
    st.pendingClaim = { uci, kind };
    renderOffers();
  }

  function askPromotion(orig: Key, dest: Key): void {
    choosePromotion(promoEl, turn(), (role) => {
      const m = role ? legalMove(livePos(), orig, dest, role) : null;
      if (m && myTurn()) playOrClaim(m);
      else drawBoard();
    });
  }

  function sendMove(uci: string): void {
    st.pendingClaim = null;
    const offer = st.offerWithMove;
    st.offerWithMove = false;
    setIllegal(null);
    socket
      .send({ t: 'move', game_id: gameId, uci, offer_draw: offer, lag_ms: Math.round(socket.rtt / 2) })
      .catch((e: unknown) => {
        toastError(e);
        drawBoard();
      });
  }

  function setIllegal(v: State['illegal']): void {
    st.illegal = v;
    illegalEl.textContent = v ? v.text() : '';
    illegalEl.classList.toggle('shown', !!v);
    board.setAutoShapes(illegalShapes());
  }

  function explain(from: string, to: string): void {
    setIllegal({ text: () => t('game.illegalMove'), squares: [from, to] });
    socket
      .send({ t: 'explain', game_id: gameId, from, to })
      .then((m) => {
        if (m.t !== 'explanation') return;
        const r: IllegalMoveReason | null = m.reason;
        if (r) setIllegal({ text: () => pick(r.message_zh, r.message_en), squares: r.squares });
      })
      .catch(toastError);
  }

  function typedMove(): void {
    const text = moveInput.value;
    if (!text.trim()) return;
    if (!myTurn()) {
      toast(myColor() ? t('game.notYourTurn') : t('game.spectating'));
      return;
    }
    const pos = livePos();
    const m = parseTyped(pos, text);
    if (m) {
      moveInput.value = '';
      const from = m.from;
      const to = m.to;
      if (isPromotion(pos, keyOf(from), keyOf(to)) && !m.promotion) {
        askPromotion(keyOf(from), keyOf(to));
        return;
      }
      playOrClaim(m);
      return;
    }
    const guess = guessIllegal(pos, text);
    if (guess) explain(guess.from, guess.to);
    else setIllegal({ text: () => t('game.unreadableMove', { move: text.trim() }), squares: [] });
  }

  // ---- server state ----
  function applySnapshot(s: GameSnapshot): void {
    const first = st.snap === null;
    st.snap = s;
    st.initialFen = s.variant.kind === 'standard' ? null : s.variant.fen;
    st.line = replay(st.initialFen, s.moves.map((m) => m.uci));
    // Keep the server's SAN.
    s.moves.forEach((m, i) => {
      if (st.line.moves[i]) st.line.moves[i].san = m.san;
    });
    st.version = s.version;
    st.status = s.status;
    st.drawOffer = s.draw_offer;
    st.takebackOffer = s.takeback_offer;
    st.mayOfferDraw = s.may_offer_draw;
    st.disconnected = s.disconnected;
    st.goneSince = [s.disconnected[0] ? performance.now() : 0, s.disconnected[1] ? performance.now() : 0];
    st.clock = s.clocks ? { ...s.clocks, running: s.clock_running, at: performance.now() - socket.rtt / 2 } : null;
    if (first) st.orientation = myColor() ?? 'white';
    fetchOpening();
    render();
  }

  function applyEvent(e: VersionedGameEvent): void {
    st.version = e.version;
    switch (e.type) {
      case 'move_made': {
        const pos = livePos().clone();
        const line = replay(fenOf(pos), [e.uci]);
        const next = line.positions[1];
        if (!next) {
          resync();
          return;
        }
        st.line.positions.push(next);
        st.line.moves.push({ uci: e.uci, san: e.san });
        if (e.clocks && st.clock) {
          st.clock = { ...e.clocks, running: st.clock.running ? opposite(e.by) : null, at: performance.now() };
        }
        if (st.drawOffer && st.drawOffer !== e.by) st.drawOffer = null;
        if (st.status.status === 'created' && ply() >= 2) st.status = { status: 'started' };
        st.illegal = null;
        st.resignConfirm = false;
        illegalEl.textContent = '';
        illegalEl.classList.remove('shown');
        if (st.viewPly !== null && st.viewPly === ply() - 1) st.viewPly = null;
        fetchOpening();
        break;
      }
      case 'draw_offered':
        st.drawOffer = e.by;
        st.mayOfferDraw[e.by === 'white' ? 1 : 0] = true;
        break;
      case 'draw_declined':
        if (st.drawOffer) st.mayOfferDraw[st.drawOffer === 'white' ? 0 : 1] = false;
        st.drawOffer = null;
        break;
      case 'draw_claim_rejected':
        st.claimRejected = { zh: e.message_zh, en: e.message_en };
        break;
      case 'clock_update':
      case 'adjourned':
      case 'resumed':
        if (e.clocks && st.clock) st.clock = { ...st.clock, ...e.clocks, at: performance.now() };
        break;
      case 'takeback_offered':
        st.takebackOffer = e.by;
        break;
      case 'takeback_declined':
      case 'takeback_cancelled':
        st.takebackOffer = null;
        break;
      case 'takeback_done': {
        const keep = Math.max(0, ply() - e.plies);
        st.line.positions.length = keep + 1;
        st.line.moves.length = keep;
        st.takebackOffer = null;
        st.drawOffer = null;
        st.viewPly = null;
        if (e.clocks && st.clock) st.clock = { ...st.clock, ...e.clocks, at: performance.now() };
        if (keep < 2) st.status = { status: 'created' };
        fetchOpening();
        break;
      }
      case 'player_disconnected':
        st.disconnected[e.who === 'white' ? 0 : 1] = true;
        st.goneSince[e.who === 'white' ? 0 : 1] = performance.now();
        break;
      case 'player_reconnected':
        st.disconnected[e.who === 'white' ? 0 : 1] = false;
        break;
      case 'game_ended':
        st.status = {
          status: 'finished',
          result: e.result,
          termination: e.termination,
          winner: e.winner,
          message_zh: e.message_zh,
          message_en: e.message_en,
        };
        if (st.clock) st.clock = { ...st.clock, ...(e.clocks ?? {}), running: null, at: performance.now() };
        st.drawOffer = null;
        st.takebackOffer = null;
        break;
      case 'aborted':
        st.status = { status: 'aborted', reason: e.reason, by: e.by };
        if (st.clock) st.clock = { ...st.clock, running: null, at: performance.now() };
        break;
    }
  }

  function resync(): void {
    socket.send({ t: 'subscribe', game_id: gameId, since_version: st.version }).catch(toastError);
  }

  function onMessage(m: ServerMessage): void {
    switch (m.t) {
      case 'game_snapshot':
        if (m.game_id === gameId) applySnapshot(m.snapshot);
        break;
      case 'game_events':
        if (m.game_id !== gameId || !st.snap) return;
        for (const e of m.events) {
          if (e.version <= st.version) continue;
          if (e.version !== st.version + 1) {
            resync();
            return;
          }
          applyEvent(e);
        }
        render();
        break;
      case 'clocks':
        if (m.game_id !== gameId) return;
        st.clock = {
          white_ms: m.white_ms,
          black_ms: m.black_ms,
          running: m.running,
          at: performance.now() - socket.rtt / 2,
        };
        tick();
        break;
      case 'rematch_offered':
        if (m.game_id === gameId) {
          st.rematchBy = m.by;
          st.rematchDeclined = false;
          render();
        }
        break;
      case 'rematch_declined':
        if (m.game_id === gameId) {
          st.rematchBy = null;
          st.rematchDeclined = true;
          render();
        }
        break;
      default:
        break;
    }
  }

  // ---- opening ----
  let openingReq = 0;
  function fetchOpening(): void {
    if (st.initialFen || ply() === 0 || ply() > 40) {
      if (ply() === 0) st.opening = null;
      renderOpening();
      return;
    }
    const req = ++openingReq;
    api
      .opening(st.line.moves.map((m) => m.uci))
      .then((o) => {
        if (req !== openingReq) return;
        if (o) st.opening = { zh: o.name_zh, en: o.name_en, eco: o.eco };
        renderOpening();
      })
      .catch(() => undefined);
  }
  function renderOpening(): void {
    openingEl.textContent = st.opening ? `${st.opening.eco} · ${pick(st.opening.zh, st.opening.en)}` : '';
  }

  // ---- clocks ----
  function tick(): void {
    const s = st.snap;
    if (!s || !st.clock) {
      clockW.hidden = true;
      clockB.hidden = true;
      return;
    }
    const now = performance.now();
    const low = lowTimeMs(s.time_control);
    for (const [side, node] of [
      ['white', clockW],
      ['black', clockB],
    ] as const) {
      node.hidden = false;
      const ms = remaining(st.clock, side, now);
      node.textContent = formatClock(ms);
      node.classList.toggle('running', st.clock.running === side && !isOver());
      node.classList.toggle('low', ms < low && !isOver());
      node.dataset.ms = String(Math.round(ms));
    }
  }
  let raf = 0;
  const loop = () => {
    tick();
    if (goneEl.isConnected) updateGone();
    raf = window.setTimeout(loop, 100);
  };

  // ---- rendering ----
  function playerRow(side: Color): HTMLElement {
    const s = st.snap!;
    const p: Player = side === 'white' ? s.white : s.black;
    const gone = st.disconnected[side === 'white' ? 0 : 1];
    const nameEl = p.is_engine
      ? h('span', { class: 'name' }, playerName(p))
      : link(`/@/${encodeURIComponent(p.name)}`, playerName(p), { class: 'name', translate: 'no' });
    return h(
      'div',
      { class: 'player-inner' },
      h('span', { class: `dot ${side}`, title: t(side === 'white' ? 'color.white' : 'color.black') }),
      nameEl,
      gone ? h('span', { class: 'gone', title: t('game.disconnected') }, t('game.disconnected')) : null,
      side === 'white' ? clockW : clockB,
    );
  }

  function render(): void {
    if (!st.snap) return;
    const top = opposite(st.orientation);
    replace(topPlayer, playerRow(top));
    replace(bottomPlayer, playerRow(st.orientation));
    drawBoard();
    renderMoves();
    renderNav();
    renderResult();
    renderOffers();
    renderActions();
    renderAfter();
    renderSettings();
    renderOpening();
    moveForm.hidden = !myColor() || isOver();
    document.title = (myTurn() ? '● ' : '') + (getLang() === 'zh' ? '国象 · guoxiang' : 'Guoxiang');
    tick();
  }

  function renderMoves(): void {
    const zh = getSetting('chineseLetters');
    const rows: HTMLElement[] = [];
    const startTurn = st.line.positions[0].turn;
    const startFull = st.line.positions[0].fullmoves;
    const shown = shownPly();
    const cell = (i: number) => {
      const m = st.line.moves[i];
      return h(
        'button',
        {
          class: 'mv' + (i + 1 === shown ? ' current' : ''),
          'data-ply': String(i + 1),
          onclick: () => goto(i + 1),
        },
        zh ? chineseSan(m.san) : m.san,
      );
    };
    let i = 0;
    let n = startFull;
    if (startTurn === 'black' && st.line.moves.length > 0) {
      rows.push(h('div', { class: 'mrow' }, h('span', { class: 'num' }, `${n}.`), h('span', { class: 'mv empty' }, '…'), cell(0)));
      i = 1;
      n++;
    }
    for (; i < st.line.moves.length; i += 2, n++) {
      rows.push(
        h(
          'div',
          { class: 'mrow' },
          h('span', { class: 'num' }, `${n}.`),
          cell(i),
          i + 1 < st.line.moves.length ? cell(i + 1) : null,
        ),
      );
    }
    if (isOver() && st.status.status === 'finished') {
      rows.push(h('div', { class: 'mrow result-row' }, st.status.result));
    }
    if (!rows.length) rows.push(h('div', { class: 'empty-moves' }, t('game.noMoves')));
    replace(moveListEl, rows);
    const cur = moveListEl.querySelector('.current');
    if (cur && st.viewPly !== null) cur.scrollIntoView({ block: 'nearest' });
    else moveListEl.scrollTop = moveListEl.scrollHeight;
  }

  function goto(p: number): void {
    const max = ply();
    const v = Math.max(0, Math.min(max, p));
    st.viewPly = v === max ? null : v;
    setIllegal(null);
    drawBoard();
    renderMoves();
    renderNav();
  }

  function renderNav(): void {
    const p = shownPly();
    const btn = (testid: string, label: string, title: string, target: number, disabled: boolean) =>
      h('button', { class: 'btn nav', testid, title, 'aria-label': title, disabled, onclick: () => goto(target) }, label);
    replace(
      navEl,
      btn('nav-first', '«', t('nav.first'), 0, p === 0),
      btn('nav-prev', '‹', t('nav.prev'), p - 1, p === 0),
      btn('nav-next', '›', t('nav.next'), p + 1, p >= ply()),
      btn('nav-last', '»', t('nav.last'), ply(), p >= ply()),
      h(
        'button',
        {
          class: 'btn nav',
          testid: 'flip',
          title: t('game.flip'),
          'aria-label': t('game.flip'),
          onclick: () => {
            st.orientation = opposite(st.orientation);
            render();
          },
        },
        '⇅',
      ),
    );
  }

  function renderResult(): void {
    const s = st.status;
    resultEl.classList.toggle('shown', isOver());
    if (s.status === 'finished') {
      const who =
        s.winner === null ? t('result.draw') : s.winner === 'white' ? t('result.whiteWins') : t('result.blackWins');
      replace(
        resultEl,
        h('div', { class: 'result-score' }, `${s.result} · ${who}`),
        h('div', { class: 'result-reason' }, pick(s.message_zh, s.message_en) || t(`term.${s.termination}`)),
      );
    } else if (s.status === 'aborted') {
      replace(
        resultEl,
        h('div', { class: 'result-score' }, t('result.aborted')),
        h(
          'div',
          { class: 'result-reason' },
          s.reason === 'first_move_timeout' ? t('result.abortedTimeout') : t('result.abortedBy', { side: t(`color.${s.by}`) }),
        ),
      );
    } else {
      const me = myColor();
      const text =
        me === null
          ? t('game.spectatingTurn', { side: t(`color.${turn()}`) })
          : me === turn()
            ? t('game.yourTurn')
            : t('game.opponentTurn');
      replace(resultEl, h('div', { class: 'turn-line', testid: 'turn' }, text));
      resultEl.classList.add('playing');
      return;
    }
    resultEl.classList.remove('playing');
  }

  function renderOffers(): void {
    const me = myColor();
    const items: HTMLElement[] = [];
    if (!isOver() && me && st.drawOffer && st.drawOffer !== me) {
      items.push(
        h(
          'div',
          { class: 'offer' },
          h('span', {}, t('game.drawOffered')),
          h('button', { class: 'btn good', testid: 'accept-draw', onclick: () => cmd({ t: 'accept_draw', game_id: gameId }) }, t('game.acceptDraw')),
          h('button', { class: 'btn', testid: 'decline-draw', onclick: () => cmd({ t: 'decline_draw', game_id: gameId }) }, t('game.declineDraw')),
        ),
      );
    }
    if (!isOver() && me && st.drawOffer === me) items.push(h('div', { class: 'offer mine', testid: 'draw-sent' }, t('game.drawSent')));
    if (!isOver() && me && st.takebackOffer && st.takebackOffer !== me) {
      items.push(
        h(
          'div',
          { class: 'offer' },
          h('span', {}, t('game.takebackOffered')),
          h('button', { class: 'btn good', testid: 'accept-takeback', onclick: () => cmd({ t: 'takeback_accept', game_id: gameId }) }, t('common.accept')),
          h('button', { class: 'btn', testid: 'decline-takeback', onclick: () => cmd({ t: 'takeback_decline', game_id: gameId }) }, t('common.decline')),
        ),
      );
    }
    if (!isOver() && me && st.takebackOffer === me) items.push(h('div', { class: 'offer mine' }, t('game.takebackSent')));
    if (isOver() && me && st.rematchBy && st.rematchBy !== me) {
      items.push(
        h(
          'div',
          { class: 'offer' },
          h('span', {}, t('game.rematchOffered')),
          h('button', { class: 'btn good', testid: 'accept-rematch', onclick: () => cmd({ t: 'rematch_accept', game_id: gameId }) }, t('common.accept')),
          h('button', { class: 'btn', testid: 'decline-rematch', onclick: () => cmd({ t: 'rematch_decline', game_id: gameId }) }, t('common.decline')),
        ),
      );
    }
    if (isOver() && me && st.rematchBy === me) items.push(h('div', { class: 'offer mine' }, t('game.rematchSent')));
    if (isOver() && st.rematchDeclined) items.push(h('div', { class: 'offer mine' }, t('game.rematchDeclined')));
    if (st.pendingClaim && myTurn()) {
      const pc = st.pendingClaim;
      items.push(
        h(
          'div',
          { class: 'offer' },
          h('span', {}, pc.kind === 'threefold_repetition' ? t('game.moveAllowsThreefold') : t('game.moveAllowsFifty')),
          h(
            'button',
            {
              class: 'btn good',
              testid: 'claim-draw-move',
              onclick: () => {
                st.pendingClaim = null;
                cmd({ t: 'claim_draw', game_id: gameId, kind: pc.kind, intended: pc.uci });
                render();
              },
            },
            t('game.claimWithMove'),
          ),
          h('button', { class: 'btn', testid: 'play-anyway', onclick: () => sendMove(pc.uci) }, t('game.justPlay')),
          h(
            'button',
            {
              class: 'btn',
              testid: 'cancel-move',
              onclick: () => {
                st.pendingClaim = null;
                render();
              },
            },
            t('common.cancel'),
          ),
        ),
      );
    } else st.pendingClaim = null;
    if (st.claimRejected) items.push(h('div', { class: 'offer warn' }, pick(st.claimRejected.zh, st.claimRejected.en)));
    const opp = me ? opposite(me) : null;
    if (!isOver() && opp && st.disconnected[opp === 'white' ? 0 : 1]) {
      items.push(
        h(
          'div',
          { class: 'offer warn' },
          goneEl,
          h('button', { class: 'btn', testid: 'claim-victory', onclick: () => cmd({ t: 'claim_victory', game_id: gameId }) }, t('game.claimVictory')),
        ),
      );
      updateGone();
    }
    replace(offersEl, items);
  }

  // The server lets a player claim the game a minute after the opponent left (docs/game.md, "Disconnection").
  const goneEl = h('span', { testid: 'opponent-gone' });
  function updateGone(): void {
    const me = myColor();
    if (!me) return;
    const since = st.goneSince[me === 'white' ? 1 : 0];
    const left = Math.ceil((since + 60_000 - performance.now()) / 1000);
    goneEl.textContent = left > 0 ? t('game.opponentGoneWait', { n: String(left) }) : t('game.opponentGone');
  }

  function cmd(body: Parameters<typeof socket.send>[0]): void {
    socket.send(body).catch(toastError);
  }

  function renderActions(): void {
    const me = myColor();
    if (!me || isOver()) {
      replace(actionsEl);
      return;
    }
    const s = st.snap!;
    const canAbort = ply() < 2;
    const idx = me === 'white' ? 0 : 1;
    const claim = me === turn() ? claimable(st.line.positions) : null;
    const offerDisabled = !st.mayOfferDraw[idx] || st.drawOffer === me;
    const buttons: HTMLElement[] = [];
    if (canAbort) {
      buttons.push(h('button', { class: 'btn', testid: 'abort', onclick: () => cmd({ t: 'abort', game_id: gameId }) }, t('game.abort')));
    }
    if (!s.rated) {
      buttons.push(
        h(
          'button',
          {
            class: 'btn',
            testid: 'takeback',
            disabled: ply() === 0 || st.takebackOffer === me,
            onclick: () => cmd({ t: 'takeback_offer', game_id: gameId }),
          },
          t('game.takeback'),
        ),
      );
    }
    buttons.push(
      h(
        'button',
        {
          class: 'btn' + (st.offerWithMove ? ' pressed' : ''),
          testid: 'offer-draw',
          'aria-pressed': st.offerWithMove ? 'true' : 'false',
          disabled: offerDisabled || (st.drawOffer !== null && st.drawOffer !== me),
          title: me === turn() ? t('game.offerDrawWithMove') : t('game.offerDraw'),
          onclick: () => {
            if (st.drawOffer && st.drawOffer !== me) {
              cmd({ t: 'accept_draw', game_id: gameId });
            } else if (me === turn()) {
              // An offer goes with one's own move (FIDE 9.1.2): arm it for the next move.
              st.offerWithMove = !st.offerWithMove;
              toast(st.offerWithMove ? t('game.offerArmed') : t('game.offerDisarmed'));
              renderActions();
            } else {
              cmd({ t: 'offer_draw', game_id: gameId });
            }
          },
        },
        st.offerWithMove ? t('game.offerDrawArmed') : t('game.offerDraw'),
      ),
    );
    if (claim) {
      buttons.push(
        h(
          'button',
          {
            class: 'btn good',
            testid: 'claim-draw',
            onclick: () => cmd({ t: 'claim_draw', game_id: gameId, kind: claim }),
          },
          claim === 'threefold_repetition' ? t('game.claimThreefold') : t('game.claimFifty'),
        ),
      );
    }
    if (st.resignConfirm) {
      buttons.push(
        h(
          'span',
          { class: 'confirm' },
          h('span', {}, t('game.resignConfirm')),
          h(
            'button',
            {
              class: 'btn bad',
              testid: 'resign-confirm',
              onclick: () => {
                st.resignConfirm = false;
                cmd({ t: 'resign', game_id: gameId });
              },
            },
            t('common.yes'),
          ),
          h(
            'button',
            {
              class: 'btn',
              testid: 'resign-cancel',
              onclick: () => {
                st.resignConfirm = false;
                renderActions();
              },
            },
            t('common.no'),
          ),
        ),
      );
    } else {
      buttons.push(
        h(
          'button',
          {
            class: 'btn bad',
            testid: 'resign',
            onclick: () => {
              st.resignConfirm = true;
              renderActions();
            },
          },
          t('game.resign'),
        ),
      );
    }
    replace(actionsEl, buttons);
  }

  function renderAfter(): void {
    const me = myColor();
    const items: HTMLElement[] = [];
    if (isOver() && me && !st.rematchBy) {
      items.push(h('button', { class: 'btn primary', testid: 'rematch', onclick: () => cmd({ t: 'rematch_offer', game_id: gameId }) }, t('game.rematch')));
    }
    if (isOver()) {
      items.push(
        h('a', { class: 'btn', testid: 'download-pgn', href: pgnUrl(gameId), download: `guoxiang_${gameId}.pgn` }, t('game.downloadPgn')),
      );
      items.push(link(`/analysis/${gameId}`, t('game.analyse'), { class: 'btn', testid: 'open-analysis' }));
      items.push(link('/', t('game.newGame'), { class: 'btn', testid: 'new-game' }));
    }
    replace(afterEl, items);
  }

  function renderSettings(): void {
    const box = h('input', {
      type: 'checkbox',
      testid: 'chinese-letters',
      checked: getSetting('chineseLetters'),
      onchange: () => {
        setSetting('chineseLetters', box.checked);
        renderMoves();
      },
    });
    replace(
      settingsEl,
      h('label', { class: 'check' }, box, ' ', t('settings.chineseLetters'), ' ', h('span', { lang: 'zh', class: 'hint' }, '(马f3)')),
    );
  }

  // ---- keyboard ----
  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft') goto(shownPly() - 1);
    else if (e.key === 'ArrowRight') goto(shownPly() + 1);
    else if (e.key === 'ArrowUp' || e.key === 'Home') goto(0);
    else if (e.key === 'ArrowDown' || e.key === 'End') goto(ply());
    else if (e.key === 'f') {
      st.orientation = opposite(st.orientation);
      render();
    } else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  // ---- wiring ----
  const off = socket.on(onMessage);
  const offReady = socket.onReady(() => {
    socket
      .send(st.snap ? { t: 'subscribe', game_id: gameId, since_version: st.version } : { t: 'subscribe', game_id: gameId })
      .catch((e: unknown) => {
        replace(resultEl, h('div', { class: 'result-reason', testid: 'game-error' }, errorText(e)));
        resultEl.classList.add('shown');
        // A finished game is no longer live: show it from the archive.
        loadArchived();
      });
  });
  loop();

  function loadArchived(): void {
    api
      .game(gameId)
      .then((v) => {
        const status: GameStatus =
          v.status === 'finished'
            ? {
                status: 'finished',
                result: v.result as '1-0',
                termination: (v.termination ?? 'adjudication') as 'checkmate',
                winner: v.winner,
                message_zh: '',
                message_en: '',
              }
            : { status: 'aborted', reason: 'player', by: 'white' };
        applySnapshot({
          id: v.id,
          white: v.white,
          black: v.black,
          rated: false,
          variant: v.initial_fen ? { kind: 'from_position', fen: v.initial_fen } : { kind: 'standard' },
          time_control: '-',
          fen: v.fen,
          turn: 'white',
          moves: v.moves_uci.map((u, i) => ({ uci: u, san: v.moves_san[i] ?? u, clock_ms: null })),
          clocks: null,
          clock_running: null,
          status,
          draw_offer: null,
          may_offer_draw: [false, false],
          takeback_offer: null,
          disconnected: [false, false],
          version: 0,
        });
      })
      .catch(() => undefined);
  }

  return {
    el,
    destroy() {
      off();
      offReady();
      window.clearTimeout(raf);
      document.removeEventListener('keydown', onKey);
      socket.send({ t: 'unsubscribe', game_id: gameId }).catch(() => undefined);
      board.destroy();
    },
  };
}

function keyOf(sq: number): Key {
  return ('abcdefgh'[sq % 8] + String(Math.floor(sq / 8) + 1)) as Key;
}


// SPDX-License-Identifier: GPL-3.0-or-later
// The game page's layout and how a state is drawn: players and clocks, the board (with premoves and the marks of
// a refused move), the move list and its navigation, the result line, the opening. Buttons are in controls.ts.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import { link } from '../../app';
import { checkColor, destsOf, fenOf, isPromotion, lastMoveKeys, legalMove, wireUci } from '../../chess';
import { h, replace } from '../../dom';
import { getLang, pick, t, TABLES } from '../../i18n';
import type { Key as TextKey } from '../../i18n';
import type { Color, GameStatus, Player } from '../../protocol';
import { getSetting } from '../../settings';
import { makeBoard, mirror } from '../../ui/board';
import type { BoardApi } from '../../ui/board';
import { lowTimeMs, renderClock } from '../../ui/clock';
import { renderMoveList } from '../../ui/movelist';
import { playerName } from '../../ui/names';
import { renderResult } from '../../ui/result';
import type { Ctx } from './ctx';
import { makeReviewSlot } from './review';
import { makeControls } from './controls';
import { makeClubPanel } from './club';
import { canPlay, isChess960, isOver, mustSeal, myColor, myTurn, opposite, ply, shownPly, turn } from './ctrl';
import type { GameState, Illegal } from './ctrl';

export interface View {
  el: HTMLElement;
  board: BoardApi;
  promoEl: HTMLElement;
  resultEl: HTMLElement;
  /** Draws everything; `board: false` leaves the pieces as they are (a move waiting for the server). */
  render(st: GameState, opts?: { board?: boolean }): void;
  /** Puts the board back to the state's position. */
  drawBoard(st: GameState): void;
  /** The clocks (and the opponent-gone countdown) at `now`. */
  tick(st: GameState, now: number): void;
  destroy(): void;
}

export function illegalText(i: Illegal): string {
  switch (i.msg.kind) {
    case 'generic':
      return t('game.illegalMove');
    case 'reason':
      return pick(i.msg.zh, i.msg.en);
    case 'unreadable':
      return t('game.unreadableMove', { move: i.msg.text });
  }
}

type Finished = Extract<GameStatus, { status: 'finished' }>;

/**
 * The result said from a player's side: "你赢了 — 将死", "你输了 — 超时", "和棋 — 三次重复局面", with the score below;
 * for an ending without a sentence of its own (an arbiter's decision, …) the server's sentence stays below. Spectators
 * keep the neutral banner (`renderResult`).
 */
export function myResultLines(status: Finished, me: Color): { head: string; below: string } {
  const outcome = status.winner === null ? 'draw' : status.winner === me ? 'win' : 'loss';
  const head = t(outcome === 'draw' ? 'result.drawn' : outcome === 'win' ? 'result.youWon' : 'result.youLost');
  const key = `mine.${outcome}.${status.termination}`;
  const reason = key in TABLES.zh ? t(key as TextKey) : '';
  const server = pick(status.message_zh, status.message_en) || t(`term.${status.termination}`);
  return { head: reason ? `${head} — ${reason}` : head, below: reason ? status.result : `${status.result} · ${server}` };
}

function renderMyResult(el: HTMLElement, status: Finished, me: Color): void {
  const { head, below } = myResultLines(status, me);
  el.classList.add('shown');
  el.classList.remove('playing');
  el.dataset.outcome = status.winner === null ? 'draw' : status.winner === me ? 'win' : 'loss';
  replace(el, h('div', { class: 'result-score', testid: 'my-result' }, head), h('div', { class: 'result-reason' }, below));
}

export function makeView(
  ctx: Ctx,
  hooks: { onBoardMove(orig: Key, dest: Key): void; onSelect(key: Key): void; onTyped(text: string): void; onSubmit(): void },
): View {
  const boardEl = h('div', { class: 'cg-wrap main-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const topPlayer = h('div', { class: 'player top' });
  const bottomPlayer = h('div', { class: 'player bottom' });
  const clockW = h('div', { class: 'clock', testid: 'clock-white' });
  const clockB = h('div', { class: 'clock', testid: 'clock-black' });
  const openingEl = h('div', { class: 'opening', testid: 'opening-name' });
  const resultEl = h('div', { class: 'result', testid: 'result', role: 'status', 'aria-live': 'polite' });
  const illegalEl = h('div', { class: 'illegal', testid: 'illegal-reason', role: 'alert', 'aria-live': 'assertive' });
  const moveListEl = h('div', { class: 'move-list', testid: 'move-list' });
  const navEl = h('div', { class: 'nav-buttons' });
  const moveInput = h('input', {
    class: 'move-input',
    testid: 'move-input',
    autocomplete: 'off',
    placeholder: t('game.typeMove'),
    'aria-label': t('game.typeMove'),
    oninput: () => hooks.onTyped(moveInput.value),
  });
  const moveForm = h(
    'form',
    {
      class: 'move-form',
      onsubmit: (e: SubmitEvent) => {
        e.preventDefault();
        hooks.onSubmit();
      },
    },
    moveInput,
  );
  const controls = makeControls(ctx);
  const club = makeClubPanel(ctx);
  const review = makeReviewSlot(ctx, () => render(ctx.get(), { board: false }));

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
      controls.offersEl,
      club.el,
      moveListEl,
      navEl,
      moveForm,
      controls.actionsEl,
      controls.afterEl,
      club.arbiterEl,
      review.el,
      controls.settingsEl,
    ),
  );

  const board: BoardApi = makeBoard(boardEl, {
    viewOnly: false,
    movable: {
      free: true,
      color: undefined,
      showDests: true,
      // While "learn from your mistakes" has the board (review.ts), its moves are the exercise's.
      events: { after: (o, d) => (review.ownsBoard() ? review.boardMove(o, d) : hooks.onBoardMove(o, d)) },
    },
    events: { select: (key) => (review.ownsBoard() ? undefined : hooks.onSelect(key)) },
  });
  review.attachBoard({ api: board, el: boardEl, promo: promoEl, col: el.querySelector('.side') as HTMLElement }, () => drawBoard(ctx.get()));

  function illegalShapes(st: GameState): DrawShape[] {
    if (!st.illegal) return [];
    return st.illegal.squares.map((s, i) => ({ orig: s as Key, brush: i === 0 ? 'yellow' : 'red' }));
  }

  function drawBoard(st: GameState): void {
    if (review.ownsBoard()) return;
    const p = shownPly(st);
    const pos = st.line.positions[p];
    const fen = fenOf(pos);
    const mine = myColor(st);
    const live = st.viewPly === null;
    // Not while the clocks are paused or a sealed move waits (but a move to seal is made on the board).
    const canMove = live && !isOver(st) && mine !== null && mine === pos.turn && (canPlay(st) || mustSeal(st));
    // On the opponent's turn one's own pieces can be premoved (played when the turn comes, if still legal).
    const canPremove = live && !isOver(st) && mine !== null && mine !== pos.turn && canPlay(st);
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
        const uci = wireUci(pos, m, isChess960(st));
        // After this drawing is done: sending changes the state.
        queueMicrotask(() => ctx.sendMove(uci));
      }
    }
    board.setAutoShapes(illegalShapes(st));
    mirror(boardEl, fen, st.orientation);
    boardEl.dataset.turn = pos.turn;
    boardEl.dataset.ply = String(p);
    boardEl.dataset.myColor = mine ?? '';
    boardEl.dataset.live = live ? '1' : '0';
    boardEl.dataset.status = st.status.status;
  }

  function playerRow(st: GameState, side: Color): HTMLElement {
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

  function renderNav(st: GameState): void {
    const p = shownPly(st);
    const max = ply(st);
    const go = (target: number) => ctx.dispatch({ kind: 'goto', ply: target });
    const btn = (testid: string, label: string, title: string, target: number, disabled: boolean) =>
      h('button', { class: 'btn nav', testid, title, 'aria-label': title, disabled, onclick: () => go(target) }, label);
    replace(
      navEl,
      btn('nav-first', '«', t('nav.first'), 0, p === 0),
      btn('nav-prev', '‹', t('nav.prev'), p - 1, p === 0),
      btn('nav-next', '›', t('nav.next'), p + 1, p >= max),
      btn('nav-last', '»', t('nav.last'), max, p >= max),
      h(
        'button',
        {
          class: 'btn nav',
          testid: 'flip',
          title: t('game.flip'),
          'aria-label': t('game.flip'),
          onclick: () => ctx.dispatch({ kind: 'flip' }),
        },
        '⇅',
      ),
    );
  }

  function turnLine(st: GameState): string {
    const me = myColor(st);
    if (me === null) return t('game.spectatingTurn', { side: t(`color.${turn(st)}`) });
    return me === turn(st) ? t('game.yourTurn') : t('game.opponentTurn');
  }

  function tick(st: GameState, now: number): void {
    const over = isOver(st);
    const low = st.snap ? lowTimeMs(st.snap.time_control) : 0;
    renderClock(clockW, st.snap ? st.clock : null, 'white', now, low, over);
    renderClock(clockB, st.snap ? st.clock : null, 'black', now, low, over);
    controls.tick(st, now);
    club.tick(st, now);
  }

  function render(st: GameState, opts: { board?: boolean } = {}): void {
    if (!st.snap) return;
    replace(topPlayer, playerRow(st, opposite(st.orientation)));
    replace(bottomPlayer, playerRow(st, st.orientation));
    if (opts.board !== false) drawBoard(st);
    else board.setAutoShapes(illegalShapes(st));
    illegalEl.textContent = st.illegal ? illegalText(st.illegal) : '';
    illegalEl.classList.toggle('shown', !!st.illegal);
    renderMoveList(moveListEl, {
      moves: st.line.moves,
      startTurn: st.line.positions[0].turn,
      startFullmove: st.line.positions[0].fullmoves,
      current: st.viewPly,
      chinese: getSetting('chineseLetters'),
      onJump: (p) => ctx.dispatch({ kind: 'goto', ply: p }),
      mark: (i) => review.mark(i),
      result: st.status.status === 'finished' ? st.status.result : null,
      emptyText: t('game.noMoves'),
    });
    renderNav(st);
    review.update(st);
    const mine = myColor(st);
    if (st.status.status === 'finished' && mine !== null) renderMyResult(resultEl, st.status, mine);
    else renderResult(resultEl, st.status, turnLine(st));
    controls.render(st);
    club.render(st);
    openingEl.textContent = st.opening ? `${st.opening.eco} · ${pick(st.opening.zh, st.opening.en)}` : '';
    moveForm.hidden = !myColor(st) || isOver(st);
    if (moveInput.value !== st.typed) moveInput.value = st.typed;
    document.title = (myTurn(st) ? '● ' : '') + (getLang() === 'zh' ? '国象 · guoxiang' : 'Guoxiang');
    tick(st, performance.now());
  }

  return { el, board, promoEl, resultEl, render, drawBoard, tick, destroy: () => review.destroy() };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: a `play` step's game, shown inside the lesson — a real casual, untimed game against the computer
// from the step's position (the server's `play_computer` with a `fen`), followed over the socket like the game
// page does: the board, the move list, the engine's suggestion on request and the result against the step's goal.

import type { Key } from '@lichess-org/chessground/types';
import { bestMove } from '../../engine/client';
import type { LearnStep } from '../../protocol_http';
import { claimGameStarts, errorText, socket } from '../../app';
import { checkColor, chineseSan, destsOf, fenOf, isPromotion, lastMoveKeys, legalMove, positionFromFen, replay, standardUci } from '../../chess';
import type { Line } from '../../chess';
import { h, replace } from '../../dom';
import { getLang, pick, t } from '../../i18n';
import type { Color, GameSnapshot, GameStatus, ServerMessage, VersionedGameEvent } from '../../protocol';
import { makeBoard, mirror } from '../../ui/board';
import { choosePromotion } from '../../ui/promotion';
import { firstPromotion, playGoalMet } from './ctrl';

export interface PlayResult {
  met: boolean;
  overBudget: boolean;
  /** The game's id, for the server's judgement (`POST /api/learn/try` with `game`). */
  game: string;
}

export interface PlayView {
  board: HTMLElement;
  panel: HTMLElement;
  destroy(): void;
}

const san = (s: string) => (getLang() === 'zh' ? chineseSan(s) : s);

export function playView(step: LearnStep, onEnd: (r: PlayResult) => void): PlayView {
  const start = positionFromFen(step.fen);
  const me: Color = start?.turn ?? 'white';
  let gameId: string | null = null;
  let pending = false;
  let line: Line = replay(step.fen, []);
  let version = 0;
  let status: GameStatus = { status: 'created' };
  let snap = false;
  let ended = false;
  let note = '';
  /** The note is good news (a won pawn war), not an error. */
  let noteGood = false;
  let suggestion = '';

  const boardEl = h('div', { class: 'cg-wrap main-board learn-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const boardBox = h('div', { class: 'board-box' }, boardEl, promoEl);
  const statusEl = h('div', { class: 'learn-play-status', testid: 'play-status', role: 'status', 'aria-live': 'polite' });
  const listEl = h('div', { class: 'move-list learn-moves', testid: 'move-list' });
  const buttonsEl = h('div', { class: 'form-buttons' });
  const panel = h('div', { class: 'learn-play' }, statusEl, listEl, buttonsEl);

  const board = makeBoard(boardEl, {
    movable: { free: false, color: undefined, showDests: true, events: { after: onMove } },
    drawable: { enabled: false, visible: true },
  });

  const ply = () => line.moves.length;
  const pos = () => line.positions[ply()];
  const over = () => status.status === 'finished' || status.status === 'aborted';
  const myTurn = () => !!gameId && snap && !over() && pos().turn === me;
  const myMoves = () => line.moves.filter((_, i) => (line.positions[i].turn === me)).length;

  function drawBoard(): void {
    const p = pos();
    const can = myTurn();
    board.set({
      fen: fenOf(p),
      orientation: step.orientation,
      turnColor: p.turn,
      check: checkColor(p),
      lastMove: lastMoveKeys(line.moves[ply() - 1]?.uci),
      movable: { free: can, color: can ? me : undefined, dests: can ? destsOf(p) : new Map() },
    });
    mirror(boardEl, fenOf(p), step.orientation);
    boardEl.dataset.turn = p.turn;
    boardEl.dataset.ply = String(ply());
    boardEl.dataset.myColor = gameId ? me : '';
    boardEl.dataset.status = status.status;
    boardEl.dataset.live = '1';
    boardEl.dataset.game = gameId ?? '';
  }

  function render(): void {
    drawBoard();
    const goal = t(
      step.goal === 'win' ? 'learn.play.goal.win' : step.goal === 'draw' ? 'learn.play.goal.draw' : step.goal === 'promote' ? 'learn.play.goal.promote' : 'learn.play.goal.finish',
    );
    const budget = step.max_moves ? (getLang() === 'zh' ? '' : ' ') + t('learn.play.budget', { n: String(step.max_moves) }) : '';
    const lines: (string | HTMLElement)[] = [h('div', {}, goal + budget)];
    if (gameId) lines.push(h('div', { class: 'hint' }, t('learn.play.you', { color: t(me === 'white' ? 'color.white' : 'color.black'), level: String(step.level ?? 1) })));
    if (status.status === 'finished') lines.push(h('div', { class: 'result-score', testid: 'play-result' }, status.result + ' · ' + pick(status.message_zh, status.message_en)));
    else if (gameId && snap) {
      const left = step.max_moves ? step.max_moves - myMoves() : null;
      lines.push(h('div', { class: 'turn-line' }, myTurn() ? t('learn.play.yourMove') : t('learn.play.thinking'), left !== null && !over() ? ' · ' + t('learn.movesLeft', { n: String(Math.max(0, left)) }) : ''));
    } else if (pending) lines.push(h('div', { class: 'waiting' }, t('learn.play.starting')));
    if (note && noteGood) lines.push(h('div', { class: 'learn-success', testid: 'play-won', role: 'status' }, note));
    else if (note) lines.push(h('div', { class: 'illegal shown', testid: 'illegal-reason', role: 'alert' }, note));
    if (suggestion) lines.push(h('div', { class: 'learn-suggestion', testid: 'play-suggestion' }, suggestion));
    replace(statusEl, lines);

    const rows: HTMLElement[] = [];
    for (let i = 0; i < line.moves.length; i++) {
      const white = line.positions[i].turn === 'white';
      if (white || i === 0) rows.push(h('span', { class: 'num' }, `${line.positions[i].fullmoves}.${white ? '' : '..'}`));
      rows.push(h('span', { class: 'mv' }, san(line.moves[i].san)));
    }
    replace(listEl, rows.length ? h('div', { class: 'learn-movetext', translate: 'no' }, rows) : h('div', { class: 'empty-moves' }, t('learn.play.noMoves')));
    listEl.scrollTop = listEl.scrollHeight;

    const btns: HTMLElement[] = [];
    if (!gameId || over()) {
      btns.push(h('button', { class: 'btn primary', testid: 'play-start', disabled: pending, onclick: startGame }, gameId ? t('learn.play.again') : t('learn.play.start')));
    } else {
      btns.push(h('button', { class: 'btn', testid: 'play-suggest', disabled: !myTurn(), onclick: () => void suggest() }, t('learn.play.suggest')));
      btns.push(h('button', { class: 'btn bad', testid: 'play-resign', onclick: () => endGame() }, t('learn.play.resign')));
    }
    replace(buttonsEl, btns);
  }

  function startGame(): void {
    leave();
    gameId = null;
    snap = false;
    ended = false;
    line = replay(step.fen, []);
    version = 0;
    status = { status: 'created' };
    note = suggestion = '';
    noteGood = false;
    pending = true;
    claimGameStarts(() => pending);
    // `fen`: the game starts from the step's position; a pawn war is played under `first_promotion`, so that the
    // server ends it at the first promotion with its winner (and the learner's win is kept as a win).
    const rules = step.goal === 'promote' ? 'first_promotion' : undefined;
    socket.send({ t: 'play_computer', level: step.level ?? 1, color: me, time_control: '-', fen: step.fen, rules }).catch((e: unknown) => {
      pending = false;
      note = errorText(e);
      render();
    });
    render();
  }

  /** Resigns a game still going (aborts it before both sides moved). */
  function endGame(): void {
    if (gameId && !over()) {
      const id = gameId;
      socket.send({ t: 'game', game_id: id, action: ply() < 2 ? { t: 'abort' } : { t: 'resign' } }).catch(() => undefined);
    }
  }

  /** Ends the game and stops following it (a new game, or the learner leaves the step). */
  function leave(): void {
    endGame();
    if (gameId) socket.send({ t: 'unsubscribe', game_id: gameId }).catch(() => undefined);
  }

  function onMove(orig: Key, dest: Key): void {
    const p = pos();
    if (!myTurn()) return drawBoard();
    if (isPromotion(p, orig, dest) && legalMove(p, orig, dest, 'queen')) {
      choosePromotion(promoEl, me, (role) => {
        const m = role ? legalMove(pos(), orig, dest, role) : null;
        if (m && myTurn()) send(standardUci(pos(), m));
        else drawBoard();
      });
      return;
    }
    const m = legalMove(p, orig, dest);
    if (m) return send(standardUci(p, m));
    drawBoard();
    explain(orig, dest);
  }

  function send(uci: string): void {
    note = suggestion = '';
    noteGood = false;
    board.setAutoShapes([]);
    socket.send({ t: 'game', game_id: gameId!, action: { t: 'move', uci } }).catch((e: unknown) => {
      note = errorText(e);
      render();
    });
  }

  function explain(from: string, to: string): void {
    note = t('learn.play.illegal');
    render();
    socket
      .send({ t: 'explain', game_id: gameId!, from, to })
      .then((m) => {
        if (m.t === 'explanation' && m.reason) {
          note = pick(m.reason.message_zh, m.reason.message_en);
          render();
        }
      })
      .catch(() => undefined);
  }

  async function suggest(): Promise<void> {
    const fen = fenOf(pos());
    try {
      // The engine in this browser when it can (issue 43), else the server's.
      const best = await bestMove(fen, 12, 800);
      if (!best || fenOf(pos()) !== fen) return;
      const l = replay(fen, [best]);
      suggestion = t('learn.play.suggestion', { move: san(l.moves[0]?.san ?? best) });
      board.setAutoShapes([{ orig: best.slice(0, 2) as Key, dest: best.slice(2, 4) as Key, brush: 'paleGreen' }]);
      render();
    } catch (e) {
      note = errorText(e);
      render();
    }
  }

  function applySnapshot(s: GameSnapshot): void {
    const initial = s.variant.kind === 'standard' ? null : s.variant.fen;
    line = replay(initial, s.moves.map((m) => m.uci));
    s.moves.forEach((m, i) => {
      if (line.moves[i]) line.moves[i].san = m.san;
    });
    version = s.version;
    status = s.status;
    snap = true;
  }

  function applyEvent(e: VersionedGameEvent): void {
    version = e.version;
    if (e.type === 'move_made') {
      const next = replay(fenOf(pos()), [e.uci]).positions[1];
      if (!next) return resync();
      line.positions.push(next);
      line.moves.push({ uci: e.uci, san: e.san });
      if (status.status === 'created' && ply() >= 2) status = { status: 'started' };
    } else if (e.type === 'game_ended') {
      status = { status: 'finished', result: e.result, termination: e.termination, winner: e.winner, message_zh: e.message_zh, message_en: e.message_en };
    } else if (e.type === 'aborted') {
      status = { status: 'aborted', reason: e.reason, by: e.by };
    }
  }

  function resync(): void {
    if (gameId) socket.send({ t: 'subscribe', game_id: gameId, since_version: version }).catch(() => undefined);
  }

  function judge(): void {
    if (ended || !gameId) return;
    // A pawn-war mini-game (`promote`): the first promotion decides, whoever made it; the server ends the game
    // there (rule set `first_promotion`).
    const promoter = step.goal === 'promote' ? firstPromotion(line) : null;
    if (promoter) {
      ended = true;
      const met = promoter === me && (!step.max_moves || myMoves() <= step.max_moves);
      note = met ? t('learn.play.promoted') : t('learn.play.theyPromoted');
      noteGood = met;
      onEnd({ met, overBudget: false, game: gameId });
      return;
    }
    const budgetGone = !!step.max_moves && myMoves() >= step.max_moves && !over() && pos().turn === me;
    if (status.status === 'finished') {
      ended = true;
      const met = step.goal !== 'promote' && playGoalMet(step, { winner: status.winner, me, myMoves: myMoves() });
      if (!met) note = t('learn.play.missed');
      onEnd({ met, overBudget: false, game: gameId });
    } else if (budgetGone) {
      ended = true;
      note = t('learn.play.overBudget');
      endGame();
      onEnd({ met: false, overBudget: true, game: gameId });
    }
  }

  function onMessage(m: ServerMessage): void {
    if (m.t === 'game_started' && pending) {
      pending = false;
      claimGameStarts(null);
      gameId = m.game_id;
      socket.send({ t: 'subscribe', game_id: m.game_id }).catch((e: unknown) => {
        note = errorText(e);
        render();
      });
      render();
      return;
    }
    if (!gameId) return;
    if (m.t === 'game_snapshot' && m.game_id === gameId) {
      applySnapshot(m.snapshot);
    } else if (m.t === 'game_events' && m.game_id === gameId && snap) {
      for (const e of m.events) {
        if (e.version <= version) continue;
        if (e.version !== version + 1) return resync();
        applyEvent(e);
      }
    } else return;
    judge();
    render();
  }

  const off = socket.on(onMessage);
  const offReady = socket.onReady(resync);
  render();

  return {
    board: boardBox,
    panel,
    destroy() {
      off();
      offReady();
      if (pending) claimGameStarts(null);
      leave();
      board.destroy();
    },
  };
}

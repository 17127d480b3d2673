// SPDX-License-Identifier: GPL-3.0-or-later
// The review panel (复盘) of a finished game: ask for a review (or wait for the automatic one) with a progress bar,
// then the accuracy of each side, the evaluation graph, the explanation of the move shown, the moments worth a
// look, the PGN with evaluations, and "learn from your mistakes" — each of your errors replayed as an exercise on
// a board of its own: find the better move (the server judges the try).

import type { Key } from '@lichess-org/chessground/types';
import type { Role } from 'chessops/types';
import { request } from '../api';
import { currentUser } from '../app';
import { destsOf, fenOf, isPromotion, legalMove, replay, standardUci, chineseSan } from '../chess';
import { h, replace } from '../dom';
import { getLang, onLangChange, pick } from '../i18n';
import { evalGraph } from './chart';
import { makeBoard } from './board';
import type { BoardApi } from './board';
import { choosePromotion } from './promotion';
import {
  CLASS_NAMES,
  exercises,
  graphValues,
  learnFinished,
  learnStep,
  marksOf,
  markOf,
  moments,
  pending,
  progressOf,
  startLearning,
} from '../review/model';
import type { GameReviewData, LearnState, Mark, ReviewState, ReviewTryAnswer, ReviewedMove } from '../review/model';
import type { ReviewSettings, ReviewTryRequest } from '../protocol_review';

export interface ReviewPanelOptions {
  gameId: string;
  /** The viewer's side in the game (their mistakes become the exercises), or null for a spectator. */
  myColor: 'white' | 'black' | null;
  /** The start position (null: the standard one) and the game's moves, UCI. */
  initialFen: string | null;
  ucis: string[];
  /** The server reviews this game by itself (a game against the computer): wait for it rather than offer a button. */
  automatic: boolean;
  /** Show the position after `ply` on the page's board. */
  onJump: (ply: number) => void;
  /** The review is there: the page marks its move list. */
  onMarks: (marks: Map<number, Mark>) => void;
  /** Whether moves are written with Chinese piece letters. */
  chineseLetters: () => boolean;
}

export interface ReviewPanel {
  el: HTMLElement;
  /** The page shows the position after `ply` now: explain that move. */
  setPly(ply: number): void;
  destroy(): void;
}

const POLL_MS = 1000;
/** How long to wait for an automatic review to be queued after the game ended. */
const AUTO_WAIT_POLLS = 15;

export function reviewPanel(o: ReviewPanelOptions): ReviewPanel {
  const el = h('section', { class: 'review-panel', testid: 'review-panel' });
  let state: ReviewState = { status: 'none' };
  let ply = o.ucis.length;
  let timer: number | undefined;
  let autoPolls = 0;
  let destroyed = false;
  let learn: { list: ReviewedMove[]; s: LearnState; feedback: string; board?: BoardApi } | null = null;
  const line = replay(o.initialFen, o.ucis);
  const san = (s: string) => (o.chineseLetters() ? chineseSan(s) : s);

  const url = `/api/game/${encodeURIComponent(o.gameId)}/review`;

  async function load(): Promise<void> {
    try {
      state = await request<ReviewState>('GET', url);
    } catch (e) {
      state = { status: 'failed', error: { zh: String(e), en: String(e) } };
    }
    if (destroyed) return;
    if (state.status === 'done' && state.review) o.onMarks(marksOf(state.review));
    render();
    schedule();
  }

  function schedule(): void {
    window.clearTimeout(timer);
    const waitAuto = o.automatic && state.status === 'none' && autoPolls < AUTO_WAIT_POLLS;
    if (pending(state) || waitAuto) {
      if (waitAuto) autoPolls++;
      timer = window.setTimeout(() => void load(), POLL_MS);
    }
  }

  async function ask(): Promise<void> {
    try {
      state = await request<ReviewState>('POST', url);
    } catch (e) {
      state = { status: 'failed', error: { zh: String(e), en: String(e) } };
    }
    render();
    schedule();
  }

  function render(): void {
    if (destroyed) return;
    replace(el, h('h3', {}, pick('复盘', 'Game review')), ...body());
  }

  function body(): (HTMLElement | SVGSVGElement)[] {
    switch (state.status) {
      case 'none':
        if (o.automatic && autoPolls < AUTO_WAIT_POLLS) return [h('p', { class: 'muted' }, pick('复盘即将开始……', 'The review is about to start…'))];
        return [
          h('p', { class: 'muted' }, pick('引擎逐步检查这盘棋，指出错着并说明原因。', 'The engine goes through the game move by move, marks the mistakes and says why.')),
          h('button', { class: 'btn primary', testid: 'review-request', onclick: () => void ask() }, pick('复盘这盘棋', 'Review this game')),
        ];
      case 'queued':
      case 'running': {
        const p = state.progress;
        const text =
          state.status === 'queued'
            ? pick(`排队中（第 ${state.queue_place ?? 1} 位）`, `Waiting (number ${state.queue_place ?? 1} in line)`)
            : pick(`复盘中…… 已搜索 ${p?.done ?? 0}/${p?.total ?? 0}`, `Reviewing… ${p?.done ?? 0}/${p?.total ?? 0} searches`);
        const bar = h('progress', { testid: 'review-progress', max: '100', value: String(Math.round(progressOf(state) * 100)) });
        return [bar, h('p', { class: 'muted', 'aria-live': 'polite' }, text)];
      }
      case 'failed':
        return [
          h('p', { class: 'error', testid: 'review-error' }, pick('复盘失败：', 'The review failed: ') + (state.error ? pick(state.error.zh, state.error.en) : '')),
          h('button', { class: 'btn', testid: 'review-request', onclick: () => void ask() }, pick('再试一次', 'Try again')),
        ];
      case 'done':
        return state.review ? done(state.review) : [];
    }
  }

  function done(r: GameReviewData): (HTMLElement | SVGSVGElement)[] {
    if (learn) return learnView();
    const acc = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)}%`);
    const counts = (side: 'white' | 'black') =>
      (['inaccuracy', 'mistake', 'blunder'] as const).map((c) =>
        h('span', { class: `count ${c}`, title: pick(CLASS_NAMES[c].zh, CLASS_NAMES[c].en) }, `${markOf(c)} ${r.counts[side][c] ?? 0}`),
      );
    const summary = h(
      'table',
      { class: 'review-summary', testid: 'review-accuracy' },
      h('tr', {}, h('th', {}, ''), h('th', {}, pick('准确率', 'Accuracy')), h('th', {}, pick('平均损失（厘兵）', 'Avg. loss (cp)')), h('th', {}, pick('错着', 'Errors'))),
      ...(['white', 'black'] as const).map((side) =>
        h(
          'tr',
          { 'data-side': side },
          h('th', {}, pick(side === 'white' ? '白方' : '黑方', side === 'white' ? 'White' : 'Black')),
          h('td', {}, acc(r.accuracy[side])),
          h('td', {}, r.acpl[side] === null ? '–' : String(Math.round(r.acpl[side] ?? 0))),
          h('td', {}, ...counts(side)),
        ),
      ),
    );
    const graph = evalGraph(graphValues(r), ply, (p) => o.onJump(p), pick('评估曲线', 'Evaluation graph'));
    const list = moments(r, null);
    const keyMoments = h(
      'ol',
      { class: 'review-moments' },
      ...list.map((m) =>
        h(
          'li',
          { testid: 'review-moment', 'data-ply': String(m.ply), class: m.ply === ply ? 'current' : '' },
          h('a', { href: '#', onclick: (e) => (e.preventDefault(), o.onJump(m.ply)) }, moveLabel(m)),
          ' ',
          m.comment ? pick(m.comment.zh, m.comment.en) : '',
        ),
      ),
    );
    const mine = o.myColor ? exercises(r, o.myColor) : [];
    const learnButton = mine.length
      ? h('button', { class: 'btn primary', testid: 'review-learn', onclick: () => startLearn(mine) }, pick(`从错误中学习（${mine.length}）`, `Learn from your mistakes (${mine.length})`))
      : null;
    const pgn = h(
      'a',
      { class: 'btn', testid: 'review-pgn', href: `/game/export/${encodeURIComponent(o.gameId)}?evals=true&lang=${getLang()}`, download: `guoxiang_${o.gameId}_review.pgn` },
      pick('下载带评估的 PGN', 'Download PGN with evaluations'),
    );
    const parts: (HTMLElement | SVGSVGElement)[] = [summary, graph, explanation(r)];
    if (list.length) parts.push(h('h4', {}, pick('关键时刻', 'Key moments')), keyMoments);
    else parts.push(h('p', { class: 'muted' }, pick('没有错着，下得好！', 'No mistakes: well played!')));
    parts.push(h('p', { class: 'review-actions' }, learnButton, ' ', pgn));
    const auto = autoReviewToggle();
    if (auto) parts.push(auto);
    return parts;
  }

  /** For a registered player: "review every game of mine" (the server's setting), loaded once. */
  let autoReview: boolean | null = null;
  function autoReviewToggle(): HTMLElement | null {
    const me = currentUser();
    if (!me || me.guest) return null;
    if (autoReview === null) {
      request<ReviewSettings>('GET', '/api/review/settings')
        .then((s) => {
          autoReview = s.auto_review;
          render();
        })
        .catch(() => undefined);
      return null;
    }
    const box = h('input', {
      type: 'checkbox',
      testid: 'review-auto',
      checked: autoReview,
      onchange: () => {
        const on = box.checked;
        request<ReviewSettings>('PUT', '/api/review/settings', { auto_review: on } satisfies ReviewSettings)
          .then((s) => (autoReview = s.auto_review))
          .catch(() => ((box.checked = !on), undefined));
      },
    });
    return h('label', { class: 'hint' }, box, ' ', pick('自动复盘我下完的每一盘棋', 'Review every game of mine when it ends'));
  }

  function moveLabel(m: ReviewedMove): string {
    const n = Math.ceil(m.ply / 2);
    return `${n}${m.ply % 2 === 1 ? '.' : '…'} ${san(m.san)}${markOf(m.class) ?? ''}`;
  }

  /** What the move now on the board was, and why. */
  function explanation(r: GameReviewData): HTMLElement {
    const m = ply > 0 ? r.moves[ply - 1] : undefined;
    if (!m) return h('p', { class: 'review-comment muted', testid: 'review-comment' }, pick('走到一步棋，看它的评价。', 'Step to a move to see how it was judged.'));
    const name = CLASS_NAMES[m.class];
    const better =
      m.best && m.best !== m.uci && m.best_line.length
        ? pick(`引擎的着法：${san(m.best_line[0])}`, `Engine's move: ${san(m.best_line[0])}`)
        : '';
    return h(
      'div',
      { class: `review-comment ${m.class}`, testid: 'review-comment', 'data-class': m.class, 'data-ply': String(m.ply) },
      h('strong', {}, `${moveLabel(m)} — ${pick(name.zh, name.en)}`),
      m.comment ? h('p', {}, pick(m.comment.zh, m.comment.en)) : null,
      better ? h('p', { class: 'muted' }, better) : null,
    );
  }

  // ---- learn from your mistakes ----

  function startLearn(list: ReviewedMove[]): void {
    learn = { list, s: startLearning(list.length), feedback: '' };
    render();
  }

  function learnView(): HTMLElement[] {
    const l = learn;
    if (!l) return [];
    const close = h('button', { class: 'btn', testid: 'review-learn-close', onclick: () => ((learn = null), render()) }, pick('返回复盘', 'Back to the review'));
    if (learnFinished(l.s)) {
      const solved = l.s.results.filter((x) => x === 'solved').length;
      return [
        h('p', { testid: 'review-learn-done' }, pick(`完成！你找到了 ${solved}/${l.list.length} 步更好的着法。`, `Done! You found ${solved} of ${l.list.length} better moves.`)),
        close,
      ];
    }
    const m = l.list[l.s.index];
    const before = line.positions[m.ply - 1];
    const boardEl = h('div', { class: 'cg-wrap learn-board', testid: 'review-learn-board' });
    const promo = h('div', { class: 'promotion-box' });
    const fb = h('p', { class: 'learn-feedback', testid: 'review-learn-feedback', 'aria-live': 'polite' }, l.feedback);
    const result = l.s.results[l.s.index];
    const next = h('button', { class: result === 'open' ? 'btn' : 'btn primary', testid: 'review-learn-next', onclick: () => step({ t: 'next' }) }, pick('下一题', 'Next'));
    const show = h(
      'button',
      { class: 'btn', testid: 'review-learn-solution', onclick: () => solution(m) },
      pick('显示答案', 'Show the answer'),
    );
    const prompt = h(
      'p',
      { testid: 'review-learn-prompt' },
      pick(
        `第 ${l.s.index + 1}/${l.list.length} 题：对局中你走了 ${moveLabel(m)}。找出更好的着法。`,
        `Exercise ${l.s.index + 1} of ${l.list.length}: in the game you played ${moveLabel(m)}. Find a better move.`,
      ),
    );
    queueMicrotask(() => {
      if (!before || !boardEl.isConnected) return;
      const color = m.ply % 2 === 1 ? 'white' : 'black';
      l.board = makeBoard(boardEl, {
        fen: fenOf(before),
        orientation: o.myColor ?? color,
        turnColor: color,
        movable: {
          color: result === 'open' ? color : undefined,
          dests: destsOf(before),
          events: {
            after: (from: Key, to: Key) => {
              const go = (role?: Role) => {
                const nm = legalMove(before, from, to, role);
                if (nm) void tryMove(m, standardUci(before, nm));
              };
              if (isPromotion(before, from, to)) choosePromotion(promo, color, (r) => (r ? go(r) : render()));
              else go();
            },
          },
        },
      });
      boardEl.dataset.fen = fenOf(before);
      if (result === 'shown' && m.best) {
        l.board.setAutoShapes([{ orig: m.best.slice(0, 2) as Key, dest: m.best.slice(2, 4) as Key, brush: 'green' }]);
      }
    });
    return [prompt, boardEl, promo, fb, h('p', { class: 'review-actions' }, show, ' ', next, ' ', close)];
  }

  async function tryMove(m: ReviewedMove, uci: string): Promise<void> {
    const l = learn;
    if (!l) return;
    l.feedback = pick('引擎在想……', 'The engine is thinking…');
    try {
      const a = await request<ReviewTryAnswer>('POST', `${url}/try`, { ply: m.ply, uci } satisfies ReviewTryRequest);
      if (a.correct) {
        l.s = learnStep(l.s, { t: 'solved' });
        l.feedback = pick('✓ 对了！', '✓ Right!') + (a.reason && a.best !== uci ? ' ' + pick(a.reason.zh, a.reason.en) : '');
      } else {
        l.feedback = '✗ ' + (a.reason ? pick(a.reason.zh, a.reason.en) : pick('再想想。', 'Think again.'));
      }
    } catch (e) {
      l.feedback = String(e);
    }
    render();
  }

  function solution(m: ReviewedMove): void {
    const l = learn;
    if (!l) return;
    l.s = learnStep(l.s, { t: 'shown' });
    const best = m.best_line[0];
    l.feedback = pick(`答案：${best ? san(best) : m.best}`, `The answer: ${best ? san(best) : m.best}`) + (m.comment ? ' — ' + pick(m.comment.zh, m.comment.en) : '');
    render();
  }

  function step(e: { t: 'next' } | { t: 'previous' }): void {
    const l = learn;
    if (!l) return;
    l.s = learnStep(l.s, e);
    l.feedback = '';
    render();
  }

  const offLang = onLangChange(render);
  render();
  void load();

  return {
    el,
    setPly(p: number) {
      ply = p;
      if (state.status === 'done' && !learn) render();
    },
    destroy() {
      destroyed = true;
      window.clearTimeout(timer);
      offLang();
    },
  };
}

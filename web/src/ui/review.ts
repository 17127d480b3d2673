// SPDX-License-Identifier: GPL-3.0-or-later
// The review panel (复盘) of a finished game: ask for a review (or wait for the automatic one) with a progress bar,
// then the evaluation graph, the sentence on the move shown, the key moments (关键时刻: the learner's own errors
// that cost most, at most five; the opponent's behind a toggle), the figures (accuracy once a side has made ten
// moves; evaluations and average loss behind "details"), the PGN with evaluations, and "learn from your mistakes"
// — each real mistake of yours (material, a mate or a result lost) replayed as an exercise on the page's main
// board: find a move that keeps what the best move keeps (the server judges the try and says why in words).

import type { Key } from '@lichess-org/chessground/types';
import type { Role } from 'chessops/types';
import { HttpError, request } from '../api';
import { browserEngineAvailable } from '../engine/client';
import type { ReviewWorkerIn, ReviewWorkerOut } from '../engine/review_worker';
import { currentUser } from '../app';
import { checkColor, destsOf, fenOf, isPromotion, legalMove, replay, standardUci, chineseSan } from '../chess';
import { h, replace } from '../dom';
import { getLang, onLangChange, pick } from '../i18n';
import { evalGraph } from './chart';
import { mirror } from './board';
import type { BoardApi } from './board';
import { choosePromotion } from './promotion';
import {
  CLASS_NAMES,
  commentText,
  exercises,
  graphValues,
  keyMoments,
  learnFinished,
  learnStep,
  marksOf,
  markOf,
  moments,
  moverOf,
  pending,
  progressOf,
  shownAccuracy,
  startLearning,
  withoutMove,
} from '../review/model';
import type { GameReviewData, LearnState, Mark, ReviewComment, ReviewState, ReviewTryAnswer, ReviewedMove } from '../review/model';
import type { ReviewSettings, ReviewTryRequest } from '../protocol_review';

/** The page's main board, lent to "learn from your mistakes" while an exercise is on. */
export interface MainBoard {
  api: BoardApi;
  el: HTMLElement;
  /** Where the promotion choice is shown. */
  promo: HTMLElement;
  /** The page's side column: the exercise's prompt and answer go at its top (beside the board on a desktop, right
   * under it on a phone). */
  col: HTMLElement;
}

export interface ReviewPanelOptions {
  gameId: string;
  /** The viewer's side in the game (their mistakes become the exercises), or null for a spectator. */
  myColor: 'white' | 'black' | null;
  /** The start position (null: the standard one) and the game's moves, UCI. */
  initialFen: string | null;
  ucis: string[];
  /** The server reviews this game by itself (a game against the computer): wait for it rather than offer a button. */
  automatic: boolean;
  /** The opponent is the computer (its errors are "the computer's"). */
  againstComputer: boolean;
  /** Show the position after `ply` on the page's board. */
  onJump: (ply: number) => void;
  /** The review is there: the page marks its move list. */
  onMarks: (marks: Map<number, Mark>) => void;
  /** Whether moves are written with Chinese piece letters. */
  chineseLetters: () => boolean;
  /** The page's main board, for the exercises (null: none). */
  mainBoard: () => MainBoard | null;
  /** An exercise takes the main board (true) or gives it back (false: the page draws the game again). */
  onBoardTaken: (taken: boolean) => void;
}

export interface ReviewPanel {
  el: HTMLElement;
  /** The page shows the position after `ply` now: explain that move. */
  setPly(ply: number): void;
  /** A move made on the main board while an exercise has it. */
  boardMove(orig: Key, dest: Key): void;
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
  /** The opponent's key moments are shown too. */
  let showOthers = false;
  /** The exercises' run; `solved`: the position after the right try of the exercise on, kept on the board. */
  let learn: {
    list: ReviewedMove[];
    s: LearnState;
    feedback: string;
    ok: boolean | null;
    bar: HTMLElement;
    solved?: { fen: string; lastMove: [Key, Key] };
  } | null = null;
  const line = replay(o.initialFen, o.ucis);
  const san = (s: string) => (o.chineseLetters() ? chineseSan(s) : s);
  const sentence = (c: ReviewComment | null | undefined) => commentText(c, getLang() === 'zh' ? 'zh' : 'en', o.chineseLetters());

  const url = `/api/game/${encodeURIComponent(o.gameId)}/review`;

  /** The review's searches in this browser (the server was busy): once per panel, by a player. */
  let local: { worker: Worker; done: number; total: number; checking: boolean } | null = null;
  let localTried = false;
  /** Why the browser's review was not kept (the server's own goes on). */
  let localNote: { zh: string; en: string } | null = null;

  function startLocal(): void {
    localTried = true;
    let worker: Worker;
    try {
      worker = new Worker(new URL('../engine/review_worker.ts', import.meta.url), { type: 'module', name: 'guoxiang-review' });
    } catch {
      return;
    }
    const mine = { worker, done: 0, total: 0, checking: false };
    local = mine;
    worker.onmessage = (ev: MessageEvent<ReviewWorkerOut>) => {
      if (local !== mine) return;
      const m = ev.data;
      if (m.t === 'progress') {
        mine.done = m.done;
        mine.total = m.total;
        render();
      } else if (m.t === 'done') {
        mine.checking = true;
        worker.terminate();
        render();
        void sendLocal(mine, m.judgements);
      } else {
        stopLocal({ zh: `浏览器中的复盘没有完成：${m.message}`, en: `the review in this browser did not finish: ${m.message}` });
      }
    };
    worker.onerror = () => stopLocal(null);
    const msg: ReviewWorkerIn = { t: 'review', fen: o.initialFen ?? undefined, moves: o.ucis, nodes: state.nodes ?? 150_000 };
    worker.postMessage(msg);
  }

  async function sendLocal(mine: NonNullable<typeof local>, judgements: string): Promise<void> {
    try {
      const answer = await request<ReviewState>('POST', `${url}/browser`, JSON.parse(judgements) as unknown);
      if (destroyed || local !== mine) return;
      local = null;
      state = answer;
      if (state.status === 'done' && state.review) o.onMarks(marksOf(state.review));
      render();
      schedule();
    } catch (e) {
      if (local !== mine) return;
      // Already done by the server, or not kept: the server's review is what the page shows next.
      if (e instanceof HttpError) stopLocal(e.code === 'review_done' ? null : { zh: e.zh, en: e.en });
      else stopLocal({ zh: String(e), en: String(e) });
      void load();
    }
  }

  function stopLocal(note: { zh: string; en: string } | null): void {
    local?.worker.terminate();
    local = null;
    localNote = note;
    render();
  }

  async function load(): Promise<void> {
    try {
      state = await request<ReviewState>('GET', url);
    } catch (e) {
      state = { status: 'failed', error: { zh: String(e), en: String(e) } };
    }
    if (destroyed) return;
    if (state.status === 'done' && state.review) o.onMarks(marksOf(state.review));
    if (local && !local.checking && (state.status === 'done' || state.status === 'failed')) stopLocal(null);
    if (state.status === 'queued' && state.browser && o.myColor && !localTried && browserEngineAvailable()) startLocal();
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
    if (learn) renderLearn();
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
        if (local) {
          const bar = h('progress', {
            testid: 'review-progress',
            'data-where': 'browser',
            'data-done': String(local.done),
            max: '100',
            value: String(local.total ? Math.round((100 * local.done) / local.total) : 0),
          });
          const text = local.checking
            ? pick('服务器正在核对复盘里的错着……', 'The server is checking the marks…')
            : local.total === 0
              ? pick('正在你的浏览器里准备引擎（服务器忙）……', 'Starting the engine in your browser (the server is busy)…')
              : pick(`正在你的浏览器里复盘（服务器忙）…… 已搜索 ${local.done}/${local.total}`, `Reviewing in your browser (the server is busy)… ${local.done}/${local.total} searches`);
          return [bar, h('p', { class: 'muted', 'aria-live': 'polite', testid: 'review-local' }, text)];
        }
        const p = state.progress;
        const text =
          state.status === 'queued'
            ? pick(`排队中（第 ${state.queue_place ?? 1} 位）`, `Waiting (number ${state.queue_place ?? 1} in line)`)
            : pick(`复盘中…… 已搜索 ${p?.done ?? 0}/${p?.total ?? 0}`, `Reviewing… ${p?.done ?? 0}/${p?.total ?? 0} searches`);
        const bar = h('progress', { testid: 'review-progress', max: '100', value: String(Math.round(progressOf(state) * 100)) });
        const note = localNote ? [h('p', { class: 'muted', testid: 'review-local-note' }, pick(localNote.zh, localNote.en))] : [];
        return [bar, h('p', { class: 'muted', 'aria-live': 'polite' }, text), ...note];
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

  function sideName(side: 'white' | 'black'): string {
    if (o.myColor === side) return pick('你', 'You');
    if (o.myColor && o.againstComputer) return pick('电脑', 'Computer');
    return pick(side === 'white' ? '白方' : '黑方', side === 'white' ? 'White' : 'Black');
  }

  function done(r: GameReviewData): (HTMLElement | SVGSVGElement)[] {
    if (learn) {
      return [
        h('p', { class: 'muted', testid: 'review-learn-note' }, pick('练习在棋盘上进行。', 'The exercise is on the board.')),
        h('button', { class: 'btn', testid: 'review-learn-close', onclick: () => stopLearn() }, pick('返回复盘', 'Back to the review')),
      ];
    }
    const sides = o.myColor ? ([o.myColor, o.myColor === 'white' ? 'black' : 'white'] as const) : (['white', 'black'] as const);
    // What a beginner reads first: the marks of each side, and the accuracy once a side has made ten moves.
    const counts = (side: 'white' | 'black') =>
      (['blunder', 'mistake'] as const).map((c) =>
        h('span', { class: `count ${c}`, title: pick(CLASS_NAMES[c].zh, CLASS_NAMES[c].en) }, `${pick(CLASS_NAMES[c].zh, CLASS_NAMES[c].en)} ${markOf(c)} ${r.counts[side][c] ?? 0}`),
      );
    const acc = (side: 'white' | 'black') => {
      const a = shownAccuracy(r, side);
      return a === null ? '' : pick(`准确率 ${a.toFixed(0)}%`, `accuracy ${a.toFixed(0)}%`);
    };
    const summary = h(
      'table',
      { class: 'review-summary', testid: 'review-accuracy' },
      ...sides.map((side) => h('tr', { 'data-side': side }, h('th', {}, sideName(side)), h('td', {}, ...counts(side)), h('td', { testid: 'review-accuracy-value' }, acc(side)))),
    );
    const graph = evalGraph(graphValues(r), ply, (p) => o.onJump(p), pick('评估曲线', 'Evaluation graph'));
    const learner = o.myColor;
    const list = keyMoments(r, learner, showOthers);
    const othersCount = learner ? moments(r, learner === 'white' ? 'black' : 'white').length : 0;
    const keyList = h(
      'ol',
      { class: 'review-moments' },
      ...list.map((m) =>
        h(
          'li',
          { testid: 'review-moment', 'data-ply': String(m.ply), 'data-side': moverOf(m.ply), class: m.ply === ply ? 'current' : '' },
          h('a', { href: '#', class: `moment-move ${m.class}`, onclick: (e) => (e.preventDefault(), o.onJump(m.ply)) }, moveLabel(m)),
          ' ',
          h('span', { class: 'moment-text' }, momentText(m)),
        ),
      ),
    );
    const othersToggle =
      learner && othersCount > 0
        ? h(
            'label',
            { class: 'hint review-others' },
            h('input', { type: 'checkbox', testid: 'review-show-others', checked: showOthers, onchange: () => ((showOthers = !showOthers), render()) }),
            ' ',
            o.againstComputer ? pick('显示电脑的失误', "Show the computer's mistakes") : pick('显示对手的失误', "Show your opponent's mistakes"),
          )
        : null;
    const mine = learner ? exercises(r, learner) : [];
    const learnButton = mine.length
      ? h('button', { class: 'btn primary', testid: 'review-learn', onclick: () => startLearn(mine) }, pick(`从错误中学习（${mine.length}）`, `Learn from your mistakes (${mine.length})`))
      : null;
    const pgn = h(
      'a',
      { class: 'btn', testid: 'review-pgn', href: `/game/export/${encodeURIComponent(o.gameId)}?evals=true&lang=${getLang()}`, download: `guoxiang_${o.gameId}_review.pgn` },
      pick('下载带评估的 PGN', 'Download PGN with evaluations'),
    );
    const parts: (HTMLElement | SVGSVGElement)[] = [summary, graph, explanation(r)];
    if (r.browser) parts.push(h('p', { class: 'hint', testid: 'review-browser-made' }, pick('这份复盘在玩家的浏览器里完成，错着经服务器复查。', "This review was searched in a player's browser; the server checked its marks.")));
    const noneMine = learner ? moments(r, learner).length === 0 : moments(r, null).length === 0;
    parts.push(h('h4', {}, pick('关键时刻', 'Key moments')));
    if (noneMine) parts.push(h('p', { class: 'muted', testid: 'review-no-mistakes' }, pick('没有错着，下得好！', 'No mistakes: well played!')));
    if (list.length) parts.push(keyList);
    if (othersToggle) parts.push(othersToggle);
    if (learnButton) parts.push(h('p', { class: 'review-actions' }, learnButton));
    parts.push(details(r, sides, pgn));
    const auto = autoReviewToggle();
    if (auto) parts.push(auto);
    return parts;
  }

  /** The figures, for whoever wants them: accuracy, average loss, the evaluation and loss of the move shown, and the
   * PGN with evaluations. */
  let detailsOpen = false;
  function details(r: GameReviewData, sides: readonly ('white' | 'black')[], pgn: HTMLElement): HTMLElement {
    const fmt = (v: number | null) => (v === null ? '–' : v.toFixed(1));
    const table = h(
      'table',
      { class: 'review-summary' },
      h('tr', {}, h('th', {}, ''), h('th', {}, pick('准确率', 'Accuracy')), h('th', {}, pick('平均损失（厘兵）', 'Avg. loss (cp)'))),
      ...sides.map((side) => h('tr', {}, h('th', {}, sideName(side)), h('td', {}, r.accuracy[side] === null ? '–' : `${fmt(r.accuracy[side])}%`), h('td', {}, fmt(r.acpl[side])))),
    );
    const m = ply > 0 ? r.moves[ply - 1] : undefined;
    const ev = (e: ReviewedMove['eval']) => ('cp' in e ? `${e.cp >= 0 ? '+' : '−'}${(Math.abs(e.cp) / 100).toFixed(2)}` : e.mate === 0 ? '#' : `#${e.mate}`);
    const moveFigures = m
      ? h(
          'p',
          { class: 'muted' },
          pick(
            `${moveLabel(m)}：走后评估 ${ev(m.eval)}（白方视角），损失 ${m.loss.toFixed(1)}% 胜率。` + (m.best_line.length ? `引擎的着法：${m.best_line.slice(0, 6).map(san).join(' ')}` : ''),
            `${moveLabel(m)}: evaluation after it ${ev(m.eval)} (White's view), ${m.loss.toFixed(1)}% winning chances lost.` + (m.best_line.length ? ` Engine's line: ${m.best_line.slice(0, 6).map(san).join(' ')}` : ''),
          ),
        )
      : null;
    const d = h('details', { class: 'review-details', testid: 'review-details' }, h('summary', {}, pick('详情', 'Details')), table, moveFigures, h('p', { class: 'review-actions' }, pgn));
    d.open = detailsOpen;
    d.addEventListener('toggle', () => (detailsOpen = d.open));
    return d;
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

  /** "6.马c3??": the move once, with its number and mark. */
  function moveLabel(m: ReviewedMove): string {
    const n = Math.ceil(m.ply / 2);
    return `${n}.${m.ply % 2 === 1 ? '' : '..'}${san(m.san)}${markOf(m.class) ?? ''}`;
  }

  /** A move's sentence without the move in front of it (the page writes the move once, before the sentence). */
  function momentText(m: ReviewedMove): string {
    return withoutMove(sentence(m.comment), [m.san, chineseSan(m.san)]);
  }

  /** What the move now on the board was, and why. */
  function explanation(r: GameReviewData): HTMLElement {
    const m = ply > 0 ? r.moves[ply - 1] : undefined;
    if (!m) return h('p', { class: 'review-comment muted', testid: 'review-comment' }, pick('走到一步棋，看它的评价。', 'Step to a move to see how it was judged.'));
    const name = CLASS_NAMES[m.class];
    const text = m.comment ? momentText(m) : '';
    const better =
      !text && m.best && m.best !== m.uci && m.best_line.length && m.class !== 'best' && m.class !== 'excellent' && m.class !== 'good'
        ? pick(`更好的是 ${san(m.best_line[0])}。`, `Better was ${san(m.best_line[0])}.`)
        : '';
    return h(
      'div',
      { class: `review-comment ${m.class}`, testid: 'review-comment', 'data-class': m.class, 'data-ply': String(m.ply) },
      h('strong', {}, `${moveLabel(m)} ${pick(name.zh, name.en)}`),
      text ? h('p', { testid: 'review-sentence' }, text) : null,
      better ? h('p', { class: 'muted' }, better) : null,
    );
  }

  // ---- learn from your mistakes, on the main board ----

  function startLearn(list: ReviewedMove[]): void {
    const b = o.mainBoard();
    if (!b) return;
    const bar = h('div', { class: 'review-learn-bar', testid: 'review-learn-bar' });
    b.col.prepend(bar);
    learn = { list, s: startLearning(list.length), feedback: '', ok: null, bar };
    o.onBoardTaken(true);
    render();
    b.el.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  function stopLearn(): void {
    const l = learn;
    if (!l) return;
    learn = null;
    l.bar.remove();
    const b = o.mainBoard();
    if (b) {
      b.el.removeAttribute('data-learn');
      b.api.setAutoShapes([]);
    }
    o.onBoardTaken(false);
    render();
  }

  function current(): { m: ReviewedMove; before: ReturnType<typeof replay>['positions'][number] } | null {
    const l = learn;
    if (!l || learnFinished(l.s)) return null;
    const m = l.list[l.s.index];
    const before = line.positions[m.ply - 1];
    return before ? { m, before } : null;
  }

  function renderLearn(): void {
    const l = learn;
    const b = o.mainBoard();
    if (!l || !b) return;
    const close = h('button', { class: 'btn', testid: 'review-learn-close', onclick: () => stopLearn() }, pick('返回对局', 'Back to the game'));
    if (learnFinished(l.s)) {
      const solved = l.s.results.filter((x) => x === 'solved').length;
      replace(
        l.bar,
        h('p', { testid: 'review-learn-done' }, pick(`完成！你找到了 ${solved}/${l.list.length} 步更好的着法。`, `Done! You found ${solved} of ${l.list.length} better moves.`)),
        h('p', { class: 'review-actions' }, close),
      );
      return;
    }
    const cur = current();
    if (!cur) return;
    const { m, before } = cur;
    const color = moverOf(m.ply);
    const result = l.s.results[l.s.index];
    const fen = result === 'solved' && l.solved ? l.solved.fen : fenOf(before);
    b.api.set({
      fen,
      orientation: o.myColor ?? color,
      turnColor: color,
      check: checkColor(before),
      lastMove: result === 'solved' && l.solved ? l.solved.lastMove : undefined,
      movable: { free: false, color: result === 'open' ? color : undefined, dests: result === 'open' ? destsOf(before) : new Map() },
      premovable: { enabled: false },
    });
    b.api.setAutoShapes(result === 'shown' && m.best ? [{ orig: m.best.slice(0, 2) as Key, dest: m.best.slice(2, 4) as Key, brush: 'green' }] : []);
    mirror(b.el, fen, o.myColor ?? color);
    b.el.dataset.learn = '1';
    b.el.dataset.turn = color;
    const next = h('button', { class: result === 'open' ? 'btn' : 'btn primary', testid: 'review-learn-next', onclick: () => step({ t: 'next' }) }, pick('下一题', 'Next'));
    const show = h('button', { class: 'btn', testid: 'review-learn-solution', onclick: () => solution(m) }, pick('显示答案', 'Show the answer'));
    const prompt = h(
      'p',
      { testid: 'review-learn-prompt' },
      h('strong', {}, pick(`第 ${l.s.index + 1}/${l.list.length} 题`, `Exercise ${l.s.index + 1} of ${l.list.length}`)),
      ' ',
      pick(`对局中你走了 ${moveLabel(m)}。在棋盘上找出更好的着法。`, `In the game you played ${moveLabel(m)}. Find a better move on the board.`),
    );
    const fb = h(
      'p',
      { class: `learn-feedback ${l.ok === true ? 'ok' : l.ok === false ? 'wrong' : ''}`, testid: 'review-learn-feedback', 'aria-live': 'polite' },
      l.feedback,
    );
    replace(l.bar, prompt, fb, h('p', { class: 'review-actions' }, show, ' ', next, ' ', close));
  }

  function boardMove(from: Key, to: Key): void {
    const cur = current();
    const b = o.mainBoard();
    if (!cur || !b || !learn || learn.s.results[learn.s.index] !== 'open') return;
    const { m, before } = cur;
    const go = (role?: Role) => {
      const nm = legalMove(before, from, to, role);
      if (!nm) return render();
      const after = before.clone();
      after.play(nm);
      void tryMove(m, standardUci(before, nm), { fen: fenOf(after), lastMove: [from, to] });
    };
    if (isPromotion(before, from, to)) choosePromotion(b.promo, moverOf(m.ply), (r) => (r ? go(r) : render()));
    else go();
  }

  async function tryMove(m: ReviewedMove, uci: string, solved: { fen: string; lastMove: [Key, Key] }): Promise<void> {
    const l = learn;
    if (!l) return;
    l.feedback = pick('引擎在想……', 'The engine is thinking…');
    l.ok = null;
    renderFeedbackOnly();
    try {
      const a = await request<ReviewTryAnswer>('POST', `${url}/try`, { ply: m.ply, uci } satisfies ReviewTryRequest);
      if (learn !== l) return;
      const why = sentence(a.reason);
      if (a.correct) {
        l.s = learnStep(l.s, { t: 'solved' });
        l.solved = solved;
        l.feedback = pick('✓ 对了！', '✓ Right!') + (why ? ' ' + why : '');
        l.ok = true;
      } else {
        l.feedback = '✗ ' + (why || pick('再想想。', 'Think again.'));
        l.ok = false;
      }
    } catch (e) {
      l.feedback = String(e);
    }
    render();
  }

  function renderFeedbackOnly(): void {
    const fb = learn?.bar.querySelector<HTMLElement>('[data-testid="review-learn-feedback"]');
    if (fb && learn) fb.textContent = learn.feedback;
  }

  function solution(m: ReviewedMove): void {
    const l = learn;
    if (!l) return;
    l.s = learnStep(l.s, { t: 'shown' });
    const best = m.best_line[0];
    const why = momentText(m);
    // A comment whose move was taken off its head goes on from the move ("In the game, 2.Ba6?? leaves …"); a whole
    // sentence follows a colon.
    const joinEn = /^[a-z]/.test(why) ? ' ' : ': ';
    l.feedback = pick(`答案：${best ? san(best) : m.best}。`, `The answer: ${best ? san(best) : m.best}.`) + (why ? ' ' + pick(`对局中的 ${moveLabel(m)}：`, `In the game, ${moveLabel(m)}${joinEn}`) + why : '');
    l.ok = null;
    render();
  }

  function step(e: { t: 'next' } | { t: 'previous' }): void {
    const l = learn;
    if (!l) return;
    l.s = learnStep(l.s, e);
    l.solved = undefined;
    l.feedback = '';
    l.ok = null;
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
    boardMove,
    destroy() {
      destroyed = true;
      local?.worker.terminate();
      local = null;
      window.clearTimeout(timer);
      learn?.bar.remove();
      offLang();
    },
  };
}

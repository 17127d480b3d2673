// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board: load a PGN, a FEN or a finished game; step through it; the server engine's evaluation and
// best line for the position shown; an evaluation graph over the whole game (each position at a small depth).

import type { Key } from '@lichess-org/chessground/types';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import type { Chess } from 'chessops/chess';
import { api } from '../api';
import type { Analysis, Score } from '../api';
import { errorText, toast } from '../app';
import type { Page } from '../app';
import {
  checkColor,
  chineseSan,
  destsOf,
  fenOf,
  INITIAL_FEN,
  isPromotion,
  lastMoveKeys,
  legalMove,
  positionFromFen,
  replay,
  standardUci,
} from '../chess';
import type { Line } from '../chess';
import { h, replace } from '../dom';
import { pick, t } from '../i18n';
import { makeBoard, mirror } from '../ui/board';
import { evalGraph } from '../ui/chart';
import { getSetting, setSetting } from '../settings';
import { choosePromotion } from '../ui/promotion';

/** White's view of a score in centipawns (mate = ±(10000 − n)); the engine reports the side to move's. */
function whiteCp(score: Score, turn: 'white' | 'black'): number {
  const v = 'mate' in score ? (score.mate > 0 ? 10000 - score.mate : -10000 - score.mate) : score.cp;
  return turn === 'white' ? v : -v;
}

function scoreText(score: Score, turn: 'white' | 'black'): string {
  if ('mate' in score) {
    const m = turn === 'white' ? score.mate : -score.mate;
    return `#${m}`;
  }
  const cp = turn === 'white' ? score.cp : -score.cp;
  return (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2);
}

export function analysisPage(gameId: string | null, query: URLSearchParams): Page {
  let initialFen: string | null = null;
  let line: Line = replay(null, []);
  let ply = 0;
  let graph: (number | null)[] = [];
  let graphRunning = false;
  let destroyed = false;
  let title = '';

  const boardEl = h('div', { class: 'cg-wrap main-board', testid: 'board' });
  // White's share of the bar: 50% for equality, saturating around ±4 pawns.
  const barWhite = h('div', { class: 'eval-white' });
  const bar = h('div', { class: 'eval-bar', testid: 'eval-bar', title: t('analysis.engine') }, barWhite);
  function setBar(cp: number | null): void {
    const share = cp === null ? 50 : 50 + 50 * Math.tanh(cp / 400);
    barWhite.style.width = `${share.toFixed(1)}%`;
  }
  const titleEl = h('div', { class: 'analysis-title', testid: 'analysis-title', translate: 'no' });
  const evalEl = h('div', { class: 'engine-eval', testid: 'engine-eval', 'aria-live': 'polite' });
  const bestEl = h('div', { class: 'best-line', testid: 'best-line' });
  const movesEl = h('div', { class: 'move-list', testid: 'move-list' });
  const navEl = h('div', { class: 'nav-buttons' });
  const graphEl = h('div', { class: 'graph-box', testid: 'eval-graph' });
  const progressEl = h('div', { class: 'progress', testid: 'eval-progress' });
  const input = h('textarea', { class: 'pgn-input', testid: 'pgn-input', rows: 5, placeholder: t('analysis.paste') });
  const openingEl = h('div', { class: 'opening', testid: 'opening-name' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const lettersBox = h('input', {
    type: 'checkbox',
    testid: 'chinese-letters',
    checked: getSetting('chineseLetters'),
    onchange: () => {
      setSetting('chineseLetters', lettersBox.checked);
      renderMoves();
      requestEval();
    },
  });
  const graphBtn = h('button', { class: 'btn', testid: 'analyse-game', onclick: () => void runGraph() }, t('analysis.graph'));
  let orientation: 'white' | 'black' = 'white';

  const el = h(
    'div',
    { class: 'page game-page analysis-page' },
    h('div', { class: 'board-col' }, titleEl, bar, h('div', { class: 'board-box' }, boardEl, promoEl)),
    h(
      'div',
      { class: 'side' },
      h('div', { class: 'engine-box' }, h('h3', {}, t('analysis.engine')), evalEl, bestEl),
      openingEl,
      movesEl,
      navEl,
      h('div', { class: 'graph-section' }, graphBtn, progressEl, graphEl),
      h('label', { class: 'check' }, lettersBox, ' ', t('settings.chineseLetters'), ' ', h('span', { lang: 'zh', class: 'hint' }, '(马f3)')),
      h(
        'div',
        { class: 'load-box' },
        h('h3', {}, t('analysis.load')),
        input,
        h(
          'div',
          { class: 'form-buttons' },
          h('button', { class: 'btn primary', testid: 'load-pgn', onclick: () => loadText(input.value) }, t('analysis.loadButton')),
          h(
            'button',
            {
              class: 'btn',
              testid: 'reset-board',
              onclick: () => {
                setLine(null, [], '');
              },
            },
            t('analysis.reset'),
          ),
        ),
      ),
    ),
  );

  const board = makeBoard(boardEl, {
    movable: { free: false, color: 'white', showDests: true, events: { after: onMove } },
  });

  function pos(): Chess {
    return line.positions[ply];
  }

  function onMove(orig: Key, dest: Key): void {
    const p = pos();
    if (isPromotion(p, orig, dest) && legalMove(p, orig, dest, 'queen')) {
      choosePromotion(promoEl, p.turn, (role) => {
        const m = role ? legalMove(p, orig, dest, role) : null;
        if (m) play(standardUci(p, m));
        else draw();
      });
      return;
    }
    const m = legalMove(p, orig, dest);
    if (!m) {
      draw();
      return;
    }
    play(standardUci(p, m));
  }

  function play(uci: string): void {
    if (line.moves[ply]?.uci === uci) {
      ply++;
    } else {
      const kept = line.moves.slice(0, ply).map((x) => x.uci);
      line = replay(initialFen, [...kept, uci]);
      ply = kept.length + 1;
      graph = graph.slice(0, ply);
    }
    update();
  }

  function draw(): void {
    const p = pos();
    const fen = fenOf(p);
    board.set({
      fen,
      orientation,
      turnColor: p.turn,
      check: checkColor(p),
      lastMove: lastMoveKeys(line.moves[ply - 1]?.uci),
      movable: { free: false, color: p.turn, dests: destsOf(p) },
    });
    mirror(boardEl, fen, orientation);
    boardEl.dataset.ply = String(ply);
  }

  function renderMoves(): void {
    const zh = getSetting('chineseLetters');
    const start = line.positions[0];
    const rows: HTMLElement[] = [];
    const cell = (i: number) =>
      h(
        'button',
        { class: 'mv' + (i + 1 === ply ? ' current' : ''), 'data-ply': String(i + 1), onclick: () => goto(i + 1) },
        zh ? chineseSan(line.moves[i].san) : line.moves[i].san,
      );
    let i = 0;
    let n = start.fullmoves;
    if (start.turn === 'black' && line.moves.length) {
      rows.push(h('div', { class: 'mrow' }, h('span', { class: 'num' }, `${n}.`), h('span', { class: 'mv empty' }, '…'), cell(0)));
      i = 1;
      n++;
    }
    for (; i < line.moves.length; i += 2, n++) {
      rows.push(h('div', { class: 'mrow' }, h('span', { class: 'num' }, `${n}.`), cell(i), i + 1 < line.moves.length ? cell(i + 1) : null));
    }
    if (!rows.length) rows.push(h('div', { class: 'empty-moves' }, t('analysis.noMoves')));
    replace(movesEl, rows);
    movesEl.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  function renderNav(): void {
    const b = (testid: string, label: string, title: string, target: number, disabled: boolean) =>
      h('button', { class: 'btn nav', testid, title, 'aria-label': title, disabled, onclick: () => goto(target) }, label);
    replace(
      navEl,
      b('nav-first', '«', t('nav.first'), 0, ply === 0),
      b('nav-prev', '‹', t('nav.prev'), ply - 1, ply === 0),
      b('nav-next', '›', t('nav.next'), ply + 1, ply >= line.moves.length),
      b('nav-last', '»', t('nav.last'), line.moves.length, ply >= line.moves.length),
      h(
        'button',
        {
          class: 'btn nav',
          testid: 'flip',
          title: t('game.flip'),
          'aria-label': t('game.flip'),
          onclick: () => {
            orientation = orientation === 'white' ? 'black' : 'white';
            draw();
          },
        },
        '⇅',
      ),
    );
  }

  function renderGraph(): void {
    if (!graph.some((v) => v !== null)) {
      replace(graphEl);
      return;
    }
    const values = line.positions.map((_, i) => graph[i] ?? null);
    replace(graphEl, evalGraph(values, ply, goto, t('analysis.graph')));
  }

  function goto(p: number): void {
    ply = Math.max(0, Math.min(line.moves.length, p));
    update();
  }

  // ---- engine ----
  let evalReq = 0;
  let evalTimer = 0;
  function requestEval(): void {
    const req = ++evalReq;
    window.clearTimeout(evalTimer);
    const p = pos();
    if (p.isEnd()) {
      setBar(p.isCheckmate() ? (p.turn === 'white' ? -10000 : 10000) : 0);
      const o = p.outcome();
      evalEl.textContent = p.isCheckmate()
        ? t('analysis.mate')
        : o && !o.winner
          ? p.isStalemate()
            ? t('analysis.stalemate')
            : t('analysis.drawn')
          : t('analysis.over');
      replace(bestEl);
      return;
    }
    evalEl.textContent = t('analysis.thinking');
    evalEl.classList.add('busy');
    evalTimer = window.setTimeout(() => {
      api
        .analyse({ fen: initialFen ?? undefined, moves: line.moves.slice(0, ply).map((m) => m.uci), depth: 18, movetime_ms: 1500 })
        .then((a: Analysis) => {
          if (req !== evalReq || destroyed) return;
          evalEl.classList.remove('busy');
          const l = a.lines[0];
          if (!l) {
            evalEl.textContent = t('analysis.over');
            replace(bestEl);
            return;
          }
          setBar(whiteCp(l.score, a.turn));
          if (graph[ply] === undefined || graph[ply] === null) {
            graph[ply] = whiteCp(l.score, a.turn);
            renderGraph();
          }
          evalEl.textContent = t('analysis.evalLine', { score: scoreText(l.score, a.turn), depth: String(l.depth) });
          const zh = getSetting('chineseLetters');
          const p0 = line.positions[ply];
          let n = p0.fullmoves;
          let white = p0.turn === 'white';
          const parts: string[] = [];
          l.pv_san.forEach((san, i) => {
            const s = zh ? chineseSan(san) : san;
            if (white) parts.push(`${n}. ${s}`);
            else parts.push(i === 0 ? `${n}… ${s}` : s);
            if (!white) n++;
            white = !white;
          });
          replace(bestEl, h('span', { class: 'hint' }, t('analysis.bestLine')), ' ', parts.join(' '));
        })
        .catch((e: unknown) => {
          if (req !== evalReq) return;
          evalEl.classList.remove('busy');
          evalEl.textContent = errorText(e);
        });
    }, 250);
  }

  async function runGraph(): Promise<void> {
    if (graphRunning) return;
    graphRunning = true;
    graphBtn.disabled = true;
    const total = line.positions.length;
    const moves = line.moves.map((m) => m.uci);
    const snapshot = line;
    graph = graph.slice(0, total);
    try {
      for (let i = 0; i < total; i++) {
        if (destroyed || line !== snapshot) break;
        progressEl.textContent = t('analysis.progress', { done: String(i), total: String(total) });
        progressEl.style.setProperty('--p', `${(i / total) * 100}%`);
        const p = snapshot.positions[i];
        if (p.isEnd()) {
          graph[i] = p.isCheckmate() ? (p.turn === 'white' ? -10000 : 10000) : 0;
        } else {
          const a = await api.analyse({ fen: initialFen ?? undefined, moves: moves.slice(0, i), depth: 8, movetime_ms: 250 });
          const l = a.lines[0];
          graph[i] = l ? whiteCp(l.score, a.turn) : null;
        }
        renderGraph();
      }
      if (!destroyed && line === snapshot) progressEl.textContent = t('analysis.progressDone', { total: String(total) });
    } catch (e) {
      progressEl.textContent = errorText(e);
    } finally {
      graphRunning = false;
      graphBtn.disabled = false;
    }
  }

  // ---- loading ----
  let openingReq = 0;
  function update(): void {
    draw();
    renderMoves();
    renderNav();
    renderGraph();
    requestEval();
    const req = ++openingReq;
    if (!initialFen && ply > 0 && ply <= 40) {
      api
        .opening(line.moves.slice(0, ply).map((m) => m.uci))
        .then((o) => {
          if (req === openingReq) openingEl.textContent = o ? `${o.eco} · ${pick(o.name_zh, o.name_en)}` : '';
        })
        .catch(() => undefined);
    } else if (ply === 0) openingEl.textContent = '';
  }

  function setLine(fen: string | null, uci: string[], name: string, at?: number): void {
    initialFen = fen && fen !== INITIAL_FEN ? fen : null;
    line = replay(initialFen, uci);
    ply = at === undefined ? line.moves.length : Math.min(at, line.moves.length);
    graph = [];
    title = name;
    titleEl.textContent = title;
    progressEl.textContent = '';
    update();
  }

  function loadText(text: string): void {
    const s = text.trim();
    if (!s) return;
    const asFen = positionFromFen(s);
    if (asFen && !s.includes('[') && s.split('/').length === 8) {
      setLine(fenOf(asFen), [], t('analysis.fromFen'));
      return;
    }
    const games = parsePgn(s);
    const g = games[0];
    if (!g) {
      toast(t('analysis.badInput'));
      return;
    }
    const start = startingPosition(g.headers);
    if (start.isErr) {
      toast(t('analysis.badInput'));
      return;
    }
    const p = start.value;
    const startFen = fenOf(p);
    const uci: string[] = [];
    let bad: string | null = null;
    for (const node of g.moves.mainline()) {
      const m = parseSan(p, node.san);
      if (!m || !('from' in m)) {
        bad = node.san;
        break;
      }
      uci.push(standardUci(p, m));
      p.play(m);
    }
    if (bad) toast(t('analysis.badMove', { san: bad }));
    if (!uci.length && !g.headers.has('FEN') && !bad) {
      toast(t('analysis.badInput'));
      return;
    }
    const w = g.headers.get('White');
    const b = g.headers.get('Black');
    setLine(startFen, uci, w && b ? `${w} – ${b}` : '', 0);
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft') goto(ply - 1);
    else if (e.key === 'ArrowRight') goto(ply + 1);
    else if (e.key === 'ArrowUp' || e.key === 'Home') goto(0);
    else if (e.key === 'ArrowDown' || e.key === 'End') goto(line.moves.length);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  if (gameId) {
    api
      .game(gameId)
      .then((v) => {
        const names = `${v.white.is_engine ? t('engine.name', { level: String(v.white.engine_level) }) : v.white.name} – ${
          v.black.is_engine ? t('engine.name', { level: String(v.black.engine_level) }) : v.black.name
        } (${v.result})`;
        setLine(v.initial_fen, v.moves_uci, names, 0);
      })
      .catch((e: unknown) => {
        toast(errorText(e));
        setLine(null, [], '');
      });
  } else {
    // `?fen=…&moves=e2e4,e7e5`: a position and a line from it (the puzzle trainer links here); the line stops at its
    // first move that is not legal, and the board starts at its beginning.
    const fen = query.get('fen');
    const moves = (query.get('moves') ?? '').split(',').filter((u) => /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(u));
    setLine(fen && positionFromFen(fen) ? fen : null, moves.slice(0, 300), '', 0);
  }

  return {
    el,
    destroy() {
      destroyed = true;
      window.clearTimeout(evalTimer);
      document.removeEventListener('keydown', onKey);
      board.destroy();
    },
  };
}

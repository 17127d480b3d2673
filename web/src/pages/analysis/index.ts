// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board: a move tree with variations (PGN in and out with comments and NAGs), the engine's lines
// while it deepens — in a Web Worker running our WebAssembly build, or from the server over `/ws/analysis` when the
// browser cannot — (arrows on the board, an evaluation bar), an evaluation graph over the main line, and the
// opening name. Loads a finished game by id, `?fen=…&moves=…`, a pasted PGN or
// FEN. The state and its reducer are ctrl.ts; this file wires the board, the views and the stream to it.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import { api } from '../../api';
import { errorText, toast } from '../../app';
import type { Page } from '../../app';
import { checkColor, destsOf, isPromotion, legalMove, positionFromFen, standardUci } from '../../chess';
import { onLangChange, pick, t } from '../../i18n';
import { h } from '../../dom';
import { getSetting, setSetting } from '../../settings';
import { fromMoves, isMainline, mainline, movesTo, nodeAt, setComment, START_FEN, toPgn } from '../../analysis/tree';
import { makeBoard, mirror } from '../../ui/board';
import { evalGraph } from '../../ui/chart';
import { enginePanel, whiteCp } from '../../ui/engine';
import { evalBar } from '../../ui/evalbar';
import { explorerPanel } from '../../ui/explorer';
import { choosePromotion } from '../../ui/promotion';
import { markCurrent, renderTree } from '../../ui/tree';
import { finishedValue, mainlineKey, runGraph } from './graph';
import { fromQuery, parseInput } from './load';
import { currentFen, initialState, needsSearch, reduce } from './ctrl';
import type { Action, State } from './ctrl';
import { AnalysisStream } from './stream';
import { browserEngineAvailable, WorkerAnalysis, WorkerEvaluator } from '../../engine/client';
import { layout } from './view';
import { displayName } from '../../ui/names';

const ENGINE_KEY = 'gx.analysis.engine';

function savedEngine(): { on: boolean; multipv: number } {
  try {
    const v = JSON.parse(localStorage.getItem(ENGINE_KEY) ?? '{}') as { on?: unknown; multipv?: unknown };
    return { on: v.on !== false, multipv: typeof v.multipv === 'number' ? v.multipv : 1 };
  } catch {
    return { on: true, multipv: 1 };
  }
}

export function analysisPage(gameId: string | null, query: URLSearchParams): Page {
  const saved = savedEngine();
  let s: State = initialState(fromMoves(null, []), saved.on, saved.multipv);
  let orientation: 'white' | 'black' = 'white';
  let destroyed = false;
  let graph: (number | null)[] = [];
  let graphKey = '';
  let graphRunning = false;

  const engine = enginePanel({
    onToggle: (on) => dispatch({ type: 'engine', on }),
    onMultipv: (n) => dispatch({ type: 'multipv', n }),
    onPlay: (uci) => dispatch({ type: 'play', uci }),
    onResume: () => dispatch({ type: 'reconnected' }),
  });
  const bar = evalBar(t('analysis.engine'));
  const v = layout(engine, bar, {
    nav: (to) => dispatch({ type: 'nav', to }),
    flip: () => {
      orientation = orientation === 'white' ? 'black' : 'white';
      drawBoard();
    },
    promote: (toMain) => dispatch({ type: 'promote', toMain }),
    remove: () => dispatch({ type: 'delete' }),
    comment: (text) => {
      setComment(s.tree, s.path, text);
      dispatch({ type: 'comment' });
    },
    letters: (on) => {
      setSetting('chineseLetters', on);
      render(s, true);
    },
    graph: () => void graphAll(),
    load: (text) => loadText(text),
    reset: () => dispatch({ type: 'load', tree: fromMoves(null, []), title: '' }),
    exportPgn: () => {
      v.output.hidden = false;
      v.output.value = toPgn(s.tree);
      v.output.select();
    },
  });
  // The opening explorer under the tree tools, folded until asked for (it queries the server at every move while
  // open): a move clicked there is played on the board.
  const explorer = explorerPanel();
  explorer.onMove((uci) => dispatch({ type: 'play', uci }));
  const explorerTitle = h('summary', { testid: 'explorer-toggle' }, pick('开局库', 'Opening explorer'));
  const explorerBox = h('details', { class: 'explorer-box' }, explorerTitle, explorer.el);
  const showExplorer = () => {
    if (explorerBox.open) explorer.show(s.tree.fen === START_FEN ? '' : s.tree.fen, movesTo(s.tree, s.path));
  };
  explorerBox.addEventListener('toggle', showExplorer);
  const offExplorerLang = onLangChange(() => (explorerTitle.textContent = pick('开局库', 'Opening explorer')));
  v.toolsEl.after(explorerBox);

  const board = makeBoard(v.boardEl, {
    movable: { free: false, color: 'white', showDests: true, events: { after: onMove } },
  });

  function onMove(orig: Key, dest: Key): void {
    const p = positionFromFen(currentFen(s));
    if (!p) return;
    if (isPromotion(p, orig, dest) && legalMove(p, orig, dest, 'queen')) {
      choosePromotion(v.promoEl, p.turn, (role) => {
        const m = role ? legalMove(p, orig, dest, role) : null;
        if (m) dispatch({ type: 'play', uci: standardUci(p, m) });
        else drawBoard();
      });
      return;
    }
    const m = legalMove(p, orig, dest);
    if (m) dispatch({ type: 'play', uci: standardUci(p, m) });
    else drawBoard();
  }

  // ---- the stream ----
  // The engine runs in this browser (a Web Worker with our WebAssembly build) when it can, so the server's cores
  // stay free (issue 43); the server's stream is the fallback for browsers without WebAssembly.
  const server = () =>
    new AnalysisStream(
      (msg) => dispatch({ type: 'server', msg }),
      () => dispatch({ type: 'reconnected' }),
    );
  let stream: AnalysisStream | WorkerAnalysis = browserEngineAvailable()
    ? new WorkerAnalysis(
        (msg) => dispatch({ type: 'server', msg }),
        () => {
          stream = server();
          dispatch({ type: 'reconnected' });
        },
      )
    : server();
  /** The evaluation graph's engine: a worker of its own, so the live lines go on meanwhile. */
  const evaluator = browserEngineAvailable() ? new WorkerEvaluator() : null;
  let askTimer = 0;
  /** Asks for the position shown when the engine should search it (a short delay, for stepping quickly). */
  function syncEngine(): void {
    window.clearTimeout(askTimer);
    if (!s.engine.on || !s.visible) {
      stream.close();
      return;
    }
    if (!needsSearch(s)) return;
    const fen = currentFen(s);
    if (finishedValue(fen) !== null) return;
    askTimer = window.setTimeout(() => {
      if (destroyed || !needsSearch(s) || currentFen(s) !== fen) return;
      const id = stream.analyse({
        fen: s.tree.fen === START_FEN ? undefined : s.tree.fen,
        moves: movesTo(s.tree, s.path),
        multipv: s.engine.multipv,
      });
      if (id !== null) dispatch({ type: 'requested', id, fen });
    }, 120);
  }

  function dispatch(a: Action): void {
    if (destroyed) return;
    const prev = s;
    s = reduce(s, a);
    if (s.engine.on !== prev.engine.on || s.engine.multipv !== prev.engine.multipv) {
      localStorage.setItem(ENGINE_KEY, JSON.stringify({ on: s.engine.on, multipv: s.engine.multipv }));
    }
    render(prev);
    syncEngine();
  }

  // ---- drawing ----
  function drawBoard(): void {
    const fen = currentFen(s);
    const p = positionFromFen(fen);
    if (!p) return;
    const node = nodeAt(s.tree, s.path);
    const last = node ? [node.uci.slice(0, 2), node.uci.slice(2, 4)] : undefined;
    board.set({
      fen,
      orientation,
      turnColor: p.turn,
      check: checkColor(p),
      lastMove: last as Key[] | undefined,
      movable: { free: false, color: p.turn, dests: destsOf(p) },
    });
    mirror(v.boardEl, fen, orientation);
    v.boardEl.dataset.ply = String(s.path.length);
    v.boardEl.dataset.mainline = String(isMainline(s.tree, s.path));
  }

  function drawEngine(): void {
    const fen = currentFen(s);
    const p = positionFromFen(fen);
    const end = p?.isCheckmate()
      ? t('analysis.mate')
      : p?.isStalemate()
        ? t('analysis.stalemate')
        : p?.isEnd()
          ? p.outcome()?.winner
            ? t('analysis.over')
            : t('analysis.drawn')
          : null;
    const shown = s.engine.fen === fen ? s.engine : { ...s.engine, lines: [] };
    engine.render(shown, fen, getSetting('chineseLetters'), end);
    const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    const best = shown.lines[0];
    bar.set(end !== null ? finishedValue(fen) : best ? whiteCp(best.score, turn) : null);
    const shapes: DrawShape[] = shown.lines
      .filter((l) => l.pv[0])
      .map((l, i) => ({ orig: l.pv[0].slice(0, 2) as Key, dest: l.pv[0].slice(2, 4) as Key, brush: i === 0 ? 'paleBlue' : 'paleGrey' }));
    board.setAutoShapes(shapes);
    if (best && isMainline(s.tree, s.path) && graph[s.path.length] == null && graphKey === mainlineKey(s.tree)) {
      graph[s.path.length] = whiteCp(best.score, turn);
      drawGraph();
    }
  }

  function drawGraph(): void {
    if (!graph.some((x) => x !== null && x !== undefined)) {
      v.graphEl.replaceChildren();
      return;
    }
    const n = mainline(s.tree).length + 1;
    const values = Array.from({ length: n }, (_, i) => graph[i] ?? null);
    const cursor = isMainline(s.tree, s.path) ? s.path.length : -1;
    const goto = (ply: number) => dispatch({ type: 'goto', path: mainline(s.tree).slice(0, ply).map((x) => x.id) });
    v.graphEl.replaceChildren(evalGraph(values, cursor, goto, t('analysis.graph')));
  }

  let openingReq = 0;
  function drawOpening(): void {
    const req = ++openingReq;
    const moves = movesTo(s.tree, s.path);
    if (s.tree.fen !== START_FEN || !moves.length || moves.length > 40) {
      if (!moves.length || s.tree.fen !== START_FEN) v.openingEl.textContent = '';
      return;
    }
    api
      .opening(moves)
      .then((o) => {
        if (req === openingReq) v.openingEl.textContent = o ? `${o.eco} · ${pick(o.name_zh, o.name_en)}` : '';
      })
      .catch(() => undefined);
  }

  function render(prev: State, force = false): void {
    const key = mainlineKey(s.tree);
    if (key !== graphKey) {
      graph = [];
      graphKey = key;
      v.progressEl.textContent = '';
    }
    const zh = getSetting('chineseLetters');
    if (force || prev.treeVersion !== s.treeVersion || prev.tree !== s.tree) {
      renderTree(v.treeEl, s.tree, s.path, { zh, empty: t('analysis.noMoves'), onSelect: (path) => dispatch({ type: 'goto', path }) });
    } else if (prev.path !== s.path) markCurrent(v.treeEl, s.path);
    if (force || prev.path !== s.path || prev.tree !== s.tree || prev.treeVersion !== s.treeVersion) {
      drawBoard();
      drawOpening();
      showExplorer();
      drawGraph();
      v.commentEl.value = (nodeAt(s.tree, s.path)?.comments ?? s.tree.comments).join(' ');
    }
    v.titleEl.textContent = s.title;
    const end = !nodeAt(s.tree, s.path)?.children.length && !(s.path.length === 0 && s.tree.children.length);
    v.buttons.first.disabled = v.buttons.prev.disabled = s.path.length === 0;
    v.buttons.next.disabled = v.buttons.last.disabled = end;
    v.buttons.promote.disabled = v.buttons.makeMain.disabled = isMainline(s.tree, s.path);
    v.buttons.remove.disabled = s.path.length === 0;
    drawEngine();
  }

  async function graphAll(): Promise<void> {
    if (graphRunning) return;
    graphRunning = true;
    v.graphBtn.disabled = true;
    const key = mainlineKey(s.tree);
    try {
      const done = await runGraph(
        s.tree,
        (i, total) => {
          v.progressEl.textContent = t('analysis.progress', { done: String(i), total: String(total) });
          v.progressEl.style.setProperty('--p', `${(i / total) * 100}%`);
        },
        (ply, cp) => {
          graph[ply] = cp;
          drawGraph();
        },
        () => destroyed || mainlineKey(s.tree) !== key,
        evaluator,
      );
      if (done) v.progressEl.textContent = t('analysis.progressDone', { total: String(mainline(s.tree).length + 1) });
    } catch (e) {
      v.progressEl.textContent = errorText(e);
    } finally {
      graphRunning = false;
      v.graphBtn.disabled = false;
    }
  }

  function loadText(text: string): void {
    const r = parseInput(text);
    if (!r.ok) {
      toast(t('analysis.badInput'));
      return;
    }
    for (const p of r.problems) toast(t('analysis.badMoveAt', { san: p.san, number: p.moveNumber }));
    dispatch({ type: 'load', tree: r.tree, title: r.fromFen ? t('analysis.fromFen') : r.title });
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    const to = ({ ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'up', ArrowDown: 'down', Home: 'first', End: 'last' } as const)[
      e.key as 'ArrowLeft'
    ];
    if (!to) return;
    e.preventDefault();
    dispatch({ type: 'nav', to });
  };
  document.addEventListener('keydown', onKey);
  const onVisibility = () => dispatch({ type: 'visible', visible: document.visibilityState !== 'hidden' });
  document.addEventListener('visibilitychange', onVisibility);

  render(s, true);
  if (gameId) {
    api
      .game(gameId)
      .then((g) => {
        // Guests' names in the page's language (游客-… in Chinese), as everywhere else.
        const name = (p: typeof g.white) => (p.is_engine ? t('engine.name', { level: String(p.engine_level) }) : displayName(p.name));
        dispatch({ type: 'load', tree: fromMoves(g.initial_fen, g.moves_uci), title: `${name(g.white)} – ${name(g.black)} (${g.result})` });
      })
      .catch((e: unknown) => toast(errorText(e)));
  } else if (query.has('fen') || query.has('moves')) {
    dispatch({ type: 'load', tree: fromQuery(query), title: '' });
  } else syncEngine();

  return {
    el: v.el,
    destroy() {
      destroyed = true;
      window.clearTimeout(askTimer);
      stream.close();
      evaluator?.close();
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('visibilitychange', onVisibility);
      offExplorerLang();
      board.destroy();
    },
  };
}

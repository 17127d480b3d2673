// SPDX-License-Identifier: GPL-3.0-or-later
// The engine panel: on/off, the number of lines (MultiPV 1–5), the evaluation of the best line with its depth,
// speed, and every line in SAN with move numbers (a click plays the line's first move). Scores come from the side
// to move's point of view, as the server sends them; the panel shows them from White's.

import type { AnalysisEnd, AnalysisLine, EngineScore } from '../protocol_analysis';
import { chineseSan } from '../chess';
import { h, replace } from '../dom';
import { pick, t } from '../i18n';
import type { Key } from '../i18n';

/** What the panel shows (the analysis page's engine state has this shape). */
export interface EngineShow {
  on: boolean;
  multipv: number;
  status: 'off' | 'idle' | 'waiting' | 'running' | 'done' | 'hidden' | 'error';
  lines: AnalysisLine[];
  depth: number;
  nps: number;
  end: AnalysisEnd | null;
  error: { zh: string; en: string } | null;
}

/** White's view of a score in centipawns (mate = ±(10000 − n)). */
export function whiteCp(score: EngineScore, turn: 'white' | 'black'): number {
  const v = 'mate' in score ? (score.mate > 0 ? 10000 - score.mate : -10000 - score.mate) : score.cp;
  return turn === 'white' ? v : -v;
}

/** `+0.35`, `-1.20`, `#3`, `#-2`, from White's point of view. */
export function scoreText(score: EngineScore, turn: 'white' | 'black'): string {
  if ('mate' in score) return `#${turn === 'white' ? score.mate : -score.mate}`;
  const cp = turn === 'white' ? score.cp : -score.cp;
  return (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2);
}

/** A line in SAN with move numbers, from the position `fen`. */
export function lineText(sans: readonly string[], fen: string, zh: boolean): string {
  const parts = fen.split(' ');
  let white = parts[1] !== 'b';
  let n = Number(parts[5]) || 1;
  return sans
    .map((san, i) => {
      const s = zh ? chineseSan(san) : san;
      const out = white ? `${n}. ${s}` : i === 0 ? `${n}… ${s}` : s;
      if (!white) n++;
      white = !white;
      return out;
    })
    .join(' ');
}

export interface EnginePanel {
  el: HTMLElement;
  /** Draws `v` for the position `fen`; `gameEnd` (mate, stalemate…) replaces the engine's lines. */
  render(v: EngineShow, fen: string, zh: boolean, gameEnd: string | null): void;
}

const END_KEYS: Partial<Record<AnalysisEnd, Key>> = {
  depth_limit: 'analysis.endDepth',
  time_limit: 'analysis.endTime',
  yielded: 'analysis.endYielded',
  superseded: 'analysis.endSuperseded',
};

export function enginePanel(cb: {
  onToggle: (on: boolean) => void;
  onMultipv: (n: number) => void;
  onPlay: (uci: string) => void;
  onResume: () => void;
}): EnginePanel {
  const toggle = h('input', { type: 'checkbox', testid: 'engine-toggle', onchange: () => cb.onToggle(toggle.checked) });
  const select = h(
    'select',
    { testid: 'engine-multipv', 'aria-label': t('analysis.lines'), onchange: () => cb.onMultipv(Number(select.value)) },
    [1, 2, 3, 4, 5].map((n) => h('option', { value: String(n) }, String(n))),
  );
  const evalEl = h('div', { class: 'engine-eval', testid: 'engine-eval', 'aria-live': 'polite' });
  const stats = h('div', { class: 'engine-stats hint', testid: 'engine-stats' });
  const linesEl = h('div', { class: 'engine-lines', testid: 'engine-lines' });
  const el = h(
    'div',
    { class: 'engine-box' },
    h(
      'div',
      { class: 'engine-head' },
      h('h3', {}, t('analysis.engine')),
      h('label', { class: 'check' }, toggle, ' ', t('analysis.engineOn')),
      h('label', { class: 'check' }, t('analysis.lines'), ' ', select),
    ),
    evalEl,
    stats,
    linesEl,
  );

  function render(v: EngineShow, fen: string, zh: boolean, gameEnd: string | null): void {
    toggle.checked = v.on;
    select.value = String(v.multipv);
    linesEl.dataset.fen = v.lines.length ? fen : '';
    linesEl.dataset.depth = String(v.lines[0]?.depth ?? 0);
    // The rows kept for the lines (see .engine-lines): none when no line will come.
    linesEl.style.setProperty('--lines', String(gameEnd || !v.on ? 0 : v.multipv));
    evalEl.classList.toggle('busy', !gameEnd && v.lines.length === 0);
    const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    if (gameEnd) {
      evalEl.textContent = gameEnd;
      replace(stats);
      replace(linesEl);
      return;
    }
    if (!v.on) {
      evalEl.textContent = t('analysis.engineOff');
      replace(stats);
      replace(linesEl);
      return;
    }
    const best = v.lines[0];
    if (v.status === 'error' && v.error) evalEl.textContent = pick(v.error.zh, v.error.en);
    else if (v.status === 'hidden') evalEl.textContent = t('analysis.paused');
    else if (!best) evalEl.textContent = t('analysis.thinking');
    else evalEl.textContent = t('analysis.evalLine', { score: scoreText(best.score, turn), depth: String(best.depth) });
    const endKey = v.status === 'done' && v.end ? END_KEYS[v.end] : undefined;
    replace(
      stats,
      v.depth ? t('analysis.depthNps', { depth: String(v.depth), knps: String(Math.round(v.nps / 1000)) }) : null,
      endKey ? h('span', { class: 'engine-end', testid: 'engine-end' }, ' · ', t(endKey, { depth: String(v.depth) })) : null,
      endKey && v.end !== 'depth_limit'
        ? h('button', { class: 'btn small', testid: 'engine-resume', onclick: cb.onResume }, t('analysis.resume'))
        : null,
    );
    replace(
      linesEl,
      v.lines.map((l, i) =>
        h(
          'div',
          {
            class: 'engine-line best-line',
            testid: i === 0 ? 'best-line' : 'engine-line',
            'data-multipv': String(l.multipv),
            'data-first': l.pv[0] ?? '',
            title: t('analysis.playLine'),
            onclick: () => l.pv[0] && cb.onPlay(l.pv[0]),
          },
          h('span', { class: 'line-score' }, scoreText(l.score, turn)),
          ' ',
          lineText(l.pv_san, fen, zh),
        ),
      ),
    );
  }

  return { el, render };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Small SVG charts of our own: a rating history (lines over time) and an evaluation graph (white's advantage over
// the plies of a game).

import { svg } from '../dom';

export interface Series {
  label: string;
  color: string;
  points: { x: number; y: number }[];
}

const W = 600;
const H = 220;
const PAD = { l: 44, r: 10, t: 10, b: 24 };

function niceTicks(min: number, max: number, n: number): number[] {
  const span = Math.max(1, max - min);
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) out.push(v);
  return out;
}

export function lineChart(series: Series[], formatX: (x: number) => string, ariaLabel: string): SVGSVGElement {
  const all = series.flatMap((s) => s.points);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': ariaLabel });
  if (!all.length) return root;
  let x0 = Math.min(...all.map((p) => p.x));
  let x1 = Math.max(...all.map((p) => p.x));
  if (x0 === x1) {
    x0 -= 1;
    x1 += 1;
  }
  const y0 = Math.floor((Math.min(...all.map((p) => p.y)) - 20) / 50) * 50;
  const y1 = Math.ceil((Math.max(...all.map((p) => p.y)) + 20) / 50) * 50;
  const sx = (x: number) => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (y: number) => H - PAD.b - ((y - y0) / (y1 - y0)) * (H - PAD.t - PAD.b);
  for (const v of niceTicks(y0, y1, 4)) {
    root.append(svg('line', { x1: PAD.l, x2: W - PAD.r, y1: sy(v), y2: sy(v), class: 'grid' }));
    root.append(svg('text', { x: PAD.l - 6, y: sy(v) + 4, 'text-anchor': 'end', class: 'tick' }, String(v)));
  }
  root.append(svg('text', { x: PAD.l, y: H - 6, class: 'tick' }, formatX(x0)));
  root.append(svg('text', { x: W - PAD.r, y: H - 6, 'text-anchor': 'end', class: 'tick' }, formatX(x1)));
  for (const s of series) {
    if (!s.points.length) continue;
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    root.append(svg('path', { d, fill: 'none', stroke: s.color, 'stroke-width': 2 }));
    for (const p of s.points) root.append(svg('circle', { cx: sx(p.x), cy: sy(p.y), r: 2.5, fill: s.color }));
  }
  return root;
}

/** White's advantage per ply, in centipawns (mates as ±1000), clamped to ±1000, drawn as an area around 0. */
export function evalGraph(
  values: (number | null)[],
  current: number,
  onPick: (ply: number) => void,
  ariaLabel: string,
): SVGSVGElement {
  const h = 120;
  const root = svg('svg', { viewBox: `0 0 ${W} ${h}`, class: 'eval-graph', role: 'img', 'aria-label': ariaLabel });
  const n = Math.max(1, values.length - 1);
  const sx = (i: number) => (i / n) * W;
  const sy = (v: number) => h / 2 - (Math.max(-1000, Math.min(1000, v)) / 1000) * (h / 2 - 4);
  root.append(svg('rect', { x: 0, y: 0, width: W, height: h, class: 'eval-bg' }));
  root.append(svg('line', { x1: 0, x2: W, y1: h / 2, y2: h / 2, class: 'grid' }));
  const pts: string[] = [];
  values.forEach((v, i) => {
    if (v !== null) pts.push(`${sx(i).toFixed(1)},${sy(v).toFixed(1)}`);
  });
  if (pts.length) {
    const known = values.map((v, i) => [v, i] as const).filter(([v]) => v !== null);
    const first = known[0][1];
    const last = known[known.length - 1][1];
    root.append(
      svg('polygon', {
        points: `${sx(first).toFixed(1)},${h / 2} ${pts.join(' ')} ${sx(last).toFixed(1)},${h / 2}`,
        class: 'eval-area',
      }),
    );
    root.append(svg('polyline', { points: pts.join(' '), class: 'eval-line', fill: 'none' }));
  }
  root.append(svg('line', { x1: sx(current), x2: sx(current), y1: 0, y2: h, class: 'eval-cursor' }));
  root.addEventListener('click', (e) => {
    const r = root.getBoundingClientRect();
    const ply = Math.round(((e.clientX - r.left) / r.width) * n);
    onPick(Math.max(0, Math.min(values.length - 1, ply)));
  });
  return root;
}

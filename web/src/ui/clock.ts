// SPDX-License-Identifier: GPL-3.0-or-later
// Clock display: counts the running side down locally between the server's `clocks` frames (corrected by half the
// round trip), with a low-time warning.

import type { Color } from '../protocol';

export interface ClockState {
  white_ms: number;
  black_ms: number;
  running: Color | null;
  /** performance.now() when these values were true. */
  at: number;
}

export function remaining(c: ClockState, side: Color, now: number): number {
  const base = side === 'white' ? c.white_ms : c.black_ms;
  return Math.max(0, c.running === side ? base - (now - c.at) : base);
}

export function formatClock(ms: number): string {
  const tenths = Math.floor(ms / 100) % 10;
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  if (ms < 10_000) return `${m}:${ss}.${tenths}`;
  return `${m}:${ss}`;
}

/** Initial time in ms of a PGN TimeControl (`300+3` → 300000), null for none. */
export function initialMs(tc: string): number | null {
  const m = /^(?:\d+\/)?(\d+)/.exec(tc);
  return m ? Number(m[1]) * 1000 : null;
}

/** Below this, a clock shows the low-time warning. */
export function lowTimeMs(tc: string): number {
  const init = initialMs(tc) ?? 60_000;
  return Math.min(20_000, Math.max(5_000, init * 0.1));
}

/** Shows `side`'s time in `node` at `now` (hidden without a clock); `over` stops the running and low marks. */
export function renderClock(node: HTMLElement, c: ClockState | null, side: Color, now: number, lowMs: number, over: boolean): void {
  node.hidden = !c;
  if (!c) return;
  const ms = remaining(c, side, now);
  node.textContent = formatClock(ms);
  node.classList.toggle('running', c.running === side && !over);
  node.classList.toggle('low', ms < lowMs && !over);
  node.dataset.ms = String(Math.round(ms));
}

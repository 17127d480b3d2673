// SPDX-License-Identifier: GPL-3.0-or-later
// The page's side of the browser engine (worker.ts): the same calls as the server's analysis stream
// (pages/analysis/stream.ts) — start, close, analyse, stop, ready — over a Web Worker instead of a WebSocket. The
// worker lives while the engine is wanted; closing it ends its search at once. If the engine cannot run here (no
// WebAssembly, or the module fails to load), `onUnavailable` is called once and the page uses the server.

import type { AnalysisClientMessage, AnalysisServerMessage } from '../protocol_analysis';
import type { AnalyseRequest } from '../pages/analysis/stream';
import { api } from '../api';

/** Whether this browser can run the engine itself (workers and WebAssembly). */
export function browserEngineAvailable(): boolean {
  return typeof Worker !== 'undefined' && typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function';
}

export class WorkerAnalysis {
  private worker: Worker | null = null;
  private nextId = 1;
  private failed = false;

  constructor(
    private onMessage: (m: AnalysisServerMessage) => void,
    private onUnavailable: () => void,
  ) {}

  start(): void {
    if (this.worker || this.failed) return;
    let w: Worker;
    try {
      w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'guoxiang-engine' });
    } catch {
      this.fail();
      return;
    }
    w.onmessage = (ev: MessageEvent<AnalysisServerMessage>) => {
      if (this.worker !== w) return;
      const m = ev.data;
      // The module did not load (an 'internal' error): the server analyses instead.
      if (m.t === 'error' && m.code === 'internal') return this.fail();
      this.onMessage(m);
    };
    w.onerror = () => {
      if (this.worker === w) this.fail();
    };
    this.worker = w;
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  get ready(): boolean {
    return !this.failed;
  }

  analyse(req: AnalyseRequest): number | null {
    if (this.failed) return null;
    this.start();
    const id = this.nextId++;
    const msg: AnalysisClientMessage = { t: 'analyse', id, ...req };
    this.worker?.postMessage(msg);
    return id;
  }

  stop(): void {
    const msg: AnalysisClientMessage = { t: 'stop', id: this.nextId++ };
    this.worker?.postMessage(msg);
  }

  private fail(): void {
    this.close();
    if (this.failed) return;
    this.failed = true;
    this.onUnavailable();
  }
}

/**
 * One search at a time to a fixed depth in a worker of its own (the evaluation graph: each main-line position at a
 * small depth), so the live analysis goes on meanwhile. `null` when the browser engine cannot run here.
 */
export class WorkerEvaluator {
  private worker: Worker | null = null;
  private nextId = 1;
  private waiting = new Map<number, (m: AnalysisServerMessage | null) => void>();

  /** The best line of `moves` from `fen` (undefined: the start) at `depth`, or `null` if the engine failed. */
  evaluate(fen: string | undefined, moves: string[], depth: number): Promise<AnalysisServerMessage | null> {
    if (!this.worker) {
      try {
        this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'guoxiang-graph' });
      } catch {
        return Promise.resolve(null);
      }
      this.worker.onmessage = (ev: MessageEvent<AnalysisServerMessage>) => {
        const m = ev.data;
        if (m.t !== 'done' && m.t !== 'error') return;
        const id = m.id ?? 0;
        this.waiting.get(id)?.(m.t === 'done' ? m : null);
        this.waiting.delete(id);
      };
      this.worker.onerror = () => this.close();
    }
    const id = this.nextId++;
    const msg: AnalysisClientMessage = { t: 'analyse', id, fen, moves, multipv: 1, depth };
    this.worker.postMessage(msg);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }
}

let sharedEvaluator: WorkerEvaluator | null = null;

/**
 * The engine's best move in the position `fen` at `depth`: in this browser when it can (one worker kept for the
 * page's hints), else from the server (`POST /api/analyse`, at most `movetime_ms`). `null`: no legal move.
 */
export async function bestMove(fen: string, depth: number, movetime_ms: number): Promise<string | null> {
  if (browserEngineAvailable()) {
    sharedEvaluator ??= new WorkerEvaluator();
    const m = await sharedEvaluator.evaluate(fen, [], depth);
    if (m && m.t === 'done') return m.lines[0]?.pv[0] ?? null;
  }
  const a = await api.analyse({ fen, depth, movetime_ms });
  return a.bestmove ?? null;
}

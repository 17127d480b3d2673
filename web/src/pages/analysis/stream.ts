// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board's engine stream (`/ws/analysis`, docs/analysis.md): one socket, opened while the engine is
// wanted and closed when it is not (the server stops the search when the socket closes). Reconnects with backoff
// while wanted; `onOpen` lets the page ask again for the position it shows.

import type { AnalysisClientMessage, AnalysisServerMessage } from '../../protocol_analysis';

/** An `analyse` without its id (the stream numbers them). */
export type AnalyseRequest = Omit<Extract<AnalysisClientMessage, { t: 'analyse' }>, 'id' | 't'>;

export class AnalysisStream {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private wanted = false;
  private backoff = 500;
  private timer = 0;
  private open = false;

  constructor(
    private onMessage: (m: AnalysisServerMessage) => void,
    private onOpen: () => void,
  ) {}

  /** Opens the socket (if it is not open) and keeps it open. */
  start(): void {
    this.wanted = true;
    if (!this.ws) this.connect();
  }

  /** Closes the socket: the server stops whatever it was searching. */
  close(): void {
    this.wanted = false;
    window.clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    this.open = false;
    ws?.close();
  }

  get ready(): boolean {
    return this.open;
  }

  /** Asks for a search; returns its id, or `null` when the socket is not open yet (`onOpen` will come). */
  analyse(req: AnalyseRequest): number | null {
    if (!this.ws || !this.open) {
      this.start();
      return null;
    }
    const id = this.nextId++;
    const msg: AnalysisClientMessage = { t: 'analyse', id, ...req };
    this.ws.send(JSON.stringify(msg));
    return id;
  }

  stop(): void {
    if (!this.ws || !this.open) return;
    const msg: AnalysisClientMessage = { t: 'stop', id: this.nextId++ };
    this.ws.send(JSON.stringify(msg));
  }

  private connect(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/analysis`);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.open = true;
      this.backoff = 500;
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws || typeof ev.data !== 'string') return;
      let m: AnalysisServerMessage;
      try {
        m = JSON.parse(ev.data) as AnalysisServerMessage;
      } catch {
        return;
      }
      this.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.open = false;
      if (!this.wanted) return;
      this.timer = window.setTimeout(() => {
        if (this.wanted && !this.ws) this.connect();
      }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 10_000);
    };
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The WebSocket client of the typed protocol (docs/api.md): `hello` first, one id per request answered exactly
// once (ack, error or a typed reply), pushed messages to listeners, reconnection with backoff (the game pages
// resubscribe with their last version through `onReady`), and a round-trip estimate from ping/pong.

import { PROTOCOL_VERSION } from './protocol';
import type { ClientMessage, ErrorCode, Lang, ServerMessage } from './protocol';

/** A client message without its `id` (the socket numbers them). */
export type ClientRequest = ClientMessage extends infer M ? (M extends ClientMessage ? Omit<M, 'id'> : never) : never;

type HelloMsg = Extract<ServerMessage, { t: 'hello' }>;

export class ServerError extends Error {
  constructor(
    public code: ErrorCode | string,
    public zh: string,
    public en: string,
  ) {
    super(en);
  }
}

interface Pending {
  resolve: (m: ServerMessage) => void;
  reject: (e: ServerError) => void;
}

export class Socket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private listeners = new Set<(m: ServerMessage) => void>();
  private readyCbs = new Set<(h: HelloMsg) => void>();
  private queue: { body: ClientRequest; p: Pending }[] = [];
  private ready = false;
  private backoff = 500;
  private pingTimer = 0;
  private closedByUs = false;
  /** Round trip in ms (median of recent pings). */
  rtt = 100;
  private rtts: number[] = [];
  hello: HelloMsg | null = null;

  constructor(private lang: () => Lang) {}

  connect(): void {
    this.closedByUs = false;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      const id = this.nextId++;
      this.pending.set(id, {
        resolve: (m) => {
          if (m.t !== 'hello') return;
          this.hello = m;
          this.ready = true;
          this.backoff = 500;
          for (const cb of this.readyCbs) cb(m);
          const q = this.queue;
          this.queue = [];
          for (const { body, p } of q) this.write(body, p);
          this.ping();
        },
        reject: (e) => {
          if (e.code === 'unsupported_protocol') location.reload();
        },
      });
      ws.send(JSON.stringify({ t: 'hello', id, protocol: PROTOCOL_VERSION, lang: this.lang() }));
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let m: ServerMessage;
      try {
        m = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      this.dispatch(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.ws = null;
      window.clearInterval(this.pingTimer);
      // Requests in flight will never be answered on this connection.
      for (const [, p] of this.pending) p.reject(new ServerError('disconnected', '连接已断开', 'disconnected'));
      this.pending.clear();
      if (this.closedByUs) return;
      window.setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  /** Closes and opens again (after logging in or out: the session cookie changed). */
  reconnect(): void {
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    window.clearInterval(this.pingTimer);
    for (const [, p] of this.pending) p.reject(new ServerError('disconnected', '连接已断开', 'disconnected'));
    this.pending.clear();
    ws?.close();
    this.connect();
  }

  get isReady(): boolean {
    return this.ready;
  }

  private dispatch(m: ServerMessage): void {
    if ('id' in m && typeof m.id === 'number' && this.pending.has(m.id)) {
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      if (m.t === 'error') p.reject(new ServerError(m.code, m.message_zh, m.message_en));
      else p.resolve(m);
      // Typed replies (explanation, challenge_created…) go to listeners too.
      if (m.t === 'ack' || m.t === 'error' || m.t === 'pong') return;
    }
    for (const l of this.listeners) l(m);
  }

  private write(body: ClientRequest, p: Pending): void {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.ws?.send(JSON.stringify({ ...body, id }));
  }

  /** Sends a request; resolves with its answer (`ack` or a typed reply), rejects with the server's error. */
  send(body: ClientRequest): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const p = { resolve, reject };
      if (this.ready && this.ws) this.write(body, p);
      else this.queue.push({ body, p });
    });
  }

  /** Listens to pushed messages; returns the unsubscribe function. */
  on(l: (m: ServerMessage) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Called after every handshake (the first and each reconnection), and now if connected. */
  onReady(cb: (h: HelloMsg) => void): () => void {
    this.readyCbs.add(cb);
    if (this.ready && this.hello) cb(this.hello);
    return () => this.readyCbs.delete(cb);
  }

  private ping(): void {
    const once = () => {
      const sent = performance.now();
      this.send({ t: 'ping', client_time_ms: Math.round(Date.now()) })
        .then(() => {
          this.rtts.push(performance.now() - sent);
          if (this.rtts.length > 5) this.rtts.shift();
          const s = [...this.rtts].sort((a, b) => a - b);
          this.rtt = s[Math.floor(s.length / 2)] ?? 100;
        })
        .catch(() => undefined);
    };
    once();
    window.clearInterval(this.pingTimer);
    this.pingTimer = window.setInterval(once, 10_000);
  }
}

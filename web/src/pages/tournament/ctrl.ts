// SPDX-License-Identifier: GPL-3.0-or-later
// 比赛 / One tournament: its state and actions, without the DOM — the tournament as the server last sent it, which
// round's pairings are shown, whose round-by-round history is open, the player list being typed, and the calls that
// change the tournament (join, leave, bye, start, pair, results, withdrawals, players, forbidden pairs, arbiters).
// Every call answers with the whole tournament, which is taken as the new state; `redraw` is told when it changed.

import type { TournamentResult, TournamentView } from '../../protocol_http';
import { tourApi } from './xhr';

/** The round so far is over (or none was paired yet) and another is due: the next one may be paired. */
export function nextRoundDue(v: TournamentView): boolean {
  const last = v.round_list[v.round_list.length - 1];
  return (!last || last.finished) && v.round_list.length < v.rounds;
}

/** Someone not in the tournament may join it now: before it starts, or a running Swiss with rounds to come or an
 * arena. */
export function joinable(v: TournamentView): boolean {
  return v.status === 'open' || (v.status === 'running' && ((v.system === 'swiss' && v.round_list.length < v.rounds) || v.system === 'arena'));
}

/** The rounds played to the end. */
export function finishedRounds(v: TournamentView): number {
  return v.round_list.filter((r) => r.finished).length;
}

export class TourCtrl {
  /** The tournament as last received (null until the first answer). */
  view: TournamentView | null = null;
  /** The round whose pairings are shown (0: the last one, once there is one). */
  shownRound = 0;
  /** The players whose round-by-round history is open. */
  readonly openHistory = new Set<number>();
  /** What is typed in the organiser's player list (it stays when the page redraws). */
  pasteDraft = '';
  private lastJson = '';
  private dead = false;

  constructor(
    readonly id: string,
    private readonly redraw: (v: TournamentView) => void,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** A player's name by starting number (`#n` for an unknown one). */
  nameOf(no: number): string {
    return this.view?.players.find((p) => p.no === no)?.name ?? `#${no}`;
  }

  /** Takes the server's answer and redraws, unless the page is gone or it is the same answer again (the refresh:
   * nothing to redraw, and a result being chosen stays open). */
  take(v: TournamentView): void {
    if (this.dead) return;
    const json = JSON.stringify(v);
    if (json === this.lastJson) return;
    this.lastJson = json;
    this.view = v;
    if (!this.shownRound || this.shownRound > v.round_list.length) this.shownRound = v.round_list.length;
    this.redraw(v);
  }

  get alive(): boolean {
    return !this.dead;
  }

  destroy(): void {
    this.dead = true;
  }

  /** Reads the tournament again. */
  load(): Promise<void> {
    return tourApi.get(this.id).then((v) => this.take(v));
  }

  showRound(n: number): void {
    this.shownRound = n;
  }

  toggleHistory(no: number): void {
    if (this.openHistory.has(no)) this.openHistory.delete(no);
    else this.openHistory.add(no);
  }

  private act(p: Promise<TournamentView>): void {
    p.then((v) => this.take(v)).catch(this.onError);
  }

  join(): void {
    this.act(tourApi.join(this.id));
  }
  /** Leaves before the start, withdraws after it, or pauses an arena. */
  leave(): void {
    this.act(tourApi.leave(this.id));
  }
  askBye(no: number): void {
    this.act(tourApi.bye(this.id, { no }));
  }
  start(): void {
    this.act(tourApi.start(this.id));
  }
  pair(): void {
    this.act(tourApi.pair(this.id));
  }
  result(round: number, board: number, result: TournamentResult): void {
    this.act(tourApi.result(this.id, { round, board, result }));
  }
  withdraw(no: number): void {
    this.act(tourApi.withdraw(this.id, { no }));
  }
  addPlayer(name: string, rating: number | undefined): void {
    this.act(tourApi.addPlayer(this.id, { name, rating }));
  }
  forbid(a: number, b: number): void {
    this.act(tourApi.forbid(this.id, { a, b }));
  }
  addArbiter(name: string): void {
    this.act(tourApi.addArbiter(this.id, { name }));
  }

  /** Adds a pasted list of players; answers how many were added (the caller shows why it failed). */
  addList(text: string): Promise<number> {
    const before = this.view?.players.length ?? 0;
    return tourApi.addList(this.id, { text }).then((nv) => {
      this.pasteDraft = '';
      this.take(nv);
      return nv.players.length - before;
    });
  }
}

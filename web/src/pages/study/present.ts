// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: present mode over the WebSocket. The owner sends each position they go to (`study_present`); a
// reader follows (`study_follow`) and receives the teacher's positions (`study_position`), and stops following
// when let go to explore alone (`study_release`). Following is asked again after each reconnection.

import { socket } from '../../app';
import type { ClientRequest } from '../../ws';
import type { Place } from './model';

export interface PresentEvents {
  position(place: Place): void;
  stopped(): void;
}

/** A study message (not in protocol.ts's generated types when this was written: sent as plain objects). */
function send(body: Record<string, unknown>): void {
  socket.send(body as unknown as ClientRequest).catch(() => undefined);
}

export function presenter(study: string, ev: PresentEvents) {
  let following = false;
  const off = socket.on((raw) => {
    const m = raw as unknown as { t: string; study?: string; chapter?: number; path?: number[]; presenting?: boolean };
    if (m.study !== study) return;
    if (m.t === 'study_position') {
      if (m.presenting === false) ev.stopped();
      else ev.position({ chapter: m.chapter ?? 0, path: m.path ?? [] });
    } else if (m.t === 'study_stopped') ev.stopped();
  });
  const offReady = socket.onReady(() => {
    if (following) send({ t: 'study_follow', study });
  });
  return {
    follow(): void {
      following = true;
      send({ t: 'study_follow', study });
    },
    release(): void {
      following = false;
      send({ t: 'study_release', study });
    },
    present(place: Place): void {
      send({ t: 'study_present', study, chapter: place.chapter, path: place.path });
    },
    stop(): void {
      send({ t: 'study_present', study, chapter: 0, path: [], presenting: false });
    },
    destroy(): void {
      off();
      offReady();
      if (following) send({ t: 'study_release', study });
    },
  };
}

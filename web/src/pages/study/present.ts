// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: present mode over the WebSocket (crates/http/src/ws/study.rs). The owner sends each position they
// go to (`study_present`) and lets the followers go when they stop (`study_release`); a reader follows
// (`study_follow`), receives the teacher's positions (`study_position`) and the release (`study_released`), and
// stops following when they leave the page (`study_unfollow`). Following is asked again after each reconnection.

import { socket } from '../../app';
import type { ClientRequest } from '../../ws';
import type { Place } from './model';

export interface PresentEvents {
  position(place: Place): void;
  /** The teacher let the followers go. */
  released(): void;
}

/** A study message (not in protocol.ts's generated types when this was written: sent as plain objects). */
function send(body: Record<string, unknown>): void {
  socket.send(body as unknown as ClientRequest).catch(() => undefined);
}

export function presenter(study: string, ev: PresentEvents) {
  let following = false;
  const off = socket.on((raw) => {
    const m = raw as unknown as { t: string; study?: string; chapter?: number; path?: number[] };
    if (m.study !== study) return;
    if (m.t === 'study_position') ev.position({ chapter: m.chapter ?? 0, path: m.path ?? [] });
    else if (m.t === 'study_released') ev.released();
  });
  const offReady = socket.onReady(() => {
    if (following) send({ t: 'study_follow', study });
  });
  return {
    follow(): void {
      following = true;
      send({ t: 'study_follow', study });
    },
    present(place: Place): void {
      send({ t: 'study_present', study, chapter: place.chapter, path: place.path });
    },
    /** The owner stops presenting: the followers are let go. */
    stop(): void {
      send({ t: 'study_release', study });
    },
    destroy(): void {
      off();
      offReady();
      if (following) send({ t: 'study_unfollow', study });
    },
  };
}

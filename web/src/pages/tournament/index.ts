// SPDX-License-Identifier: GPL-3.0-or-later
// 比赛 / One tournament, `/tournament/{id}`: its terms, the players (join, leave, withdraw), the rounds with their
// boards and results (the organiser and arbiters enter them over the board), the standings with FIDE tie-breaks,
// the crosstable, and the PGN and TRF downloads. The state and the calls are in ctrl.ts, the rendering in view.ts,
// the server calls in xhr.ts; this file mounts them and refreshes the tournament while it is shown (a round's games
// end on other pages).

import { errorText, toast } from '../../app';
import type { Page } from '../../app';
import { TourCtrl } from './ctrl';
import { makeView } from './view';

const REFRESH_MS = 3000;

export function tournamentPage(id: string): Page {
  const ctrl = new TourCtrl(
    id,
    (v) => view.render(v),
    (e) => toast(errorText(e)),
  );
  const view = makeView(ctrl);
  let timer = 0;

  function refresh(): void {
    if (!ctrl.alive) return;
    if (document.visibilityState === 'visible') {
      ctrl.load().catch((e: unknown) => {
        if (!ctrl.view) view.failed(e);
      });
    }
    timer = window.setTimeout(refresh, REFRESH_MS);
  }
  refresh();

  return {
    el: view.el,
    destroy() {
      ctrl.destroy();
      window.clearTimeout(timer);
    },
  };
}

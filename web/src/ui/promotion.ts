// SPDX-License-Identifier: GPL-3.0-or-later
// The promotion chooser: queen, knight, rook or bishop, over the board.

import type { Role } from 'chessops/types';
import type { Color } from '../protocol';
import { h, replace } from '../dom';
import { t } from '../i18n';

const ROLES: Role[] = ['queen', 'knight', 'rook', 'bishop'];

function pieceEl(role: Role, color: Color): HTMLElement {
  const p = document.createElement('piece');
  p.className = `${role} ${color}`;
  return p;
}

/** Shows the chooser in `box` (an overlay of the board); calls `done` with the role, or null when cancelled. */
export function choosePromotion(box: HTMLElement, color: Color, done: (role: Role | null) => void): void {
  const names: Record<string, () => string> = {
    queen: () => t('piece.queen'),
    knight: () => t('piece.knight'),
    rook: () => t('piece.rook'),
    bishop: () => t('piece.bishop'),
  };
  const finish = (r: Role | null) => {
    box.hidden = true;
    replace(box);
    done(r);
  };
  replace(
    box,
    h(
      'div',
      { class: 'promotion-box cg-wrap', role: 'dialog', 'aria-label': t('game.promoteTo') },
      h('div', { class: 'promotion-title' }, t('game.promoteTo')),
      h(
        'div',
        { class: 'promotion-choices' },
        ROLES.map((r) =>
          h(
            'button',
            { class: 'promo-choice', testid: `promote-${r}`, title: names[r](), 'aria-label': names[r](), onclick: () => finish(r) },
            pieceEl(r, color),
          ),
        ),
      ),
      h('button', { class: 'btn small', testid: 'promote-cancel', onclick: () => finish(null) }, t('common.cancel')),
    ),
  );
  box.hidden = false;
}

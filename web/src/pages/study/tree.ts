// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: a chapter's move tree as clickable moves (the mainline, variations indented under the move they
// replace, comments in the reader's language), the current position highlighted.

import { chineseSan } from '../../chess';
import { h } from '../../dom';
import type { Child } from '../../dom';
import { getLang } from '../../i18n';
import { nagSign } from '../../ui/tree';
import { noteText, samePath } from './model';
import type { Chapter, Path, StudyNode } from './model';

/** The plies before the chapter's start position (from its FEN's move number and side to move). */
function startPly(fen: string): number {
  const f = fen.split(' ');
  return (Math.max(1, Number(f[5]) || 1) - 1) * 2 + (f[1] === 'b' ? 1 : 0);
}

export function renderChapterTree(ch: Chapter, current: Path, onSelect: (p: Path) => void): HTMLElement {
  const lang = getLang();
  const zh = lang === 'zh';
  const line = (nodes: StudyNode[], prefix: Path, ply0: number, main: boolean): Child[] => {
    const out: Child[] = [];
    let needNumber = true;
    nodes.forEach((n, i) => {
      const path = [...prefix, i];
      const ply = ply0 + i;
      if (n.before) out.push(h('span', { class: 'comment' }, n.before));
      const white = ply % 2 === 0;
      const num = Math.floor(ply / 2) + 1;
      const label = white ? `${num}.` : needNumber || n.before ? `${num}…` : '';
      if (label) out.push(h('span', { class: 'num' }, label));
      const cur = samePath(path, current);
      out.push(
        h(
          'button',
          {
            type: 'button',
            class: `mv ${main ? 'main' : 'var'}${cur ? ' current' : ''}${n.step ? ' has-step' : ''}`,
            'data-path': path.join(','),
            'data-san': n.san,
            testid: 'study-move',
            onclick: () => onSelect(path),
          },
          (zh ? chineseSan(n.san) : n.san) + (n.nags ?? []).map(nagSign).join(''),
        ),
      );
      const c = noteText(n.comment, lang);
      if (c) out.push(h('span', { class: 'comment' }, c));
      needNumber = !!c;
      if (n.variations?.length) {
        out.push(
          h(
            'div',
            { class: 'variations' },
            n.variations.map((v, vi) => h('div', { class: 'variation' }, line(v, [...prefix, i, vi], ply, false))),
          ),
        );
        needNumber = true;
      }
    });
    return out;
  };
  const start = noteText(ch.comment, lang);
  return h(
    'div',
    { class: 'move-list move-tree study-tree', testid: 'study-tree' },
    h('button', { type: 'button', class: `mv start${current.length ? '' : ' current'}`, 'data-path': '', testid: 'study-start', onclick: () => onSelect([]) }, '⌂'),
    start ? h('span', { class: 'comment' }, start) : null,
    ch.moves.length ? line(ch.moves, [], startPly(ch.fen), true) : null,
  );
}

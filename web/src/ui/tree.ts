// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree's view: the main line as running text, each branching point's variations under the move they
// replace (nested ones indented), comments in grey and NAGs as their signs. Every move is a button carrying its
// path (`data-path`, node ids) and ply; `markCurrent` moves the highlight without drawing the tree again.

import type { MoveNode, Tree } from '../analysis/tree';
import { chineseSan } from '../chess';
import { h, replace } from '../dom';

const NAG_SIGNS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 10: '=', 13: '∞', 14: '+=', 15: '=+', 16: '±', 17: '∓', 18: '+−', 19: '−+' };

export function nagSign(n: number): string {
  return NAG_SIGNS[n] ?? `$${n}`;
}

export interface TreeViewOptions {
  zh: boolean;
  onSelect: (path: number[]) => void;
  /** Shown when the tree has no move. */
  empty: string;
}

/** Draws `tree` into `el`, highlighting `current`. */
export function renderTree(el: HTMLElement, tree: Tree, current: readonly number[], opts: TreeViewOptions): void {
  if (!tree.children.length) {
    replace(el, tree.comments.length ? h('span', { class: 'comment' }, tree.comments.join(' ')) : null, h('div', { class: 'empty-moves' }, opts.empty));
    return;
  }
  const rootTurnBlack = tree.fen.split(' ')[1] === 'b';
  const rootFull = Number(tree.fen.split(' ')[5]) || 1;
  const numberOf = (ply: number): { n: number; white: boolean } => {
    // The move that reaches `ply` plies from the root.
    const before = ply - 1 + (rootTurnBlack ? 1 : 0);
    return { n: rootFull + Math.floor(before / 2), white: before % 2 === 0 };
  };

  const moveEl = (n: MoveNode, path: number[], forceNumber: boolean, main: boolean): HTMLElement[] => {
    const out: HTMLElement[] = [];
    for (const c of n.startingComments) out.push(h('span', { class: 'comment' }, c));
    const { n: num, white } = numberOf(n.ply);
    const label = white ? `${num}.` : forceNumber || n.startingComments.length ? `${num}…` : '';
    if (label) out.push(h('span', { class: 'num' }, label));
    const san = opts.zh ? chineseSan(n.san) : n.san;
    const nags = n.nags.map(nagSign).join('');
    const key = path.join(',');
    out.push(
      h(
        'button',
        {
          class: 'mv' + (main ? ' main' : ' var') + (key === current.join(',') ? ' current' : ''),
          'data-ply': String(n.ply),
          'data-path': key,
          testid: 'tree-move',
          onclick: () => opts.onSelect(path),
        },
        san + nags,
      ),
    );
    for (const c of n.comments) out.push(h('span', { class: 'comment' }, c));
    return out;
  };

  /** Continues a line after `from` (already drawn). */
  const restLine = (from: MoveNode, path: number[], main: boolean, into: HTMLElement, needNumber: boolean): void => {
    let node = from;
    let p = path;
    let need = needNumber;
    while (node.children.length) {
      const kids = node.children;
      const nx = kids[0];
      const np = [...p, nx.id];
      for (const e of moveEl(nx, np, need, main)) into.append(e);
      need = nx.comments.length > 0;
      if (kids.length > 1) {
        const box = h('div', { class: 'variations' });
        for (const v of kids.slice(1)) {
          const vEl = h('div', { class: 'variation', testid: 'variation' });
          drawLine(v, [...p, v.id], vEl);
          box.append(vEl);
        }
        into.append(box);
        need = true;
      }
      node = nx;
      p = np;
    }
  };

  /** A variation: its first move, then the rest. */
  const drawLine = (first: MoveNode, path: number[], into: HTMLElement): void => {
    for (const e of moveEl(first, path, true, false)) into.append(e);
    restLine(first, path, false, into, first.comments.length > 0);
  };

  const root = h('div', { class: 'tree-main' });
  for (const c of tree.comments) root.append(h('span', { class: 'comment' }, c));
  const first = tree.children[0];
  for (const e of moveEl(first, [first.id], true, true)) root.append(e);
  if (tree.children.length > 1) {
    const box = h('div', { class: 'variations' });
    for (const v of tree.children.slice(1)) {
      const vEl = h('div', { class: 'variation', testid: 'variation' });
      drawLine(v, [v.id], vEl);
      box.append(vEl);
    }
    root.append(box);
  }
  restLine(first, [first.id], true, root, tree.children.length > 1 || first.comments.length > 0);
  replace(el, root);
}

/** Moves the highlight to the move at `path` (none for the root) and scrolls it into view. */
export function markCurrent(el: HTMLElement, path: readonly number[]): void {
  const key = path.join(',');
  for (const b of el.querySelectorAll<HTMLElement>('.mv.current')) b.classList.remove('current');
  if (!key) return;
  const b = el.querySelector<HTMLElement>(`.mv[data-path="${key}"]`);
  b?.classList.add('current');
  b?.scrollIntoView({ block: 'nearest' });
}

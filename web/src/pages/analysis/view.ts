// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis page's layout: the board with its evaluation bar and title, and the side column (engine panel,
// opening, move tree with its tools, navigation, evaluation graph, loading and exporting). The page wires the
// callbacks; this file only builds the elements.

import { h } from '../../dom';
import { t } from '../../i18n';
import { getSetting } from '../../settings';
import type { EnginePanel } from '../../ui/engine';
import type { EvalBar } from '../../ui/evalbar';

export interface Callbacks {
  nav: (to: 'next' | 'prev' | 'first' | 'last' | 'up' | 'down') => void;
  flip: () => void;
  promote: (toMain: boolean) => void;
  remove: () => void;
  comment: (text: string) => void;
  letters: (on: boolean) => void;
  graph: () => void;
  load: (text: string) => void;
  reset: () => void;
  exportPgn: () => void;
}

export interface Layout {
  el: HTMLElement;
  boardEl: HTMLElement;
  promoEl: HTMLElement;
  titleEl: HTMLElement;
  openingEl: HTMLElement;
  treeEl: HTMLElement;
  navEl: HTMLElement;
  toolsEl: HTMLElement;
  commentEl: HTMLInputElement;
  graphBtn: HTMLButtonElement;
  graphEl: HTMLElement;
  progressEl: HTMLElement;
  input: HTMLTextAreaElement;
  output: HTMLTextAreaElement;
  buttons: Record<'first' | 'prev' | 'next' | 'last' | 'promote' | 'makeMain' | 'remove', HTMLButtonElement>;
}

export function layout(engine: EnginePanel, bar: EvalBar, cb: Callbacks): Layout {
  const boardEl = h('div', { class: 'cg-wrap main-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const titleEl = h('div', { class: 'analysis-title', testid: 'analysis-title', translate: 'no' });
  const openingEl = h('div', { class: 'opening', testid: 'opening-name' });
  const treeEl = h('div', { class: 'move-list move-tree', testid: 'move-list' });
  const navBtn = (testid: string, label: string, title: string, onclick: () => void) =>
    h('button', { class: 'btn nav', testid, title, 'aria-label': title, onclick }, label);
  const buttons = {
    first: navBtn('nav-first', '«', t('nav.first'), () => cb.nav('first')),
    prev: navBtn('nav-prev', '‹', t('nav.prev'), () => cb.nav('prev')),
    next: navBtn('nav-next', '›', t('nav.next'), () => cb.nav('next')),
    last: navBtn('nav-last', '»', t('nav.last'), () => cb.nav('last')),
    promote: h('button', { class: 'btn small', testid: 'tree-promote', onclick: () => cb.promote(false) }, t('analysis.promote')),
    makeMain: h('button', { class: 'btn small', testid: 'tree-main', onclick: () => cb.promote(true) }, t('analysis.makeMain')),
    remove: h('button', { class: 'btn small', testid: 'tree-delete', onclick: () => cb.remove() }, t('analysis.deleteVar')),
  };
  const navEl = h(
    'div',
    { class: 'nav-buttons' },
    buttons.first,
    buttons.prev,
    buttons.next,
    buttons.last,
    navBtn('flip', '⇅', t('game.flip'), cb.flip),
  );
  const commentEl = h('input', {
    class: 'tree-comment',
    testid: 'tree-comment',
    placeholder: t('analysis.comment'),
    'aria-label': t('analysis.comment'),
    onchange: () => cb.comment(commentEl.value),
  });
  const toolsEl = h('div', { class: 'tree-tools' }, buttons.promote, buttons.makeMain, buttons.remove, commentEl);
  const graphBtn = h('button', { class: 'btn', testid: 'analyse-game', onclick: cb.graph }, t('analysis.graph'));
  const graphEl = h('div', { class: 'graph-box', testid: 'eval-graph' });
  const progressEl = h('div', { class: 'progress', testid: 'eval-progress' });
  const input = h('textarea', { class: 'pgn-input', testid: 'pgn-input', rows: 5, placeholder: t('analysis.paste') });
  const output = h('textarea', { class: 'pgn-input', testid: 'pgn-output', rows: 5, readonly: true, hidden: true });
  const letters = h('input', {
    type: 'checkbox',
    testid: 'chinese-letters',
    checked: getSetting('chineseLetters'),
    onchange: () => cb.letters(letters.checked),
  });

  const el = h(
    'div',
    { class: 'page game-page analysis-page' },
    h('div', { class: 'board-col' }, titleEl, bar.el, h('div', { class: 'board-box' }, boardEl, promoEl)),
    h(
      'div',
      { class: 'side' },
      engine.el,
      openingEl,
      treeEl,
      navEl,
      toolsEl,
      h('div', { class: 'graph-section' }, graphBtn, progressEl, graphEl),
      h('label', { class: 'check' }, letters, ' ', t('settings.chineseLetters'), ' ', h('span', { lang: 'zh', class: 'hint' }, '(马f3)')),
      h(
        'div',
        { class: 'load-box' },
        h('h3', {}, t('analysis.load')),
        input,
        h(
          'div',
          { class: 'form-buttons' },
          h('button', { class: 'btn primary', testid: 'load-pgn', onclick: () => cb.load(input.value) }, t('analysis.loadButton')),
          h('button', { class: 'btn', testid: 'reset-board', onclick: cb.reset }, t('analysis.reset')),
          h('button', { class: 'btn', testid: 'export-pgn', onclick: cb.exportPgn }, t('analysis.exportPgn')),
        ),
        output,
      ),
    ),
  );
  return {
    el,
    boardEl,
    promoEl,
    titleEl,
    openingEl,
    treeEl,
    navEl,
    toolsEl,
    commentEl,
    graphBtn,
    graphEl,
    progressEl,
    input,
    output,
    buttons,
  };
}

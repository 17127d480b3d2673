// SPDX-License-Identifier: GPL-3.0-or-later
// 研究 / Studies: one study's page. Its owner edits it — chapters (a position or FEN, or PGN pasted), moves played on
// the board (a move that differs from the next one starts a variation), a comment in zh and en per position, NAGs,
// arrows and circled squares (right-drag on the board as in the analysis board, or the shape tool: a colour, then
// a square and another square, the same one twice for a circle), interactive steps — saves it, exports it, shares
// it, and presents it: each position the owner goes to is sent to the readers who follow (present.ts). A reader
// sees the same page read-only, tries its steps, and follows the teacher while the teacher presents.

import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import { makeFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';
import { currentUser, errorText, navigate, toast } from '../../app';
import { checkColor, destsOf, isPromotion, legalMove, positionFromFen, standardUci } from '../../chess';
import { h, replace } from '../../dom';
import { getLang, t } from '../../i18n';
import { makeBoard, mirror } from '../../ui/board';
import type { BoardApi } from '../../ui/board';
import { displayName } from '../../ui/names';
import { choosePromotion } from '../../ui/promotion';
import { classApi } from '../class/xhr';
import type { ClassSummary } from '../class/xhr';
import {
  BRUSHES,
  annotated,
  fenAt,
  follow,
  followStart,
  makeNote,
  newChapter,
  lineEnd,
  next,
  noteBoth,
  noteText,
  pathExists,
  play,
  positionAt,
  positionOf,
  prev,
  remove,
  samePath,
  sanOf,
  setComment,
  setShapes,
  setStep,
  toggleNag,
} from './model';
import type { Brush, Chapter, FollowState, Path, Place, Shape, Study } from './model';
import { presenter } from './present';
import { newTry, stepForm, stepPanel } from './step';
import type { TryState } from './step';
import { renderChapterTree } from './tree';
import { studyApi } from './xhr';
import type { StudyView, Visibility } from './xhr';

interface Ed {
  view: StudyView;
  study: Study;
  owner: boolean;
  chapter: number;
  path: Path;
  dirty: boolean;
  /** The shape tool's colour (`null`: moves are played) and the square a shape starts at. */
  tool: Brush | null;
  toolFrom: string | null;
  presenting: boolean;
  follow: FollowState;
  attempt: TryState | null;
  classes: ClassSummary[];
}

const NAGS = [1, 2, 3, 4, 5, 6];

function chapterOf(e: Ed): Chapter {
  return e.study.chapters[e.chapter] ?? e.study.chapters[0];
}

export function studyEditor(view: StudyView): { el: HTMLElement; mounted(): void; destroy(): void } {
  const e: Ed = {
    view,
    study: view.study ?? { title: view.title, chapters: [] },
    owner: view.mine,
    chapter: 0,
    path: [],
    dirty: false,
    tool: null,
    toolFrom: null,
    presenting: false,
    follow: followStart(),
    attempt: null,
    classes: [],
  };
  if (!e.study.chapters.length) e.study.chapters.push(newChapter(t('study.chapterDefault')));

  const boardEl = h('div', { class: 'cg-wrap main-board study-board', testid: 'board' });
  const promoEl = h('div', { class: 'promotion', hidden: true });
  const bannerEl = h('div', { class: 'study-banner', testid: 'study-banner', hidden: true });
  const headEl = h('div', { class: 'study-head' });
  const chaptersEl = h('div', { class: 'study-chapters', testid: 'study-chapters' });
  const treeBox = h('div', {});
  const navEl = h('div', { class: 'nav-buttons' });
  const annEl = h('div', { class: 'study-annotations' });
  const shareEl = h('div', { class: 'study-share' });
  const el = h(
    'div',
    { class: 'study-layout' },
    headEl,
    h(
      'div',
      { class: 'game-page study-main' },
      h('div', { class: 'board-col' }, bannerEl, h('div', { class: 'board-box' }, boardEl, promoEl), navEl),
      h('div', { class: 'side' }, chaptersEl, treeBox, annEl, shareEl),
    ),
  );

  const board: BoardApi = makeBoard(boardEl, {
    movable: { free: false, showDests: true, events: { after: onMove } },
    events: { select: onSelect },
    drawable: { enabled: true, visible: true, onChange: onShapes },
  });

  const present = presenter(view.id, {
    position: (place) => {
      let place2 = place;
      if (!pathExists(e.study.chapters[place.chapter] ?? newChapter(''), place.path)) {
        // The teacher went where this copy has no move yet: read the study again, then follow.
        void studyApi.get(view.id).then((v) => {
          if (v.study) e.study = v.study;
          place2 = pathExists(e.study.chapters[place.chapter] ?? newChapter(''), place.path) ? place : { chapter: place.chapter, path: [] };
          apply(follow(e.follow, { t: 'position', place: place2 }));
        });
        return;
      }
      apply(follow(e.follow, { t: 'position', place: place2 }));
    },
    released: () => apply(follow(e.follow, { t: 'released' })),
  });
  if (!e.owner) present.follow();

  /** A new present-mode state: the board goes where it says. */
  function apply(s: FollowState): void {
    e.follow = s;
    if (s.shown.chapter !== e.chapter || !samePath(s.shown.path, e.path)) {
      e.chapter = Math.min(s.shown.chapter, e.study.chapters.length - 1);
      e.path = s.shown.path;
      e.attempt = null;
    }
    redraw();
  }

  function goto(p: Path, chapter = e.chapter): void {
    if (!e.owner) {
      const s = follow(e.follow, { t: 'goto', place: { chapter, path: p } });
      if (s === e.follow) return void toast(t('study.followingNoMove'));
      e.follow = s;
    }
    e.chapter = chapter;
    e.path = p;
    e.attempt = null;
    e.toolFrom = null;
    if (e.owner && e.presenting && !e.dirty) present.present({ chapter, path: p });
    redraw();
  }

  function changed(): void {
    e.dirty = true;
    drawHead();
  }

  function onMove(orig: Key, dest: Key): void {
    const ch = chapterOf(e);
    const step = annotated(ch, e.path)?.step;
    if (!e.owner && step && step.kind === 'moves' && e.attempt) return tryMove(orig, dest);
    const at = positionAt(ch, e.path);
    if (!at) return redraw();
    if (isPromotion(at.pos, orig, dest) && legalMove(at.pos, orig, dest, 'queen')) {
      const pos = at.pos;
      return choosePromotion(promoEl, pos.turn, (role) => {
        const m = role ? legalMove(pos, orig, dest, role) : null;
        if (m) played(ch, sanOf(pos, m));
        else redraw();
      });
    }
    const m = legalMove(at.pos, orig, dest);
    if (!m) return redraw();
    played(ch, sanOf(at.pos, m));
  }

  function played(ch: Chapter, san: string): void {
    const p = play(ch, e.path, san);
    if (e.owner) changed();
    goto(p);
  }

  function onSelect(key: Key): void {
    if (e.tool && e.owner) {
      if (!e.toolFrom) {
        e.toolFrom = key;
        return drawBoard();
      }
      const ch = chapterOf(e);
      const shape: Shape = e.toolFrom === key ? { brush: e.tool, orig: key } : { brush: e.tool, orig: e.toolFrom, dest: key };
      const old = annotated(ch, e.path)?.shapes ?? [];
      const same = (s: Shape) => s.orig === shape.orig && (s.dest ?? '') === (shape.dest ?? '');
      const list = old.some(same) ? old.filter((s) => !same(s)) : [...old, shape];
      setShapes(ch, e.path, list);
      e.toolFrom = null;
      changed();
      return redraw();
    }
    const step = annotated(chapterOf(e), e.path)?.step;
    if (!e.owner && step?.kind === 'squares' && e.attempt && !e.attempt.verdict?.done) {
      e.attempt.squares = [...e.attempt.squares, key];
      void judge({ squares: e.attempt.squares });
    }
  }

  function onShapes(shapes: DrawShape[]): void {
    if (!e.owner) return;
    const list: Shape[] = shapes
      .filter((s) => BRUSHES.includes(s.brush as Brush))
      .map((s) => (s.dest ? { brush: s.brush as Brush, orig: s.orig, dest: s.dest } : { brush: s.brush as Brush, orig: s.orig }));
    setShapes(chapterOf(e), e.path, list);
    changed();
    drawAnnotations();
  }

  // ----- a reader's try at a step -----

  function tryMove(orig: Key, dest: Key): void {
    const a = e.attempt!;
    const pos = positionFromFen(a.fen);
    const m = pos && legalMove(pos, orig, dest, isPromotion(pos, orig, dest) ? 'queen' : undefined);
    const uci = pos && m ? standardUci(pos, m) : orig + dest;
    a.moves = [...a.moves, uci];
    void judge({ moves: a.moves });
  }

  async function judge(answer: { moves?: string[]; squares?: string[]; choices?: number[] }): Promise<void> {
    const a = e.attempt;
    if (!a) return;
    a.busy = true;
    try {
      const v = await studyApi.judge(view.id, { chapter: e.chapter, path: e.path, ...answer });
      if (e.attempt !== a) return;
      a.verdict = v;
      if (!v.ok) {
        // A wrong answer is taken back; the step goes on from where it was.
        a.moves = a.moves.slice(0, -1);
        a.squares = a.squares.slice(0, -1);
      } else if (v.fen) {
        // The history sent is the learner's own moves; the scripted reply is in the position the judge answers.
        a.fen = v.fen;
      }
      if (v.restart) Object.assign(a, newTry(stepFen()), { verdict: v });
    } catch (x) {
      toast(errorText(x));
      a.moves = a.moves.slice(0, -1);
      a.squares = a.squares.slice(0, -1);
    }
    a.busy = false;
    redraw();
  }

  function stepFen(): string {
    const s = annotated(chapterOf(e), e.path)?.step;
    return (s?.fen as string | undefined) ?? fenAt(chapterOf(e), e.path) ?? '';
  }

  // ----- drawing -----

  function drawBoard(): void {
    const ch = chapterOf(e);
    const at = positionAt(ch, e.path) ?? { pos: positionOf(ch.fen)!, last: null };
    let pos = at.pos;
    let last = at.last ? [makeUci(at.last).slice(0, 2), makeUci(at.last).slice(2, 4)] : undefined;
    const ann = annotated(ch, e.path);
    if (e.attempt) {
      pos = positionFromFen(e.attempt.fen) ?? pos;
      last = undefined;
    }
    const fen = makeFen(pos.toSetup());
    const orientation = ch.orientation ?? 'white';
    const canMove = !e.tool && (e.owner || !(e.follow.live && e.follow.following));
    const shapes: DrawShape[] = (ann?.shapes ?? []).map((s) => ({ orig: s.orig as Key, dest: s.dest as Key | undefined, brush: s.brush }));
    if (e.toolFrom) shapes.push({ orig: e.toolFrom as Key, brush: 'paleGrey' });
    board.set({
      fen,
      orientation,
      turnColor: pos.turn,
      lastMove: last as Key[] | undefined,
      check: checkColor(pos),
      movable: { color: canMove ? pos.turn : undefined, dests: canMove ? destsOf(pos) : new Map() },
      drawable: { enabled: e.owner && !e.tool, shapes: [], autoShapes: [] },
    });
    board.setShapes(e.attempt ? [] : shapes);
    mirror(boardEl, fen, orientation);
    boardEl.dataset.path = e.path.join(',');
    boardEl.dataset.chapter = String(e.chapter);
    boardEl.dataset.shapes = (ann?.shapes ?? []).map((s) => `${s.brush[0].toUpperCase()}${s.orig}${s.dest ?? ''}`).join(' ');
  }

  function drawBanner(): void {
    const f = e.follow;
    if (e.owner) {
      bannerEl.hidden = !e.presenting;
      if (e.presenting) replace(bannerEl, h('span', {}, t('study.presentingNow')));
      bannerEl.dataset.state = e.presenting ? 'presenting' : '';
      return;
    }
    bannerEl.hidden = !f.live && !f.released;
    bannerEl.dataset.state = f.live ? (f.following ? 'following' : 'alone') : f.released ? 'released' : '';
    if (!f.live) {
      if (f.released) replace(bannerEl, h('span', {}, t('study.released', { name: displayName(view.owner) })));
      return;
    }
    replace(
      bannerEl,
      f.following
        ? [
            h('span', {}, t('study.followingTeacher', { name: displayName(view.owner) })),
            h('button', { type: 'button', class: 'btn small', testid: 'study-explore', onclick: () => apply(follow(e.follow, { t: 'release' })) }, t('study.explore')),
          ]
        : [
            h('span', {}, t('study.exploringAlone')),
            h('button', { type: 'button', class: 'btn small primary', testid: 'study-rejoin', onclick: () => apply(follow(e.follow, { t: 'rejoin' })) }, t('study.rejoin')),
          ],
    );
  }

  function drawHead(): void {
    const title = h('input', { class: 'study-title-input', testid: 'study-title', value: noteText(e.study.title, getLang()), 'aria-label': t('study.name') });
    title.addEventListener('input', () => {
      e.study.title = title.value;
      changed();
    });
    const save = h('button', { type: 'button', class: `btn${e.dirty ? ' primary' : ''}`, testid: 'study-save', disabled: !e.dirty, onclick: () => void saveStudy() }, e.dirty ? t('study.save') : t('study.saved'));
    const presentBtn = h(
      'button',
      { type: 'button', class: `btn${e.presenting ? ' primary' : ''}`, testid: 'study-present', 'aria-pressed': String(e.presenting), onclick: togglePresent },
      e.presenting ? t('study.presentStop') : t('study.present'),
    );
    replace(
      headEl,
      h('p', { class: 'crumbs' }, h('a', { href: '/study', 'data-link': '' }, t('study.back'))),
      e.owner
        ? h('div', { class: 'study-title-row' }, title, save, presentBtn)
        : h('h1', { translate: 'no', testid: 'study-title' }, noteText(e.study.title, getLang()), h('span', { class: 'hint study-by' }, ' · ', displayName(view.owner))),
    );
  }

  function drawChapters(): void {
    const items = e.study.chapters.map((c, i) =>
      h(
        'li',
        {},
        h('button', { type: 'button', class: `mv${i === e.chapter ? ' current' : ''}`, testid: 'study-chapter', 'data-index': String(i), onclick: () => goto([], i) }, `${i + 1}. ${noteText(c.name, getLang()) || '—'}`),
      ),
    );
    const owner = e.owner ? chapterTools() : null;
    replace(chaptersEl, h('h3', {}, t('study.chapters')), h('ol', { class: 'study-chapter-list' }, items), owner);
  }

  function chapterTools(): HTMLElement {
    const ch = chapterOf(e);
    const rename = h('input', { testid: 'chapter-name', value: noteText(ch.name, getLang()), 'aria-label': t('study.chapterName') });
    rename.addEventListener('change', () => {
      ch.name = rename.value.trim() || t('study.chapterDefault');
      changed();
      drawChapters();
    });
    const del = () => {
      if (e.study.chapters.length < 2 || !confirm(t('study.confirmDeleteChapter'))) return;
      e.study.chapters.splice(e.chapter, 1);
      changed();
      goto([], Math.max(0, e.chapter - 1));
    };
    const name = h('input', { testid: 'new-chapter-name', placeholder: t('study.chapterName') });
    const fen = h('input', { testid: 'new-chapter-fen', placeholder: t('study.fenPlaceholder') });
    const add = () => {
      const f = fen.value.trim() || (e.path.length ? fenAt(chapterOf(e), e.path) : null) || undefined;
      if (f && !positionFromFen(f)) return void toast(t('study.badFen'));
      e.study.chapters.push(newChapter(name.value.trim() || t('study.chapterDefault'), f));
      changed();
      goto([], e.study.chapters.length - 1);
    };
    const pgn = h('textarea', { class: 'pgn-input', testid: 'chapter-pgn', rows: 3, placeholder: t('study.pgnPlaceholder') });
    const importPgn = async () => {
      try {
        if (e.dirty) await saveStudy();
        const r = await studyApi.importPgn(view.id, pgn.value);
        const v = await studyApi.get(view.id);
        if (v.study) e.study = v.study;
        toast(t('study.imported', { n: String(r.added.length) }));
        goto([], r.added[0] ?? e.chapter);
      } catch (x) {
        toast(errorText(x));
      }
    };
    return h(
      'details',
      { class: 'study-chapter-tools' },
      h('summary', {}, t('study.chapterTools')),
      h('div', { class: 'field' }, h('label', {}, t('study.chapterName')), rename, h('button', { type: 'button', class: 'btn small danger', testid: 'chapter-delete', onclick: del, disabled: e.study.chapters.length < 2 }, t('study.deleteChapter'))),
      h('div', { class: 'field' }, name, fen, h('button', { type: 'button', class: 'btn small', testid: 'chapter-add', onclick: add }, t('study.addChapter'))),
      h('p', { class: 'hint' }, t('study.fenHelp')),
      pgn,
      h('div', { class: 'form-buttons' }, h('button', { type: 'button', class: 'btn small', testid: 'chapter-import', onclick: () => void importPgn() }, t('study.importPgn'))),
    );
  }

  function drawTree(): void {
    replace(treeBox, renderChapterTree(chapterOf(e), e.path, (p) => goto(p)));
    const btn = (label: string, testid: string, title: string, to: () => Path) =>
      h('button', { type: 'button', class: 'btn nav', testid, title, 'aria-label': title, onclick: () => goto(to()) }, label);
    replace(
      navEl,
      btn('«', 'study-first', t('nav.first'), () => []),
      btn('‹', 'study-prev', t('nav.prev'), () => prev(e.path)),
      btn('›', 'study-next', t('nav.next'), () => next(chapterOf(e), e.path)),
      btn('»', 'study-last', t('nav.last'), () => lineEnd(chapterOf(e), e.path)),
    );
  }

  function drawAnnotations(): void {
    const ch = chapterOf(e);
    const ann = annotated(ch, e.path);
    const step = ann?.step;
    const parts: HTMLElement[] = [];
    if (!e.owner) {
      const c = noteText(ann?.comment, getLang());
      if (c) parts.push(h('p', { class: 'study-comment', testid: 'study-comment' }, c));
      if (step) {
        if (!e.attempt) e.attempt = newTry(stepFen());
        parts.push(stepPanel(step, e.attempt, (i) => void judge({ choices: [i] }), () => {
          e.attempt = newTry(stepFen());
          redraw();
        }));
      }
      replace(annEl, parts);
      return;
    }
    const both = noteBoth(ann?.comment);
    const zh = h('textarea', { testid: 'comment-zh', rows: 2, value: both.zh, placeholder: t('study.commentZh') });
    const en = h('textarea', { testid: 'comment-en', rows: 2, value: both.en, placeholder: t('study.commentEn') });
    const onComment = () => {
      setComment(ch, e.path, makeNote(zh.value, en.value));
      changed();
      drawTree();
    };
    zh.addEventListener('change', onComment);
    en.addEventListener('change', onComment);
    const node = e.path.length > 0;
    const nags = node
      ? h('div', { class: 'form-buttons study-nags' }, NAGS.map((n) => {
          const on = !!annotated(ch, e.path) && ((annotated(ch, e.path) as { nags?: number[] }).nags ?? []).includes(n);
          return h('button', { type: 'button', class: `btn small${on ? ' primary' : ''}`, 'aria-pressed': String(on), onclick: () => {
            toggleNag(ch, e.path, n);
            changed();
            redraw();
          } }, ['', '!', '?', '!!', '??', '!?', '?!'][n]);
        }))
      : null;
    const tools = h(
      'div',
      { class: 'form-buttons study-tools', testid: 'shape-tools' },
      h('span', { class: 'hint' }, t('study.shapes')),
      BRUSHES.map((b) =>
        h('button', { type: 'button', class: `btn small brush brush-${b}${e.tool === b ? ' on' : ''}`, testid: `brush-${b}`, 'aria-pressed': String(e.tool === b), title: t(`study.brush.${b}`), onclick: () => {
          e.tool = e.tool === b ? null : b;
          e.toolFrom = null;
          redraw();
        } }, t(`study.brush.${b}`)),
      ),
      h('button', { type: 'button', class: 'btn small', testid: 'shapes-clear', onclick: () => {
        setShapes(ch, e.path, []);
        changed();
        redraw();
      } }, t('study.clearShapes')),
    );
    parts.push(
      h('h3', {}, t('study.comment')),
      h('div', { class: 'field study-pair' }, zh, en),
      nags ?? h('span', {}),
      tools,
      h('p', { class: 'hint' }, t('study.shapesHelp')),
      node ? h('div', { class: 'form-buttons' }, h('button', { type: 'button', class: 'btn small danger', testid: 'study-delete-move', onclick: () => {
        const p = remove(ch, e.path);
        changed();
        goto(p);
      } }, t('study.deleteFromHere'))) : h('span', {}),
      h('details', { class: 'study-step-box' }, h('summary', { testid: 'step-summary' }, step ? t('study.stepEdit') : t('study.stepAdd')), stepForm(step, fenAt(ch, e.path) ?? ch.fen, (s) => {
        setStep(ch, e.path, s);
        changed();
        redraw();
      })),
    );
    replace(annEl, parts);
  }

  function drawShare(): void {
    const links = h(
      'div',
      { class: 'form-buttons' },
      h('a', { class: 'btn small', href: studyApi.pgnUrl(view.id, e.chapter), download: `study-${view.id}-${e.chapter + 1}.pgn`, testid: 'export-pgn' }, t('study.exportPgn')),
      h('a', { class: 'btn small', href: studyApi.tomlUrl(view.id), download: `study-${view.id}.toml`, testid: 'export-toml' }, t('study.exportToml')),
    );
    if (!e.owner) return void replace(shareEl, h('h3', {}, t('study.export')), links);
    const vis = h(
      'select',
      { testid: 'study-visibility', id: 'study-visibility' },
      (['private', 'class', 'public'] as Visibility[]).map((v) => h('option', { value: v, selected: e.view.visibility === v }, t(`study.vis.${v}`))),
    );
    const teach = e.classes.filter((c) => c.role === 'teacher');
    const cls = h('select', { testid: 'study-class', id: 'study-class', hidden: e.view.visibility !== 'class' }, teach.map((c) => h('option', { value: c.id, selected: e.view.class === c.id }, c.name)));
    vis.addEventListener('change', () => {
      e.view.visibility = vis.value as Visibility;
      e.view.class = e.view.visibility === 'class' ? cls.value || null : null;
      cls.hidden = e.view.visibility !== 'class';
      changed();
    });
    cls.addEventListener('change', () => {
      e.view.class = cls.value;
      changed();
    });
    const delStudy = () => {
      if (!confirm(t('study.confirmDelete'))) return;
      studyApi.remove(view.id).then(() => navigate('/study')).catch((x) => toast(errorText(x)));
    };
    replace(
      shareEl,
      h('h3', {}, t('study.share')),
      h('div', { class: 'field' }, h('label', { for: 'study-visibility' }, t('study.visibility')), vis, cls),
      e.view.visibility === 'class' && !teach.length ? h('p', { class: 'warn' }, t('study.noClass')) : null,
      e.view.visibility === 'public' ? h('p', { class: 'hint' }, t('study.publicHelp'), ' ', h('code', { translate: 'no' }, `${location.origin}/study/${view.id}`)) : null,
      h('h3', {}, t('study.export')),
      links,
      h('div', { class: 'form-buttons' }, h('button', { type: 'button', class: 'btn small danger', testid: 'study-delete', onclick: delStudy }, t('study.delete'))),
    );
  }

  function redraw(): void {
    // The annotations first: a reader's try at a step starts there, and the board shows it.
    drawAnnotations();
    drawBoard();
    drawBanner();
    drawTree();
    drawChapters();
    // The banner above the board may have grown or shrunk: chessground measures the board again on the next
    // event (it keeps its place until a scroll or a resize otherwise, and clicks would land on the old squares).
    board.state.dom.bounds.clear();
  }

  async function saveStudy(): Promise<void> {
    try {
      const v = await studyApi.save(view.id, e.study, e.view.visibility, e.view.class);
      e.view = { ...e.view, ...v, study: undefined };
      e.dirty = false;
      drawHead();
      toast(t('study.savedToast'));
    } catch (x) {
      toast(errorText(x));
      throw x;
    }
  }

  function togglePresent(): void {
    e.presenting = !e.presenting;
    if (e.presenting) {
      const send = () => present.present({ chapter: e.chapter, path: e.path });
      // Readers read the study from the server: what they are shown must be saved first.
      if (e.dirty) void saveStudy().then(send, () => undefined);
      else send();
    } else present.stop();
    drawHead();
    drawBanner();
  }

  // While presenting, each new move is saved (readers load the study again to reach it).
  let autosave = 0;
  const tick = window.setInterval(() => {
    if (e.owner && e.presenting && e.dirty && Date.now() - autosave > 1500) {
      autosave = Date.now();
      void saveStudy().then(() => present.present({ chapter: e.chapter, path: e.path }), () => undefined);
    }
  }, 500);

  drawHead();
  drawShare();
  redraw();
  if (e.owner && currentUser() && !currentUser()!.guest)
    classApi
      .list()
      .then((l) => {
        e.classes = l.classes;
        drawShare();
      })
      .catch(() => undefined);
  const onUnload = (ev: BeforeUnloadEvent) => {
    if (e.dirty) ev.preventDefault();
  };
  window.addEventListener('beforeunload', onUnload);
  return {
    el,
    /** The board measures itself once in the page (it was made before the study was loaded and shown). */
    mounted() {
      board.redrawAll();
      drawBoard();
    },
    destroy() {
      window.clearInterval(tick);
      window.removeEventListener('beforeunload', onUnload);
      if (e.presenting) present.stop();
      present.destroy();
      board.destroy();
    },
  };
}

export type { Place };

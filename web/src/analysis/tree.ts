// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board's move tree (no DOM): a root position and, under every node, its continuations — the first
// child is the main continuation, the others are variations. A place in the tree is a path of node ids from the
// root (ids stay valid when variations are promoted or deleted). Moves, comments (before and after a move) and
// NAGs are kept as PGN has them, so a PGN read with `fromPgn` is written back by `toPgn` with the same content.
// The operations change the tree in place and return the path to show next.

import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { ChildNode, Node, emptyHeaders, makePgn, parsePgn, startingPosition } from 'chessops/pgn';
import type { Game, PgnNodeData } from 'chessops/pgn';
import { makeSan, parseSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { standardUci } from '../chess';

export interface MoveNode {
  id: number;
  /** Plies from the root position to the position after this move. */
  ply: number;
  san: string;
  /** Standard UCI (castling as the king's two-square move). */
  uci: string;
  /** The position after the move. */
  fen: string;
  /** Comments written before the move (PGN allows them at the start of a variation). */
  startingComments: string[];
  /** Comments after the move. */
  comments: string[];
  nags: number[];
  children: MoveNode[];
}

export interface Tree {
  /** The root position. */
  fen: string;
  /** The PGN headers (Event, White, FEN…), in order. */
  headers: Map<string, string>;
  /** Comments before the first move. */
  comments: string[];
  children: MoveNode[];
  nextId: number;
}

export type Path = readonly number[];

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export function newTree(fen: string = START_FEN, headers?: Map<string, string>): Tree {
  return { fen, headers: headers ?? new Map(), comments: [], children: [], nextId: 1 };
}

function positionOf(fen: string): Chess {
  const p = startingPosition(new Map([['FEN', fen]]));
  return p.isOk ? (p.value as Chess) : Chess.default();
}

/** The nodes along `path` (stopping at the first id that is not there). */
export function nodesOf(tree: Tree, path: Path): MoveNode[] {
  const out: MoveNode[] = [];
  let children = tree.children;
  for (const id of path) {
    const n = children.find((c) => c.id === id);
    if (!n) break;
    out.push(n);
    children = n.children;
  }
  return out;
}

/** The node at `path` (`null` for the root). */
export function nodeAt(tree: Tree, path: Path): MoveNode | null {
  const ns = nodesOf(tree, path);
  return ns.length ? ns[ns.length - 1] : null;
}

/** The longest prefix of `path` that exists in the tree. */
export function validPath(tree: Tree, path: Path): number[] {
  return nodesOf(tree, path).map((n) => n.id);
}

export function childrenAt(tree: Tree, path: Path): MoveNode[] {
  return nodeAt(tree, path)?.children ?? tree.children;
}

export function fenAt(tree: Tree, path: Path): string {
  return nodeAt(tree, path)?.fen ?? tree.fen;
}

/** The UCI moves from the root to `path`. */
export function movesTo(tree: Tree, path: Path): string[] {
  return nodesOf(tree, path).map((n) => n.uci);
}

/** The path followed by main continuations to the end. */
export function lineEnd(tree: Tree, path: Path): number[] {
  const out = validPath(tree, path);
  let children = childrenAt(tree, out);
  while (children.length) {
    out.push(children[0].id);
    children = children[0].children;
  }
  return out;
}

/** The nodes of the line through `path`: the path, then the main continuations after it. */
export function lineThrough(tree: Tree, path: Path): MoveNode[] {
  return nodesOf(tree, lineEnd(tree, path));
}

export function mainline(tree: Tree): MoveNode[] {
  return lineThrough(tree, []);
}

/** Whether every move of `path` is a main continuation. */
export function isMainline(tree: Tree, path: Path): boolean {
  let children = tree.children;
  for (const id of path) {
    if (children[0]?.id !== id) return false;
    children = children[0].children;
  }
  return true;
}

/**
 * Plays `uci` after `path`: an existing continuation with that move is followed, otherwise the move is added after
 * the others (the main continuation when it is the first). Returns the new path, or `null` when the move is illegal.
 */
export function play(tree: Tree, path: Path, uci: string): number[] | null {
  const at = validPath(tree, path);
  const children = childrenAt(tree, at);
  const pos = positionOf(fenAt(tree, at));
  const m = parseUci(uci);
  if (!m || !('from' in m)) return null;
  const nm = normalizeMove(pos, m);
  if (!('from' in nm) || !pos.isLegal(nm)) return null;
  const std = standardUci(pos, nm);
  const existing = children.find((c) => c.uci === std);
  if (existing) return [...at, existing.id];
  const node = makeNode(tree, pos, nm, at.length + 1);
  children.push(node);
  return [...at, node.id];
}

function makeNode(tree: Tree, pos: Chess, m: ReturnType<typeof normalizeMove>, ply: number): MoveNode {
  const san = makeSan(pos, m);
  const uci = 'from' in m ? standardUci(pos, m) : '';
  const after = pos.clone();
  after.play(m);
  return {
    id: tree.nextId++,
    ply,
    san,
    uci,
    fen: makeFen(after.toSetup()),
    startingComments: [],
    comments: [],
    nags: [],
    children: [],
  };
}

/**
 * Promotes the variation that `path` is in by one level: at the deepest point where the path leaves the main
 * continuation, its branch becomes the main continuation (the old one becomes its first variation). With
 * `toMain`, repeats until the whole path is on the main line. Returns whether anything changed.
 */
export function promote(tree: Tree, path: Path, toMain = false): boolean {
  let changed = false;
  for (;;) {
    const nodes = nodesOf(tree, path);
    let lists: MoveNode[][] = [tree.children, ...nodes.map((n) => n.children)];
    lists = lists.slice(0, nodes.length);
    let k = -1;
    for (let i = nodes.length - 1; i >= 0; i--) {
      if (lists[i][0] !== nodes[i]) {
        k = i;
        break;
      }
    }
    if (k < 0) return changed;
    const list = lists[k];
    const idx = list.indexOf(nodes[k]);
    list.splice(idx, 1);
    list.unshift(nodes[k]);
    changed = true;
    if (!toMain) return changed;
  }
}

/** Deletes the node at `path` with everything after it; returns the path of its parent. */
export function remove(tree: Tree, path: Path): number[] {
  const at = validPath(tree, path);
  if (!at.length) return [];
  const parent = at.slice(0, -1);
  const list = childrenAt(tree, parent);
  const i = list.findIndex((c) => c.id === at[at.length - 1]);
  if (i >= 0) list.splice(i, 1);
  return parent;
}

// ---- navigation ----

export function next(tree: Tree, path: Path): number[] {
  const at = validPath(tree, path);
  const c = childrenAt(tree, at)[0];
  return c ? [...at, c.id] : at;
}

export function prev(tree: Tree, path: Path): number[] {
  return validPath(tree, path).slice(0, -1);
}

/** The sibling `delta` places away (−1 up, +1 down) of the node at `path`, if any; else `path`. */
export function sibling(tree: Tree, path: Path, delta: number): number[] {
  const at = validPath(tree, path);
  if (!at.length) return at;
  const list = childrenAt(tree, at.slice(0, -1));
  const i = list.findIndex((c) => c.id === at[at.length - 1]);
  const j = i + delta;
  if (j < 0 || j >= list.length) return at;
  return [...at.slice(0, -1), list[j].id];
}

// ---- PGN ----

export interface PgnProblem {
  /** The SAN that could not be played, and the move number it had. */
  san: string;
  moveNumber: string;
}

/** Reads the first game of a PGN text; `null` if there is none. Moves that cannot be played are reported (with
 * everything after them in their line left out). */
export function fromPgn(text: string): { tree: Tree; problems: PgnProblem[] } | null {
  // The headers as written (none added), so that writing the tree back gives the same ones.
  const game = parsePgn(text, emptyHeaders)[0];
  if (!game) return null;
  const start = startingPosition(game.headers);
  if (start.isErr) return null;
  const root = start.value as Chess;
  const tree = newTree(makeFen(root.toSetup()), game.headers);
  tree.comments = [...(game.comments ?? [])];
  const problems: PgnProblem[] = [];
  const build = (pos: Chess, from: Node<PgnNodeData>, into: MoveNode[], ply: number) => {
    for (const child of from.children) {
      const m = parseSan(pos, child.data.san);
      if (!m) {
        problems.push({ san: child.data.san, moveNumber: `${pos.fullmoves}${pos.turn === 'white' ? '.' : '…'}` });
        continue;
      }
      const node = makeNode(tree, pos, m, ply + 1);
      node.startingComments = [...(child.data.startingComments ?? [])];
      node.comments = [...(child.data.comments ?? [])];
      node.nags = [...(child.data.nags ?? [])];
      into.push(node);
      const after = pos.clone();
      after.play(m);
      build(after, child, node.children, ply + 1);
    }
  };
  build(root, game.moves, tree.children, 0);
  return { tree, problems };
}

/** The tree as PGN: headers, the main line with every variation, comments and NAGs. */
export function toPgn(tree: Tree): string {
  const moves = new Node<PgnNodeData>();
  const add = (into: Node<PgnNodeData>, nodes: MoveNode[]) => {
    for (const n of nodes) {
      const data: PgnNodeData = { san: n.san };
      if (n.startingComments.length) data.startingComments = [...n.startingComments];
      if (n.comments.length) data.comments = [...n.comments];
      if (n.nags.length) data.nags = [...n.nags];
      const c = new ChildNode(data);
      into.children.push(c);
      add(c, n.children);
    }
  };
  add(moves, tree.children);
  const headers = new Map(tree.headers);
  if (tree.fen !== START_FEN) {
    headers.set('SetUp', '1');
    headers.set('FEN', tree.fen);
  }
  if (!headers.has('Result')) headers.set('Result', '*');
  const game: Game<PgnNodeData> = { headers, moves };
  if (tree.comments.length) game.comments = [...tree.comments];
  return makePgn(game);
}

/** A tree from a start position and a line of UCI moves (stopping at the first that cannot be played). */
export function fromMoves(fen: string | null, uci: readonly string[]): Tree {
  const tree = newTree(fen ?? START_FEN);
  let path: number[] = [];
  for (const u of uci) {
    const p = play(tree, path, u);
    if (!p) break;
    path = p;
  }
  return tree;
}

/** Sets the comment after the move at `path` (or before the first move, at the root); empty removes it. */
export function setComment(tree: Tree, path: Path, text: string): void {
  const n = nodeAt(tree, path);
  const comments = text.trim() ? [text.trim()] : [];
  if (n) n.comments = comments;
  else tree.comments = comments;
}

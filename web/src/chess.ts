// SPDX-License-Identifier: GPL-3.0-or-later
// Chess helpers on chessops: replaying a game, legal destinations for chessground, SAN with Chinese piece letters
// (马f3), parsing what a player types, and whether a draw can be claimed (threefold repetition, 50 moves).

import { Chess, normalizeMove } from 'chessops/chess';
import type { Position } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeSquare, parseSquare, parseUci } from 'chessops/util';
import type { Move, NormalMove, Role, SquareName } from 'chessops/types';
import type { Key } from '@lichess-org/chessground/types';

export { INITIAL_FEN };

export function positionFromFen(fen: string): Chess | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  return pos.isErr ? null : pos.value;
}

export function fenOf(pos: Position): string {
  return makeFen(pos.toSetup());
}

/** Legal destinations in chessground's form (castling both as king two squares and king onto rook). */
export function destsOf(pos: Position): Map<Key, Key[]> {
  return chessgroundDests(pos) as Map<Key, Key[]>;
}

export function isPromotion(pos: Position, from: Key, to: Key): boolean {
  const f = parseSquare(from);
  const t = parseSquare(to);
  if (f === undefined || t === undefined) return false;
  const p = pos.board.get(f);
  if (!p || p.role !== 'pawn') return false;
  const rank = Math.floor(t / 8);
  return (p.color === 'white' && rank === 7) || (p.color === 'black' && rank === 0);
}

/** The move from chessground squares, if legal in `pos`. */
export function legalMove(pos: Position, from: Key, to: Key, promotion?: Role): NormalMove | null {
  const f = parseSquare(from);
  const t = parseSquare(to);
  if (f === undefined || t === undefined) return null;
  const m = normalizeMove(pos, { from: f, to: t, promotion }) as NormalMove;
  return pos.isLegal(m) ? m : null;
}

/** A replayed line: positions[i] is the position after i plies. */
export interface Line {
  positions: Chess[];
  moves: { uci: string; san: string }[];
}

export function replay(initialFen: string | null, uci: string[]): Line {
  const start = (initialFen && positionFromFen(initialFen)) || Chess.default();
  const positions = [start];
  const moves: { uci: string; san: string }[] = [];
  let pos = start;
  for (const u of uci) {
    const m = parseUci(u);
    if (!m) break;
    const nm = normalizeMove(pos, m);
    if (!pos.isLegal(nm)) break;
    const san = makeSan(pos, nm);
    pos = pos.clone();
    pos.play(nm);
    positions.push(pos);
    moves.push({ uci: u, san });
  }
  return { positions, moves };
}

export function uciOf(m: Move): string {
  if ('from' in m) return makeSquare(m.from) + makeSquare(m.to) + (m.promotion ? roleLetter(m.promotion) : '');
  return '';
}

/** The UCI move in the standard form (castling as the king's two-square move). */
export function standardUci(pos: Position, m: NormalMove): string {
  const piece = pos.board.get(m.from);
  if (piece?.role === 'king') {
    const target = pos.board.get(m.to);
    if (target && target.role === 'rook' && target.color === piece.color) {
      const rank = Math.floor(m.from / 8);
      const file = m.to > m.from ? 6 : 2;
      return makeSquare(m.from) + makeSquare((rank * 8 + file) as typeof m.to);
    }
  }
  return uciOf(m);
}

/** The UCI move the server reads: castling as the king's two-square move, or in Chess960 as the king onto its
 * rook (a two-square king move could be an ordinary move there). */
export function wireUci(pos: Position, m: NormalMove, chess960: boolean): string {
  return chess960 ? uciOf(m) : standardUci(pos, m);
}

function roleLetter(r: Role): string {
  return { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' }[r];
}

const ZH_LETTERS: Record<string, string> = { K: '王', Q: '后', R: '车', B: '象', N: '马' };
const FROM_ZH: Record<string, string> = { 王: 'K', 后: 'Q', 车: 'R', 象: 'B', 马: 'N', 兵: '' };

/** SAN with Chinese piece letters: Nf3 → 马f3, e8=Q → e8=后. */
export function chineseSan(san: string): string {
  return san.replace(/[KQRBN]/g, (c) => ZH_LETTERS[c] ?? c);
}

/** Normalises what a player types (e4, Nf3, 马f3, 兵e4, 0-0, e8=后) to SAN for chessops. */
export function normaliseInput(text: string): string {
  let s = text.trim().replace(/\s+/g, '');
  s = s.replace(/[王后车象马兵]/g, (c) => FROM_ZH[c] ?? c);
  s = s.replace(/０/g, '0').replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O').replace(/^o-o-o$/i, 'O-O-O').replace(/^o-o$/i, 'O-O');
  s = s.replace(/[+#!?]+$/, '');
  // e8Q → e8=Q
  s = s.replace(/^([a-h](?:x[a-h])?[18])([QRBN])$/, '$1=$2');
  return s;
}

export function parseTyped(pos: Position, text: string): NormalMove | null {
  const s = normaliseInput(text);
  if (!s) return null;
  const m = parseSan(pos, s);
  if (m && 'from' in m) return m;
  // Plain UCI (e2e4) too.
  const u = parseUci(s.toLowerCase());
  if (u && 'from' in u) {
    const nm = normalizeMove(pos, u) as NormalMove;
    if (pos.isLegal(nm)) return nm;
  }
  return null;
}

/**
 * For a typed move that is not legal, a guess at which of the player's pieces was meant, so that the server can
 * explain why it cannot go there: {from, to} or null.
 */
export function guessIllegal(pos: Position, text: string): { from: SquareName; to: SquareName } | null {
  const s = normaliseInput(text);
  const u = /^([a-h][1-8])-?x?([a-h][1-8])/.exec(s.toLowerCase());
  if (u) return { from: u[1] as SquareName, to: u[2] as SquareName };
  if (s.startsWith('O-O')) {
    const king = pos.board.kingOf(pos.turn);
    if (king === undefined) return null;
    const rank = Math.floor(king / 8);
    const file = s === 'O-O-O' ? 2 : 6;
    return { from: makeSquare(king), to: makeSquare((rank * 8 + file) as typeof king) };
  }
  const m = /^([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])/.exec(s);
  if (!m) return null;
  const roles: Record<string, Role> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
  const role: Role = roles[m[1] ?? ''] ?? 'pawn';
  const to = m[4] as SquareName;
  const candidates: SquareName[] = [];
  for (const sq of pos.board.pieces(pos.turn, role)) {
    const name = makeSquare(sq);
    if (m[2] && name[0] !== m[2]) continue;
    if (m[3] && name[1] !== m[3]) continue;
    candidates.push(name);
  }
  if (role === 'pawn' && !m[2]) {
    // Prefer a pawn on the same file.
    const same = candidates.filter((c) => c[0] === to[0]);
    if (same.length) return { from: same[0], to };
  }
  return candidates.length ? { from: candidates[0], to } : null;
}

/** The position's identity for repetition: board, side to move, castling rights and a capturable en-passant square. */
export function repetitionKey(pos: Position): string {
  const fen = fenOf(pos).split(' ');
  let ep = '-';
  if (pos.epSquare !== undefined) {
    for (const [, dests] of destsOf(pos)) {
      if (dests.includes(makeSquare(pos.epSquare) as Key)) {
        ep = makeSquare(pos.epSquare);
        break;
      }
    }
    // Only a pawn capture counts, and dests include every piece: check that a pawn can take.
    if (ep !== '-') {
      const ctx = pos.ctx();
      let pawnCan = false;
      for (const sq of pos.board.pieces(pos.turn, 'pawn')) {
        if (pos.dests(sq, ctx).has(pos.epSquare)) pawnCan = true;
      }
      if (!pawnCan) ep = '-';
    }
  }
  return `${fen[0]} ${fen[1]} ${fen[2]} ${ep}`;
}

export type ClaimKind = 'threefold_repetition' | 'fifty_moves';

/** Which draw the player to move may claim in the last position of a line (FIDE 9.2, 9.3). */
export function claimable(positions: Position[]): ClaimKind | null {
  const last = positions[positions.length - 1];
  if (!last) return null;
  const key = repetitionKey(last);
  let n = 0;
  for (const p of positions) if (repetitionKey(p) === key) n++;
  if (n >= 3) return 'threefold_repetition';
  if (last.halfmoves >= 100) return 'fifty_moves';
  return null;
}

/** The squares of the side to move's king when in check (for highlighting). */
export function checkColor(pos: Position): 'white' | 'black' | false {
  return pos.isCheck() ? pos.turn : false;
}

export function lastMoveKeys(uci: string | undefined): Key[] | undefined {
  if (!uci) return undefined;
  return [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key];
}

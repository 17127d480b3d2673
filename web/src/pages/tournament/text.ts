// SPDX-License-Identifier: GPL-3.0-or-later
// The words for a tournament's system, mode, status and results, and the tie-breaks' names.

import { t } from '../../i18n';
import type { ByeKind, TournamentMode, TournamentResult, TournamentStatus, TournamentSystem } from '../../protocol_http';

export function systemText(s: TournamentSystem): string {
  return t(`tour.system.${s}`);
}

export function modeText(m: TournamentMode): string {
  return t(`tour.mode.${m}`);
}

export function statusText(s: TournamentStatus): string {
  return t(`tour.status.${s}`);
}

export function byeText(k: ByeKind): string {
  return t(`tour.bye.${k}`);
}

/** A result as the pairings list writes it (½ for a draw; forfeits with + and −). */
export function resultText(r: TournamentResult | null): string {
  switch (r) {
    case '1-0':
      return '1 – 0';
    case '0-1':
      return '0 – 1';
    case '1/2-1/2':
      return '½ – ½';
    case '+-':
      return '+ – −';
    case '-+':
      return '− – +';
    case '--':
      return '− – −';
    default:
      return '*';
  }
}

export const RESULTS: TournamentResult[] = ['1-0', '1/2-1/2', '0-1', '+-', '-+', '--'];

const TIE_BREAK_KEYS: Record<string, Parameters<typeof t>[0]> = {
  BH: 'tour.tb.BH',
  'BH-C1': 'tour.tb.BH-C1',
  'BH-M1': 'tour.tb.BH-M1',
  SB: 'tour.tb.SB',
  DE: 'tour.tb.DE',
  WIN: 'tour.tb.WIN',
  WON: 'tour.tb.WON',
  BPG: 'tour.tb.BPG',
  BWG: 'tour.tb.BWG',
  PS: 'tour.tb.PS',
  ARO: 'tour.tb.ARO',
};

/** A tie-break's full name (its FIDE abbreviation is the column's head). */
export function tieBreakName(abbr: string): string {
  const k = TIE_BREAK_KEYS[abbr];
  return k ? t(k) : abbr;
}

/** A score with ½. */
export function score(x: number | null): string {
  if (x === null) return '—';
  const whole = Math.floor(x);
  const half = Math.abs(x - whole - 0.5) < 1e-9;
  if (Number.isInteger(x)) return String(x);
  if (half) return whole === 0 ? '½' : `${whole}½`;
  return x.toFixed(2);
}

/** A tie-break's short name for a column head, in the page's language (its legend says what it is). */
export function tieBreakShort(abbr: string): string {
  const k = `tour.tbShort.${abbr}` as Parameters<typeof t>[0];
  return TIE_BREAK_KEYS[abbr] ? t(k) : abbr;
}

/** The TRF result codes a crosstable cell may show, in the order the legend lists them. */
export const CROSS_CODES = ['1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z', '*'] as const;

/** What a crosstable code means. */
export function codeText(code: string): string {
  return (CROSS_CODES as readonly string[]).includes(code) ? t(`tour.code.${code}` as Parameters<typeof t>[0]) : code;
}

/** A crosstable cell: the opponent's number, the colour (白/黑 or w/b) and the code. */
export function cellText(opponent: number | null, colour: string, code: string): string {
  if (!opponent) return code;
  const c = colour === 'w' ? t('tour.colourW') : colour === 'b' ? t('tour.colourB') : '';
  return `${opponent}${c} ${code}`;
}

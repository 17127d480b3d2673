// SPDX-License-Identifier: GPL-3.0-or-later
// Names as people read them: players (the computer by level, guests as 游客-xxxx in Chinese), time controls, and
// the home page's time-control box (minutes+seconds, as the presets show them) to and from the PGN tag.
import type { Player } from '../protocol';
import { t } from '../i18n';

/** A user name for display: the server's `Guest-xxxx` reads `游客-xxxx` in Chinese. Links keep the real name. */
export function displayName(name: string): string {
  const m = /^Guest-(.+)$/.exec(name);
  return m ? `${t('guest.prefix')}-${m[1]}` : name;
}

export function playerName(p: Player): string {
  if (p.is_engine) return t('engine.name', { level: String(p.engine_level ?? '?') });
  return displayName(p.name);
}

const PERIOD = /^(?:\d+\/)?\d+(?:\+\d+)?$/;

/**
 * The time-control box's text as the PGN `TimeControl` tag the server takes, or null when it cannot be read.
 * `10+5` is 10 minutes plus 5 seconds a move (`600+5`), `10` is `600+0`, `0.5+0` is 30 seconds, `-` or nothing is
 * no limit. The FIDE form with several periods, in seconds as in PGN (`40/5400+30:1800+30`), is taken as it is.
 */
export function tcFromBox(text: string): string | null {
  const s = text.trim().replace(/＋/g, '+').replace(/：/g, ':').replace(/\s+/g, '');
  if (s === '' || s === '-') return '-';
  const m = /^(\d+(?:[.,]\d+)?)(?:\+(\d+))?$/.exec(s);
  if (m) {
    const secs = Math.round(Number(m[1].replace(',', '.')) * 60);
    if (!Number.isFinite(secs)) return null;
    return `${secs}+${Number(m[2] ?? '0')}`;
  }
  if ((s.includes('/') || s.includes(':')) && s.split(':').every((p) => PERIOD.test(p))) return s;
  return null;
}

/** The box's text for a PGN tag: `600+5` → `10+5`, `30+0` → `0.5+0`; other tags (`-`, several periods) as they are. */
export function tcToBox(tc: string): string {
  const m = /^(\d+)\+(\d+)$/.exec(tc);
  if (!m) return tc;
  const min = Number(m[1]) / 60;
  return `${Number.isInteger(min) ? min : Number(min.toFixed(3))}+${m[2]}`;
}

/** A PGN TimeControl tag for people: `300+3` → 5+3, `15+0` → 15″+0, `-` → unlimited. */
export function tcLabel(tc: string): string {
  const m = /^(\d+)\+(\d+)$/.exec(tc);
  if (m) {
    const base = Number(m[1]);
    const inc = m[2];
    if (base % 60 === 0) return `${base / 60}+${inc}`;
    if (base > 60) return `${(base / 60).toFixed(1)}+${inc}`;
    return t('tc.seconds', { s: String(base), inc });
  }
  const only = /^(\d+)$/.exec(tc);
  if (only) return tcLabel(`${only[1]}+0`);
  if (tc === '-') return t('tc.unlimited');
  // Several periods (40/5400+30:1800+30): moves/minutes′+increment″ each.
  const periods = tc.split(':').map((p) => {
    const x = /^(?:(\d+)\/)?(\d+)(?:\+(\d+))?$/.exec(p);
    if (!x) return p;
    const secs = Number(x[2]);
    const time = secs % 60 === 0 ? `${secs / 60}′` : `${secs}″`;
    return `${x[1] ? x[1] + '/' : ''}${time}${x[3] ? `+${x[3]}″` : ''}`;
  });
  return periods.join(' · ');
}

// SPDX-License-Identifier: GPL-3.0-or-later
import type { Player } from '../protocol';
import { t } from '../i18n';

export function playerName(p: Player): string {
  if (p.is_engine) return t('engine.name', { level: String(p.engine_level ?? '?') });
  return p.name;
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

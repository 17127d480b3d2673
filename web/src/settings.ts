// SPDX-License-Identifier: GPL-3.0-or-later
// Display settings remembered in localStorage.

interface Settings {
  chineseLetters: boolean;
}

const DEFAULTS: Settings = { chineseLetters: false };
const KEY = 'gx.settings';

function load(): Settings {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? { ...DEFAULTS, ...(JSON.parse(raw) as Partial<Settings>) } : { ...DEFAULTS };
  } catch {
    return { ...DEFAULTS };
  }
}

export function getSetting<K extends keyof Settings>(k: K): Settings[K] {
  return load()[k];
}

export function setSetting<K extends keyof Settings>(k: K, v: Settings[K]): void {
  const s = load();
  s[k] = v;
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    // private mode: not remembered
  }
}

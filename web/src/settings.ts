// SPDX-License-Identifier: GPL-3.0-or-later
// Display settings remembered in localStorage.

import { getLang } from './i18n';

interface Settings {
  chineseLetters: boolean;
}

/** Until the player chooses, Chinese piece letters (马f3) in Chinese and English letters (Nf3) in English. */
const defaults = (): Settings => ({ chineseLetters: getLang() === 'zh' });
const KEY = 'gx.settings';

function load(): Settings {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? { ...defaults(), ...(JSON.parse(raw) as Partial<Settings>) } : defaults();
  } catch {
    return defaults();
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

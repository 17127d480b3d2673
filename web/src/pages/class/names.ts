// SPDX-License-Identifier: GPL-3.0-or-later
// 班级: the names an assignment is shown with — the course's lessons and chapters, the puzzle themes, the computer's
// levels — fetched once for the page (an id is shown when its name cannot be had).

import { api } from '../../api';
import { pick, t } from '../../i18n';
import type { Key } from '../../i18n';
import type { LearnChapter, Level } from '../../protocol_http';
import { loadCourse } from '../learn/xhr';
import { loadThemes } from '../puzzle/xhr';
import { studyApi } from '../study/xhr';
import { tourApi } from '../tournament/xhr';
import type { Themes } from '../puzzle/xhr';
import type { Assignment, AssignmentKind, Mark } from './xhr';

export interface Catalog {
  chapters: LearnChapter[];
  themes: Themes | null;
  levels: Level[];
  /** The studies and tournaments a homework may name (the teacher's studies; the tournaments not finished). */
  studies: { id: string; title: string }[];
  tournaments: { id: string; name: string; finished: boolean }[];
}

export async function loadCatalog(): Promise<Catalog> {
  const [chapters, themes, levels, studies, tournaments] = await Promise.all([
    loadCourse().catch(() => [] as LearnChapter[]),
    loadThemes().catch(() => null),
    api.levels().catch(() => [] as Level[]),
    studyApi
      .list()
      .then((l) => l.studies.filter((s) => s.mine).map((s) => ({ id: s.id, title: s.title })))
      .catch(() => []),
    tourApi
      .list()
      .then((l) => l.tournaments.map((x) => ({ id: x.id, name: x.name, finished: x.status === 'finished' })))
      .catch(() => []),
  ]);
  return { chapters, themes, levels, studies, tournaments };
}

export function lessonName(c: Catalog, id: string): string {
  for (const ch of c.chapters) {
    const l = ch.lessons.find((x) => x.id === id);
    if (l) return pick(l.title.zh, l.title.en);
  }
  return id;
}

export function chapterName(c: Catalog, id: string): string {
  const ch = c.chapters.find((x) => x.id === id);
  return ch ? pick(ch.title.zh, ch.title.en) : id;
}

/** A theme's name: `seed-N` is one of the seeds' tactics, anything else a motif. */
export function themeName(c: Catalog, id: string): string {
  const m = /^seed-(\d+)$/.exec(id);
  if (m) {
    const s = c.themes?.seeds.find((x) => x.number === Number(m[1]));
    return s ? pick(s.zh, s.en) : id;
  }
  const motif = c.themes?.motifs.find((x) => x.id === id);
  return motif ? pick(motif.zh, motif.en) : id;
}

export const kindText = (k: AssignmentKind): string => t(`classKind.${k}` as Key);
export const markText = (m: Mark): string => t(`classMark.${m}` as Key);
/** A mark's sign, so that it is told apart without its colour. */
export const markIcon = (m: Mark): string => (m === 'done' ? '✓' : m === 'late' ? '!' : '○');

/** What is to be done, in a line: "课程：兵怎么走", "5 道战术题：捉双", "和 2 级电脑下 3 盘". */
export function describe(a: Assignment, c: Catalog): string {
  switch (a.kind) {
    case 'lesson':
      return t('classDesc.lesson', { name: lessonName(c, a.lesson ?? '') });
    case 'chapter':
      return t('classDesc.chapter', { name: chapterName(c, a.chapter ?? '') });
    case 'puzzles':
      if (a.puzzles?.length) return t('classDesc.puzzleIds', { count: String(a.puzzles.length) });
      return t('classDesc.puzzles', { count: String(a.count ?? ''), theme: themeName(c, a.theme ?? '') });
    case 'computer':
      return t('classDesc.computer', { count: String(a.count ?? 1), level: String(a.level ?? '') });
    case 'study':
      return t('classDesc.study', { name: c.studies.find((s) => s.id === a.study)?.title ?? a.study ?? '' });
    case 'tournament':
      return t('classDesc.tournament', { name: c.tournaments.find((x) => x.id === a.tournament)?.name ?? a.tournament ?? '' });
  }
}

export function dayText(ms: number): string {
  return new Date(ms).toLocaleDateString(pick('zh-CN', 'en-GB'), { dateStyle: 'medium' });
}

export function dateText(ms: number): string {
  return new Date(ms).toLocaleString(pick('zh-CN', 'en-GB'), { dateStyle: 'medium', timeStyle: 'short' });
}

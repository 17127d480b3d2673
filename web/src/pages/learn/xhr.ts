// SPDX-License-Identifier: GPL-3.0-or-later
// 学棋 / Learn: the server calls (the course, judging a try, the account's progress) and the progress kept in the
// browser. The progress is always kept here; a registered account's is also on the server, merged both ways. The
// browser keeps a guest's progress under one key and each account's copy under its own, so that the guest who
// comes after a logout does not see the account's progress; a guest's progress moves to the account they register
// or log in to.

import { api, HttpError } from '../../api';
import type { LearnChapter, LearnProgress, LearnTry, LearnVerdict } from '../../protocol_http';
import { cleanProgress, emptyProgress, hasNews, lessonOnly, mergeProgress } from './ctrl';

const KEY = 'gx.learn.progress';

/** The user the progress is for (`null`: not known yet, treated as a guest). */
type Who = { id: string; guest: boolean } | null;

function keyOf(user: Who): string {
  return user && !user.guest ? `${KEY}:${user.id}` : KEY;
}

let course: Promise<LearnChapter[]> | null = null;

/** The course (fetched once per page load). */
export function loadCourse(): Promise<LearnChapter[]> {
  if (!course) {
    course = api.learn().then((c) => [...c.chapters].sort((a, b) => a.order - b.order));
    course.catch(() => {
      course = null;
    });
  }
  return course;
}

export function judge(body: LearnTry): Promise<LearnVerdict> {
  return api.learnTry(body);
}

/**
 * A `play` step's game judged by the server (`POST /api/learn/try` with `game`), which earns the step for a
 * registered account. The page may see the game's end a moment before the server has stored it (or a resignation
 * sent just before): `game_not_over` is asked again a few times.
 */
export async function judgeGame(body: { lesson: string; step: number; game: string }, tries = 6, waitMs = 500): Promise<LearnVerdict> {
  for (let i = 1; ; i++) {
    const v = await api.learnTry(body);
    if (v.ok || v.reason?.code !== 'game_not_over' || i >= tries) return v;
    await new Promise((r) => setTimeout(r, waitMs));
  }
}

export function localProgress(user: Who): LearnProgress {
  try {
    const raw = localStorage.getItem(keyOf(user));
    return raw ? cleanProgress(JSON.parse(raw)) : emptyProgress();
  } catch {
    return emptyProgress();
  }
}

export function saveLocal(user: Who, p: LearnProgress): void {
  try {
    localStorage.setItem(keyOf(user), JSON.stringify(p));
  } catch {
    // private mode: kept for this page only
  }
}

/** Whether the server keeps this user's progress (registered accounts only). */
export function serverKeeps(user: Who): boolean {
  return !!user && !user.guest;
}

/**
 * The progress to show: the browser's, merged with the server's for a registered account (and the server told of
 * what only the browser had).
 */
export async function syncProgress(user: Who): Promise<LearnProgress> {
  if (!serverKeeps(user)) return localProgress(user);
  // A guest's steps left in this browser while signed in (someone who left at once after signing up, before they
  // had reached the account; or a tab that still thought it was a guest's) go to the account now.
  if (Object.keys(localProgress(null).lessons).length) await progressAfterSignIn(user);
  const local = localProgress(user);
  try {
    let remote = cleanProgress(await api.learnProgress());
    if (hasNews(local, remote)) remote = cleanProgress(await api.saveLearnProgress(local));
    const merged = mergeProgress(local, remote);
    saveLocal(user, merged);
    return merged;
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    return local;
  }
}

/** Keeps `p` in the browser and, for a registered account, sends the lesson's entry to the server. */
export async function saveProgress(user: Who, p: LearnProgress, lessonId: string): Promise<void> {
  // Merged with what is stored now (another tab may have added to it).
  saveLocal(user, mergeProgress(localProgress(user), p));
  if (!serverKeeps(user)) return;
  try {
    const merged = cleanProgress(await api.saveLearnProgress(lessonOnly(p, lessonId)));
    saveLocal(user, mergeProgress(localProgress(user), merged));
  } catch {
    // kept in the browser; sent again with the next sync
  }
}

/** After logging in or registering: the guest's progress in this browser goes to the account (merged there). */
export async function progressAfterSignIn(user: Who): Promise<void> {
  if (!serverKeeps(user)) return;
  const guest = localProgress(null);
  const local = mergeProgress(localProgress(user), guest);
  try {
    const merged = Object.keys(local.lessons).length
      ? await api.saveLearnProgress(local)
      : await api.learnProgress();
    saveLocal(user, mergeProgress(local, cleanProgress(merged)));
    // It is the account's now: the next guest in this browser starts afresh.
    try {
      localStorage.removeItem(keyOf(null));
    } catch {
      // private mode
    }
  } catch {
    // the next visit to Learn syncs again
  }
}

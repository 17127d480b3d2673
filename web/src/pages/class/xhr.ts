// SPDX-License-Identifier: GPL-3.0-or-later
// 班级 / Classes: the server calls of the teacher's class pages and the student's homework (docs/api.md "Classes"),
// with the shapes they answer.

import { request } from '../../api';

export type Role = 'teacher' | 'student';

export interface ClassSummary {
  id: string;
  name: string;
  owner: string;
  role: Role;
  students: number;
}

export interface ClassStudent {
  username: string;
  name?: string | null;
  created_by_teacher: boolean;
  must_change_password: boolean;
  joined_at: number;
}

/** `GET /api/class/{id}`: the teacher sees the join code, the switch and the students; a student the name only. */
export interface ClassView {
  id: string;
  name: string;
  owner: string;
  join_code?: string | null;
  allow_challenges?: boolean;
  students?: ClassStudent[];
}

/** A user name and a password, as a login card shows them. */
export interface Login {
  username: string;
  password: string;
}

export type AssignmentKind = 'lesson' | 'chapter' | 'puzzles' | 'computer' | 'study' | 'tournament';

/** What is assigned: one of the kinds with its fields (`due`: milliseconds since 1970, optional). */
export interface AssignmentBody {
  kind: AssignmentKind;
  lesson?: string;
  chapter?: string;
  theme?: string;
  /** Chosen puzzles (instead of a theme and a count). */
  puzzles?: string[];
  count?: number;
  level?: number;
  study?: string;
  tournament?: string;
  due?: number | null;
}

export interface Assignment extends AssignmentBody {
  id: string;
  created_at?: number;
}

export interface Progress {
  done: number;
  of: number;
}

/** One of a student's assignments (`GET /api/homework`). */
export interface Homework extends Assignment {
  class: string;
  class_name: string;
  done: boolean;
  late: boolean;
  progress?: Progress | null;
}

export type Mark = 'done' | 'late' | 'open';

export interface StudentProgress {
  username: string;
  name?: string | null;
  lessons: Record<string, { done: boolean; stars: number }>;
  puzzles: { solved: number; failed: number; by_theme?: Record<string, { solved: number; failed: number }> };
  games?: { played?: number; won?: number; drawn?: number; lost?: number } | null;
  last_seen?: number | null;
}

export interface AssignmentProgress extends Assignment {
  students: Record<string, Mark>;
}

/** A theme the class does badly at (`rate`: the share of its tries failed). */
export interface WeakTheme {
  theme: string;
  solved: number;
  failed: number;
  rate: number;
}

/** `GET /api/class/{id}/progress`. */
export interface ClassProgress {
  students: StudentProgress[];
  assignments: AssignmentProgress[];
  weak_themes: WeakTheme[];
}

const base = (id: string) => `/api/class/${encodeURIComponent(id)}`;
const user = (id: string, name: string) => `${base(id)}/students/${encodeURIComponent(name)}`;

export const classApi = {
  list: () => request<{ classes: ClassSummary[] }>('GET', '/api/class'),
  create: (name: string) => request<ClassView>('POST', '/api/class', { name }),
  get: (id: string) => request<ClassView>('GET', base(id)),
  update: (id: string, body: { name?: string; allow_challenges?: boolean }) => request<ClassView>('PATCH', base(id), body),
  remove: (id: string) => request<unknown>('DELETE', base(id)),
  addStudents: (id: string, count: number) => request<{ students: Login[] }>('POST', `${base(id)}/students`, { count }),
  join: (code: string) => request<ClassView>('POST', '/api/class/join', { code }),
  newJoinCode: (id: string) => request<ClassView>('POST', `${base(id)}/join-code`),
  closeJoinCode: (id: string) => request<ClassView>('DELETE', `${base(id)}/join-code`),
  removeStudent: (id: string, name: string) => request<unknown>('DELETE', user(id, name)),
  resetPassword: (id: string, name: string) => request<Login>('POST', `${user(id, name)}/password`),
  assignments: (id: string) => request<{ assignments: Assignment[] }>('GET', `${base(id)}/assignments`),
  assign: (id: string, body: AssignmentBody) => request<Assignment>('POST', `${base(id)}/assignments`, body),
  unassign: (id: string, aid: string) => request<unknown>('DELETE', `${base(id)}/assignments/${encodeURIComponent(aid)}`),
  progress: (id: string) => request<ClassProgress>('GET', `${base(id)}/progress`),
  csvUrl: (id: string) => `${base(id)}/progress.csv`,
  homework: () => request<{ assignments: Homework[] }>('GET', '/api/homework'),
};

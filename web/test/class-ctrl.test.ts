// SPDX-License-Identifier: GPL-3.0-or-later
// 班级: the dashboard's grid (students × assignments, a mark the server leaves out is "open"), the weakest themes,
// the order of a student's homework, where an assignment is done, and the teacher's numbers and dates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampInt, dueFromInput, grid, homeworkOrder, markOf, overdue, weakest, workLink } from '../src/pages/class/ctrl';
import type { ClassProgress, Homework } from '../src/pages/class/xhr';

const student = (username: string) => ({ username, lessons: {}, puzzles: { solved: 0, failed: 0 } });

test('the grid: students by name, one mark per assignment, unknown marks open, done on time counted per row and column', () => {
  const p: ClassProgress = {
    students: [student('c3'), student('a1'), student('b2')],
    assignments: [
      { id: 'x', kind: 'lesson', lesson: 'pawn', students: { a1: 'done', b2: 'late', c3: 'open' } },
      { id: 'y', kind: 'puzzles', theme: 'fork', count: 3, students: { a1: 'done' } },
    ],
    weak_themes: [],
  };
  const g = grid(p);
  assert.deepEqual(g.rows.map((r) => r.username), ['a1', 'b2', 'c3']);
  assert.deepEqual(g.rows.map((r) => r.marks), [['done', 'done'], ['late', 'open'], ['open', 'open']]);
  assert.deepEqual(g.rows.map((r) => r.done), [2, 0, 0], 'done on time only: late may be not done at all');
  assert.deepEqual(g.rows[0].puzzles, { solved: 0, failed: 0 });
  assert.equal(g.rows[0].games, 0, 'no games: none played');
  assert.equal(g.rows[0].lastSeen, null);
  assert.deepEqual(g.doneBy, [1, 1]);
  assert.deepEqual(g.assignments.map((a) => a.id), ['x', 'y']);
  assert.equal('students' in g.assignments[0], false, 'the per-student marks stay in the rows');
  assert.equal(markOf('whatever'), 'open');
  assert.equal(markOf(undefined), 'open');
});

test('the weakest themes: the lowest share solved first (from the counts), too few tries left out, at most n', () => {
  const w = weakest(
    [
      // The server's rate is the share failed; the order comes from the counts.
      { theme: 'fork', solved: 8, failed: 2, rate: 0.2 },
      { theme: 'pin', solved: 1, failed: 3, rate: 0.75 },
      { theme: 'mate', solved: 0, failed: 1, rate: 1 },
      { theme: 'skewer', solved: 3, failed: 3, rate: 0.5 },
    ],
    2,
    2,
  );
  assert.deepEqual(w.map((x) => x.theme), ['pin', 'skewer']);
  assert.deepEqual(w.map((x) => x.success), [0.25, 0.5]);
  assert.deepEqual(weakest([{ theme: 'mate', solved: 0, failed: 1, rate: 1 }]).map((x) => x.success), [0]);
});

const hw = (id: string, done: boolean, due: number | null): Homework => ({
  id,
  kind: 'lesson',
  lesson: id,
  class: 'c',
  class_name: 'C',
  done,
  late: false,
  due,
});

test('homework: open first, the soonest due first, undated after, done last; overdue only when open and past', () => {
  const order = homeworkOrder([hw('a', true, 5), hw('b', false, null), hw('c', false, 20), hw('d', false, 10)]);
  assert.deepEqual(order.map((x) => x.id), ['d', 'c', 'b', 'a']);
  assert.equal(overdue(hw('x', false, 10), 11), true);
  assert.equal(overdue(hw('x', true, 10), 11), false);
  assert.equal(overdue(hw('x', false, null), 11), false);
  assert.equal(overdue(hw('x', false, 12), 11), false);
});

test('where an assignment is done', () => {
  assert.equal(workLink({ id: '1', kind: 'lesson', lesson: 'pawn_moves' }), '/learn/pawn_moves');
  assert.equal(workLink({ id: '1', kind: 'puzzles', theme: 'seed-3', count: 5 }), '/puzzle?theme=seed-3');
  assert.equal(workLink({ id: '1', kind: 'computer', level: 2, count: 1 }), '/?computer=2');
  assert.equal(workLink({ id: '1', kind: 'tournament', tournament: 'Ab12' }), '/tournament/Ab12');
  assert.equal(workLink({ id: '1', kind: 'study', study: 's 1' }), '/study/s%201');
});

test("the teacher's numbers and due dates", () => {
  assert.equal(clampInt('50', 1, 40, 5), 40);
  assert.equal(clampInt('0', 1, 40, 5), 1);
  assert.equal(clampInt('', 1, 40, 5), 5);
  assert.equal(clampInt('abc', 1, 40, 5), 5);
  assert.equal(clampInt('3.7', 1, 40, 5), 3);
  assert.equal(dueFromInput(''), undefined);
  assert.equal(dueFromInput('2026-12-24'), new Date('2026-12-24T23:59:59').getTime(), 'a date alone: the end of the day');
  assert.equal(dueFromInput('2026-12-24T08:30'), new Date('2026-12-24T08:30').getTime());
  assert.equal(dueFromInput('nonsense'), undefined);
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { lockReportDir, refusal } from './report-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'report-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lock = join(dir, '.conformance-run.lock');

test('a lock held by a live process is refused naming it; one whose process is gone is taken over', () => {
  // A live holder: this process's parent (alive while this runs).
  const live = { runId: '2612072000aa11', pid: process.ppid, host: hostname(), started: '2026-12-07T20:00:00.000Z' };
  writeFileSync(lock, JSON.stringify(live));
  expect(lockReportDir(dir, 'mine')).toEqual({ heldBy: live });
  expect(refusal('reports', live)).toBe(`conformance: the report directory reports/ is in use by run 2612072000aa11 (pid ${process.ppid}, started 2026-12-07T20:00:00.000Z); nothing was run (wait for it to end, or give this run another --report-dir)`);
  // A holder that is gone: a process that has ended.
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  writeFileSync(lock, JSON.stringify({ ...live, pid: Number(ended) }));
  expect(lockReportDir(dir, 'mine')).toEqual({});
  expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ runId: 'mine', pid: process.pid });
  // Held by this process now: a second taker is refused.
  expect(lockReportDir(dir, 'again').heldBy).toMatchObject({ runId: 'mine', pid: process.pid });
  rmSync(lock);
  expect(existsSync(lock)).toBe(false);
});

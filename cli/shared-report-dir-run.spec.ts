// Two runs in one directory (issue #49): both wrote reports/ and the second's report replaced the
// first's, both exiting 0. One run holds the report directory at a time; the other refuses at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cleanUpChildren, cli, server, target, tempDir } from './cli-child.js';

afterAll(cleanUpChildren);

test('two runs started together in one directory: one intact report, and one refusal in one line naming the other run', { timeout: 180_000 }, async () => {
  const s = await server();
  const usernames: string[] = [];
  const createUser = s.store.createUser.bind(s.store);
  s.store.createUser = (fields) => {
    usernames.push(fields.username);
    return createUser(fields);
  };
  const dir = tempDir();
  const selection = ['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'];
  const runs = await Promise.all([cli(selection, target(s), { dir }), cli(selection, target(s), { dir })]);
  const refused = runs.filter((r) => r.code === 2);
  const made = runs.filter((r) => r.code !== 2);
  expect(runs.map((r) => r.code).sort(), runs.map((r) => r.stderr).join('\n---\n')).toEqual([0, 2]);
  const line = refused[0].stderr;
  const named = /^conformance: the report directory reports\/ is in use by run (\w+) \(pid (\d+), started (\S+)\); nothing was run \(wait for it to end, or give this run another --report-dir\)\n$/.exec(line);
  expect(named, line).not.toBeNull();
  // The run it names is the one that ran: its users carry that run id.
  expect(usernames.length).toBeGreaterThan(0);
  expect(usernames.every((u) => u.startsWith(`cnf_${named![1]}`)), usernames.join(', ')).toBe(true);
  expect(Number.isNaN(Date.parse(named![3]))).toBe(false);
  expect(refused[0].stdout).toBe('');
  // The report is the run's, whole, and the lock is gone with it.
  const results = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as { summary: { pass: number } };
  expect(results.summary.pass).toBeGreaterThan(0);
  expect(made[0].stdout).toContain('reports');
  expect(readFileSync(join(dir, 'reports', 'report.html'), 'utf8')).toContain('</html>');
  expect(readdirSync(join(dir, 'reports')).filter((f) => f.startsWith('.conformance-run.lock'))).toEqual([]);
  expect(existsSync(join(dir, 'reports', 'results.json'))).toBe(true);
});

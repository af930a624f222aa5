// Which processes the command watches (lifetime.ts launchers): through npm's `sh -c` and npm itself to
// the process that ran npm; a parent of any other kind is the starter; init never.
import { expect, test } from 'vitest';
import { launchers } from './lifetime.js';

const tree = (processes: Record<number, { ppid: number; argv: string[] }>) => (pid: number) =>
  processes[pid] ? { ...processes[pid], startTime: '1' } : undefined;

test('started by npx: the shell npm ran, npm, and the process that ran npx', () => {
  const info = tree({
    40: { ppid: 30, argv: ['node', '/cache/.bin/gitlab-reference-server', '--port', '0'] },
    30: { ppid: 20, argv: ['sh', '-c', "'gitlab-reference-server' --port 0"] },
    20: { ppid: 10, argv: ['npm exec gitlab-reference-server --port 0'] },
    10: { ppid: 5, argv: ['/tmp/go-build/example.test'] },
    5: { ppid: 1, argv: ['bash'] },
  });
  expect(launchers(40, info).map((p) => p.pid)).toEqual([30, 20, 10]);
});

test('started by a shell command or a program of its own: that process alone', () => {
  const info = tree({
    40: { ppid: 30, argv: ['node', 'bin/gitlab-reference-server.js'] },
    30: { ppid: 20, argv: ['bash', '-c', 'gitlab-reference-server & pytest'] },
    20: { ppid: 1, argv: ['bash'] },
  });
  expect(launchers(40, info).map((p) => p.pid)).toEqual([30]);
});

test('under init (daemonised): nothing to watch', () => {
  const info = tree({ 40: { ppid: 1, argv: ['node', 'bin/gitlab-reference-server.js'] } });
  expect(launchers(40, info)).toEqual([]);
});

test('npm as a container\'s first process: its shell and npm, whose signals must end the server too', () => {
  const info = tree({
    40: { ppid: 30, argv: ['node', '/cache/.bin/gitlab-reference-server'] },
    30: { ppid: 1, argv: ['sh', '-c', 'gitlab-reference-server'] },
    1: { ppid: 0, argv: ['npm exec gitlab-reference-server'] },
  });
  expect(launchers(40, info).map((p) => p.pid)).toEqual([30, 1]);
});

// A run takes every signal from its first line to its end (cli/own-signals.ts): one signal, then a
// SIGTERM every few milliseconds until the process is gone, must never end it by the signal itself.
// Node gave the signals their default action again while the process ended once its event loop had
// run dry (its handles closed, its threads stopping), and a run that had written its reports was
// killed by SIGTERM (exit null instead of 2): every run of this spec was, before.
import { existsSync, readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanUpChildren, cli, leftovers, results, server, target } from './cli-child.js';

afterAll(cleanUpChildren);

const SELECTION = ['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'];
const FIRST_PROGRESS = /conformance: files \d+\/\d+ · [1-9]\d* tests ended/;
const EVERY_MS = 3;

/** Whether the process catches SIGHUP (Linux: /proc/<pid>/status): Node itself does not, the bin's first line does. */
function catchesSighup(pid: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & 1n) === 1n;
  } catch {
    return false;
  }
}

describe.skipIf(!existsSync('/proc/self/status'))('a signal, then SIGTERM every few ms until the run has ended', { timeout: 240_000 }, () => {
  const moments = [
    { name: 'from the first line of the command on', first: 'SIGINT' as const, when: 'start' as const },
    { name: 'while its tests run', first: 'SIGTERM' as const, when: 'progress' as const },
  ];
  test.each(moments)('$first $name: the run exits 2 with its reports, never killed by a signal', async ({ first, when }) => {
    const s = await server();
    let sent = 0;
    let child: ChildProcess | undefined;
    const timers: NodeJS.Timeout[] = [];
    const start = () => {
      if (sent > 0 || !child) return;
      child.kill(first);
      sent = 1;
      const burst = setInterval(() => {
        if (child?.exitCode !== null || child.signalCode !== null) return clearInterval(burst);
        child.kill('SIGTERM');
        sent++;
      }, EVERY_MS);
      timers.push(burst);
    };
    const run = await cli(SELECTION, target(s), {
      timeoutMs: 200_000,
      onStart: (c) => {
        child = c;
        if (when !== 'start') return;
        const waiting = setInterval(() => {
          if (!catchesSighup(c.pid!)) return;
          clearInterval(waiting);
          start();
        }, 1);
        timers.push(waiting);
      },
      onStderr: (text) => when === 'progress' && FIRST_PROGRESS.test(text) && start(),
    });
    for (const timer of timers) clearInterval(timer);
    const ended = child?.signalCode ?? null;
    expect(sent, 'signals sent while the command ran').toBeGreaterThan(1);
    expect({ code: run.code, signal: ended }, `wanted: exit 2, not ended by a signal, after ${first} and ${sent - 1} SIGTERM(s); the end of its output:\n${run.stderr.slice(-1500)}`).toEqual({ code: 2, signal: null });
    expect(results(run).status).toBe('interrupted');
    expect(run.stdout).toMatch(/^INTERRUPTED \(SIG(INT|TERM)\)/m);
    expect(leftovers(s), 'left on the target').toEqual([]);
  });
});

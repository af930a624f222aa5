// Interrupts at any moment and under load: ten runs of the real command, each sent a signal at a
// moment drawn from a seeded random (while it loads and makes the run, while its tests run, while it
// cleans up; a second signal; SIGTERM), while two busy processes take both cores. Each must end
// within 60 s of its first signal, exit 2, say INTERRUPTED, list every selected test in its reports
// (totals equal to the selection) and leave nothing on its reference server.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanUpChildren, cli, leftovers, results, server, target } from './cli-child.js';

/**
 * Within this of its first signal a run has ended (clean-up and reports included). It tells an exit
 * from a hang, not a speed: a run stopped while it loads its modules took up to 23 s on a quiet CI
 * machine and 32–35 s at a load of 20 on two cores (how long it takes is measured by `npm run bench`).
 */
const BOUND_MS = 60_000;
const SMALL = ['--area', 'remote-mirrors'];

/** mulberry32: the moments are the same at every run of the spec. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(49);
const between = (low: number, high: number) => Math.round(low + random() * (high - low));

interface Moment {
  name: string;
  args: string[];
  /** When the first signal goes: ms after the command has started (0.3 s of CPU), or ms after a line of its output. */
  at: { afterStartMs: number } | { after: RegExp; delayMs: number };
  signal: NodeJS.Signals;
  second?: { signal: NodeJS.Signals; delayMs: number };
  latencyMs?: number;
}

const FIRST_PROGRESS = /conformance: files \d+\/\d+ · [1-9]\d* tests ended/;
/** The headline of a run whose tests all ended: its clean-up comes next. */
const HEADLINE = /^conformance (PASSED|FAILED)/m;

const MOMENTS: Moment[] = [
  { name: 'while the command loads its modules', args: SMALL, at: { afterStartMs: between(0, 1_000) }, signal: 'SIGINT' },
  { name: 'while vitest starts or the run is made', args: SMALL, at: { afterStartMs: between(1_500, 4_000) }, signal: 'SIGTERM' },
  { name: 'while tests run', args: SMALL, at: { after: FIRST_PROGRESS, delayMs: between(0, 2_000) }, signal: 'SIGINT' },
  { name: 'while tests run, SIGTERM', args: SMALL, at: { after: FIRST_PROGRESS, delayMs: between(0, 2_000) }, signal: 'SIGTERM' },
  { name: 'while tests run, then a second SIGINT', args: SMALL, at: { after: FIRST_PROGRESS, delayMs: between(0, 1_000) }, signal: 'SIGINT', second: { signal: 'SIGINT', delayMs: between(200, 1_500) } },
  { name: 'while slow tests run (the grace ends the workers)', args: SMALL, at: { after: FIRST_PROGRESS, delayMs: between(0, 1_000) }, signal: 'SIGINT', latencyMs: 300 },
  { name: 'while tests run, then SIGTERM', args: SMALL, at: { after: FIRST_PROGRESS, delayMs: between(500, 2_500) }, signal: 'SIGINT', second: { signal: 'SIGTERM', delayMs: between(100, 800) } },
  { name: 'while it cleans up', args: SMALL, at: { after: HEADLINE, delayMs: between(0, 100) }, signal: 'SIGINT' },
  { name: 'while it cleans up, then a second signal', args: SMALL, at: { after: HEADLINE, delayMs: 0 }, signal: 'SIGTERM', second: { signal: 'SIGINT', delayMs: between(50, 300) } },
  { name: 'the whole suite, while tests run', args: [], at: { after: FIRST_PROGRESS, delayMs: between(2_000, 6_000) }, signal: 'SIGINT', second: { signal: 'SIGTERM', delayMs: between(3_000, 6_000) } },
];

/**
 * The CPU time a process has had (Linux: /proc/<pid>/stat, in ticks of 10 ms). Node takes about 0.12 s
 * of CPU to start, and beside the load well over a second of wall time: a signal before its first
 * line of JavaScript kills it (it has made nothing then); the command's own handlers come with that line.
 */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Two processes that keep both cores busy for at most `ms`. */
function load(ms: number): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], { stdio: 'ignore' }));
}

/** The ids `list` gives for a selection. */
async function selection(args: string[]): Promise<string[]> {
  const listed = await cli(['list', ...args, '--json'], {});
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id).sort();
}

const busy: ChildProcess[] = [];
afterAll(async () => {
  for (const child of busy) child.kill('SIGKILL');
  await cleanUpChildren();
});

describe('interrupts under load', { timeout: 600_000 }, () => {
  test('ten interrupts at random moments each end within 60 s of the signal, exit 2, list every selected test and leave nothing', async () => {
    const [small, whole] = await Promise.all([selection(SMALL), selection([])]);
    expect(whole.length).toBeGreaterThan(small.length);
    busy.push(...load(400_000));
    const outcomes: string[] = [];
    const queue = [...MOMENTS];
    const one = async (moment: Moment) => {
      const s = await server(moment.latencyMs ? { latencyMs: moment.latencyMs } : {});
      let signalledAt = 0;
      let child: ChildProcess | undefined;
      const send = () => {
        if (signalledAt > 0 || !child) return;
        signalledAt = Date.now();
        child.kill(moment.signal);
        if (moment.second) setTimeout(() => child?.kill(moment.second!.signal), moment.second.delayMs);
      };
      const watch = (text: string) => {
        if ('after' in moment.at && moment.at.after.test(text)) setTimeout(send, moment.at.delayMs);
      };
      let stdout = '';
      const run = await cli(moment.args, target(s), {
        timeoutMs: 240_000,
        onStart: (c) => {
          child = c;
          const afterStartMs = 'afterStartMs' in moment.at ? moment.at.afterStartMs : undefined;
          if (afterStartMs !== undefined) {
            const waiting = setInterval(() => {
              if (cpuMs(c.pid!) < 300) return;
              clearInterval(waiting);
              setTimeout(send, afterStartMs);
            }, 20);
            c.on('close', () => clearInterval(waiting));
          }
          c.stdout?.on('data', (d: Buffer) => watch((stdout += d.toString())));
        },
        onStderr: watch,
      });
      const ended = Date.now() - signalledAt;
      outcomes.push(`${moment.name}: ${moment.signal}${moment.second ? `+${moment.second.signal}` : ''}, exit ${run.code}, ended ${(ended / 1000).toFixed(1)} s after it`);
      expect.soft(run.code, `${moment.name}:\n${run.stderr.slice(-2000)}`).toBe(2);
      expect.soft(leftovers(s), `${moment.name}: left on the target`).toEqual([]);
      if (run.code !== 2) return;
      const res = results(run);
      const ids = res.tests.map((t) => t.id).sort();
      const wanted = moment.args.length === 0 ? whole : small;
      const summary = res.summary;
      outcomes.push(`  ${summary.total} tests (${summary.pass} pass, ${summary['not-run']} not run)`);
      expect.soft(signalledAt, `${moment.name}: the run ended before its signal`).toBeGreaterThan(0);
      expect.soft(ended, `${moment.name}: ended ${ended} ms after the signal`).toBeLessThan(BOUND_MS);
      expect.soft(run.stdout, moment.name).toMatch(/^INTERRUPTED \(SIG(INT|TERM)\)/m);
      expect.soft(res.status).toBe('interrupted');
      expect.soft(ids, `${moment.name}: the reports list the selection`).toEqual(wanted);
      expect.soft(summary.total).toBe(wanted.length);
      // Every report counts the selection: the table's total row, junit's tests and summary.md's.
      const report = (name: string) => readFileSync(join(run.dir, 'reports', name), 'utf8');
      const tableTotal = /^total((?:\s+\d+)+)$/m.exec(run.stdout)?.[1].trim().split(/\s+/).map(Number) ?? [];
      expect.soft(tableTotal.reduce((a, b) => a + b, 0), `${moment.name}: the table's total row`).toBe(wanted.length);
      expect.soft(report('summary.md')).toContain(`of ${wanted.length} tests`);
      // junit adds one testcase for the run as a whole, an error when it was interrupted.
      expect.soft([...report('junit.xml').matchAll(/<testcase /g)].length).toBe(wanted.length + 1);
      expect.soft(report('report.html')).toMatch(/INTERRUPTED/);
    };
    const worker = async () => {
      for (let moment = queue.shift(); moment; moment = queue.shift()) await one(moment);
    };
    try {
      // One run at a time beside the load: two at once on 2 cores (and the load) took a run interrupted
      // while it loaded 30.4 s to end, most of it loading vitest and the test files to list them.
      await worker();
    } finally {
      for (const child of busy.splice(0)) child.kill('SIGKILL');
      console.log(outcomes.join('\n'));
    }
  });
});

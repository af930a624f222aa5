// The measuring tools of `npm run bench` (bench.ts): child processes started and timed, the suite's
// run and its floors (bare vitest, bare transport), CPU time from /proc, and a load generator's figures.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

export const ROOT = resolve(import.meta.dirname, '..');
export const TOKEN = 'glpat-bench-admin-token-0000';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
export const benchStart = performance.now();
/** One progress line on stderr per step, with the time since the start. */
export const step = (message: string) => process.stderr.write(`[bench ${Math.round((performance.now() - benchStart) / 1000)} s] ${message}\n`);

/** Starts a child process and resolves with it once it printed a line matching `ready`. */
export function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = out.match(ready);
      if (match) done({ child, match });
    });
    child.on('exit', (code) => fail(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

export async function referenceServer(extra: string[] = []): Promise<{ url: string; stop: () => void; child: ChildProcess }> {
  const { child, match } = await startChild(['reference-server/main.ts', '--port', '0', '--admin-token', TOKEN, ...extra], /listening on (http:\/\/[\d.:]+)/);
  return { url: match[1], child, stop: () => child.kill('SIGKILL') };
}

/** A test that did not pass in a run the bench made: recorded, and the bench goes on. */
export interface RunFailure {
  run: string;
  id: string;
  verdict: string;
  reason: string;
}
export const runFailures: RunFailure[] = [];

/**
 * One whole run of the suite (of the project at `root`); returns wall and CPU seconds, the number of
 * tests and of requests the run counted (results.json's tally; the run's own set-up is not in it).
 * A run with failing tests still counts (its failures are recorded in the report: one flaky test
 * must not cost the benchmark); only a run that wrote no results is an error.
 */
export function runSuite(args: string[], env: Record<string, string> = {}, root = ROOT, label = args.join(' ') || 'defaults'): Promise<{ seconds: number; tests: number; cpuSeconds: number; requests: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const cpuBefore = childrenCpuSeconds();
    const reportDir = join(root, 'reports', 'bench-run');
    rmSync(join(reportDir, 'results.json'), { force: true });
    const child = spawn(process.execPath, [join(root, 'bin', 'gitlab-api-conformance.js'), ...args], {
      cwd: root,
      env: { ...process.env, CONFORMANCE_REPORT_DIR: reportDir, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const path = join(reportDir, 'results.json');
      if (!existsSync(path)) return fail(new Error(`suite run ${label} exited ${code} and wrote no results: ${err.slice(-2000)}`));
      const results = JSON.parse(readFileSync(path, 'utf8')) as {
        summary: { total: number; disabled: number };
        tests: { id: string; verdict: string; reason: string | null }[];
        requests?: { total: Record<string, number> };
      };
      for (const t of results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error')) runFailures.push({ run: label, id: t.id, verdict: t.verdict, reason: (t.reason ?? '').split('\n')[0] });
      const requests = Object.values(results.requests?.total ?? {}).reduce((sum, n) => sum + n, 0);
      done({ seconds, tests: results.summary.total - results.summary.disabled, cpuSeconds: childrenCpuSeconds() - cpuBefore, requests });
    });
  });
}

/**
 * CPU seconds (user and system) of this process's children that have ended (Linux: cutime and
 * cstime of /proc/self/stat; a child's worker threads and in-process server count with it).
 */
export function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * The floor: a bare vitest run, two workers, of as many empty tests as the suite ran, in as many
 * files: what vitest alone costs, against which the runner's own cost is measured.
 */
export function floorRun(tests: number, files: number): Promise<{ seconds: number; cpuSeconds: number }> {
  const dir = join(ROOT, 'reports', 'bench-floor');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'], maxWorkers: 2, isolate: false, pool: 'threads' } };\n");
  for (let f = 0; f < files; f++) {
    const count = Math.floor(tests / files) + (f < tests % files ? 1 : 0);
    writeFileSync(join(dir, `f${f}.test.ts`), `import { test } from 'vitest';\n${Array.from({ length: count }, (_, i) => `test('t${i}', () => {});`).join('\n')}\n`);
  }
  return new Promise((done, fail) => {
    const started = performance.now();
    const cpuBefore = childrenCpuSeconds();
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--reporter', 'dot'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    child.on('exit', (code) => (code === 0 ? done({ seconds: (performance.now() - started) / 1000, cpuSeconds: childrenCpuSeconds() - cpuBefore }) : fail(new Error(`the floor run exited ${code}`))));
  });
}

/** The transport floor (bench/transport-floor.ts): `requests` HTTP requests and nothing else, in a process of its own. */
export function transportFloor(requests: number): { seconds: number; cpuSeconds: number } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'transport-floor.ts'), String(requests)], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the transport floor exited ${run.status}: ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as { seconds: number; cpuSeconds: number };
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time of the server process per request, in microseconds (when /proc tells it). */
  cpuUs?: number;
}

/** CPU seconds (user and system) a process has used so far, from /proc/<pid>/stat (Linux; else undefined). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ", the fields start at state (3rd); utime and stime are the 14th and 15th, in clock ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export async function load(url: string, path: string, options: Partial<autocannon.Options> = {}, pid?: number): Promise<Load> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: 5, headers: { 'private-token': TOKEN }, ...options });
  const cpuAfter = cpuSeconds(pid);
  const cpuUs = cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : round(((cpuAfter - cpuBefore) * 1e6) / result.requests.total, 1);
  return { rps: round(result.requests.average, 0), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx, cpuUs };
}

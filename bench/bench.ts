// `npm run bench`: every performance figure of the project, measured, never asserted. Writes
// reports/bench.json, prints a table, and rewrites the table in docs/performance.md between the bench markers
// (only when every section ran). Progress goes to stderr, a line per step.
//   suite     wall time of the whole conformance run as `npm run conformance` makes it (median of N),
//             beside its two floors: bare vitest with as many empty tests, and its requests alone
//             between bare Fastify and two client threads (bench/transport-floor.ts)
//   record    the same run recording its transcript (`record --out`) beside one that does not,
//             alternated (issue #28 wants them within 10 %), the transcript's size, and a recording
//             made one test at a time (`--sequential`, as the differential workflows advise)
//   latency   the same against a reference server that delays every answer by 0/20/50/100 ms
//   scaling   wall time against the number of test files run: fixed start-up and per-test cost
//   server    GET file beside a bare Fastify route (bench/hello-server.ts), alternated, N runs each
//   files     file commits (PUT an existing file; POST a new one then DELETE it) into repositories
//             of 10 and of 10,000 files
//   members   GET members/all (first and last page) and the direct member list with 100 and 10,000
//             members over a group and its three ancestors
//   memory    heap of the reference server over 100,000 GET file requests
//   install   the reference server installed from the suite's tarball and from its own (gitlab-reference-server):
//             node_modules' size and packages, time to the first answer, memory (bench/server-install.ts)
//   profile   the suite with its default settings against a GitLab-like latency per request kind
//             (bench/latency-profile.ts): wall time, requests and objects per kind, slowest files
//   shards    three shards of one run started at once against one target on that profile (bench/latency-profile.ts,
//             as a CI's parallel jobs against one GitLab) beside one whole run there: the wall time of
//             each shard, of them all, of the whole run, and of `merge`
//   compare   side by side, alternated: today's suite and the 354-test suite of 2026-11-22 (commit
//             dcb69fe, --baseline REF to change; issue #39 measures against 0705a6b), each with its own
//             defaults, on this machine: wall and CPU, and their ratios pair by pair
// Request rates are medians of N runs of 5 s; "CPU" is the server process's CPU time per request
// (from /proc), which the load generator sharing two cores disturbs far less than the rate.
// Options: --runs N (default 3), --only suite,latency,…,compare, --baseline REF (the compare section's old suite)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { DEFAULT_PROFILE, latencyProfileRun, latencyShardsRun } from './latency-profile.js';
import { installSection } from './server-install.js';

const ROOT = resolve(import.meta.dirname, '..');
const TOKEN = 'glpat-bench-admin-token-0000';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string' }, baseline: { type: 'string', default: 'dcb69fe' } } });
const RUNS = Number(values.runs);
const SECTIONS = ['suite', 'record', 'latency', 'scaling', 'server', 'files', 'members', 'memory', 'install', 'profile', 'shards', 'compare'];
const ONLY = new Set(values.only?.split(',') ?? SECTIONS);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const benchStart = performance.now();
/** One progress line on stderr per step, with the time since the start. */
const step = (message: string) => process.stderr.write(`[bench ${Math.round((performance.now() - benchStart) / 1000)} s] ${message}\n`);

/** Starts a child process and resolves with it once it printed a line matching `ready`. */
function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
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

async function referenceServer(extra: string[] = []): Promise<{ url: string; stop: () => void; child: ChildProcess }> {
  const { child, match } = await startChild(['reference-server/main.ts', '--port', '0', '--admin-token', TOKEN, ...extra], /listening on (http:\/\/[\d.:]+)/);
  return { url: match[1], child, stop: () => child.kill('SIGKILL') };
}

/** A test that did not pass in a run the bench made: recorded, and the bench goes on. */
interface RunFailure {
  run: string;
  id: string;
  verdict: string;
  reason: string;
}
const runFailures: RunFailure[] = [];

/**
 * One whole run of the suite (of the project at `root`); returns wall and CPU seconds, the number of
 * tests and of requests the run counted (results.json's tally; the run's own set-up is not in it).
 * A run with failing tests still counts (its failures are recorded in the report: one flaky test
 * must not cost the benchmark); only a run that wrote no results is an error.
 */
function runSuite(args: string[], env: Record<string, string> = {}, root = ROOT, label = args.join(' ') || 'defaults'): Promise<{ seconds: number; tests: number; cpuSeconds: number; requests: number }> {
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
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * The floor: a bare vitest run, two workers, of as many empty tests as the suite ran, in as many
 * files: what vitest alone costs, against which the runner's own cost is measured.
 */
function floorRun(tests: number, files: number): Promise<{ seconds: number; cpuSeconds: number }> {
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
function transportFloor(requests: number): { seconds: number; cpuSeconds: number } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'transport-floor.ts'), String(requests)], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the transport floor exited ${run.status}: ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as { seconds: number; cpuSeconds: number };
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time of the server process per request, in microseconds (when /proc tells it). */
  cpuUs?: number;
}

/** CPU seconds (user and system) a process has used so far, from /proc/<pid>/stat (Linux; else undefined). */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ", the fields start at state (3rd); utime and stime are the 14th and 15th, in clock ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function load(url: string, path: string, options: Partial<autocannon.Options> = {}, pid?: number): Promise<Load> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: 5, headers: { 'private-token': TOKEN }, ...options });
  const cpuAfter = cpuSeconds(pid);
  const cpuUs = cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : round(((cpuAfter - cpuBefore) * 1e6) / result.requests.total, 1);
  return { rps: round(result.requests.average, 0), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx, cpuUs };
}

const report: Record<string, unknown> = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: round(totalmem() / 2 ** 30, 0), node: process.version },
  runs: RUNS,
};
const lines: string[] = [];

if (ONLY.has('suite')) {
  const times: number[] = [];
  const cpu: number[] = [];
  const floorTimes: number[] = [];
  const floorCpu: number[] = [];
  const transportTimes: number[] = [];
  const transportCpu: number[] = [];
  let tests = 0;
  let requests = 0;
  const files = readdirSync(join(ROOT, 'suites'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).length;
  // Alternated: the suite, then the floors, RUNS times.
  for (let i = 0; i < RUNS; i++) {
    step(`suite: run ${i + 1}/${RUNS} of the whole suite, and of the floors`);
    const r = await runSuite([]);
    times.push(r.seconds);
    cpu.push(r.cpuSeconds);
    tests = r.tests;
    requests = r.requests;
    const floor = await floorRun(tests, files);
    floorTimes.push(floor.seconds);
    floorCpu.push(floor.cpuSeconds);
    const transport = transportFloor(requests);
    transportTimes.push(transport.seconds);
    transportCpu.push(transport.cpuSeconds);
  }
  const wall = median(times);
  const cpuMedian = median(cpu);
  report.suite = { medianSeconds: round(wall, 2), runs: times.map((t) => round(t, 2)), cpuSeconds: cpu.map((c) => round(c, 2)), tests, floor: { medianSeconds: round(median(floorTimes), 2), cpuSeconds: floorCpu.map((c) => round(c, 2)), files },
    transportFloor: { requests, medianSeconds: round(median(transportTimes), 2), cpuSeconds: transportCpu.map((c) => round(c, 2)) },
  };
  lines.push(`| full suite, bundled reference server | ${tests} tests | **${round(wall, 2)} s** wall, ${round(cpuMedian, 1)} s CPU, ${round((1000 * cpuMedian) / tests, 1)} ms CPU per test (median of ${RUNS}) |`);
  lines.push(`| … the floor: bare vitest, as many empty tests in ${files} files | ${tests} tests | ${round(median(floorTimes), 2)} s wall, ${round(median(floorCpu), 1)} s CPU; the suite costs **${round(wall / median(floorTimes), 1)}×** its wall, ${round(cpuMedian / median(floorCpu), 1)}× its CPU |`);
  lines.push(`| … the transport floor: the run's requests between bare Fastify and two node:http client threads, nothing else (bench/transport-floor.ts) | ${requests} requests | ${round(median(transportTimes), 2)} s wall, ${round(median(transportCpu), 1)} s CPU |`);
}

if (ONLY.has('record')) {
  const transcript = join(ROOT, 'reports', 'bench-run', 'transcript.jsonl');
  const plain: number[] = [];
  const recording: number[] = [];
  const sequential: number[] = [];
  let tests = 0;
  for (let i = 0; i < RUNS; i++) {
    step(`record: run ${i + 1}/${RUNS} of the whole suite, without a transcript`);
    plain.push((await runSuite([])).seconds);
    step(`record: run ${i + 1}/${RUNS}, recording (record --out)`);
    const r = await runSuite(['record', '--out', transcript]);
    recording.push(r.seconds);
    tests = r.tests;
    step(`record: run ${i + 1}/${RUNS}, recording one test at a time (record --sequential)`);
    sequential.push((await runSuite(['record', '--out', transcript, '--sequential'])).seconds);
  }
  const text = readFileSync(transcript);
  const exchanges = text.toString('utf8').split('\n').filter((line) => line.startsWith('{"type":"exchange"')).length;
  // Pair by pair (each recording beside the plain run just before it): the machine's load drifts less within a pair.
  const overhead = round(median(recording.map((t, i) => (100 * (t - plain[i])) / plain[i])), 1);
  report.record = {
    tests,
    exchanges,
    bytes: statSync(transcript).size,
    gzipBytes: gzipSync(text).length,
    plainSeconds: plain.map((t) => round(t, 2)),
    recordingSeconds: recording.map((t) => round(t, 2)),
    sequentialSeconds: sequential.map((t) => round(t, 2)),
    overheadPercent: overhead,
  };
  const mb = (bytes: number) => round(bytes / 1e6, 1);
  lines.push(`| a run recording its transcript (\`record --out\`) beside the same run without | ${tests} tests, median of ${RUNS}, alternated | **${overhead >= 0 ? '+' : ''}${overhead} %** (median of the pairs; ${round(median(recording), 2)} s against ${round(median(plain), 2)} s) |`);
  lines.push(`| … the transcript | ${exchanges} exchanges | ${mb(statSync(transcript).size)} MB (${mb(gzipSync(text).length)} MB gzipped); \`--sequential\`: ${round(median(sequential), 2)} s |`);
}

if (ONLY.has('latency')) {
  const concurrency = 8;
  const rows: Record<string, unknown>[] = [];
  for (const ms of [0, 20, 50, 100]) {
    step(`latency: the suite against a server that adds ${ms} ms`);
    const server = await referenceServer(['--latency', String(ms)]);
    try {
      const times: number[] = [];
      let tests = 0;
      for (let i = 0; i < Math.min(RUNS, 2); i++) {
        const r = await runSuite(['--concurrency', String(concurrency)], { CONFORMANCE_TARGET_URL: server.url, CONFORMANCE_ADMIN_TOKEN: TOKEN, CONFORMANCE_CAPABILITIES: 'premium,ultimate,ldap,saml,promotion_management,enterprise_users' });
        times.push(r.seconds);
        tests = r.tests;
      }
      rows.push({ latencyMs: ms, medianSeconds: round(median(times), 2), tests, concurrency });
      lines.push(`| full suite, ${ms} ms added to every answer | ${tests} tests, concurrency ${concurrency} | **${round(median(times), 2)} s** |`);
    } finally {
      server.stop();
    }
  }
  report.latency = rows;
}

if (ONLY.has('scaling')) {
  const sets = [['repository-files'], ['repository-files', 'remote-mirrors'], ['repository-files', 'remote-mirrors', 'invitations'], ['repository-files', 'remote-mirrors', 'invitations', 'members']];
  const points: { areas: string; tests: number; seconds: number }[] = [];
  for (const set of sets) {
    const times: number[] = [];
    let tests = 0;
    for (let i = 0; i < RUNS; i++) {
      step(`scaling: areas ${set.join('+')}, run ${i + 1}/${RUNS}`);
      const r = await runSuite(['--area', set.join(',')]);
      times.push(r.seconds);
      tests = r.tests;
    }
    points.push({ areas: set.join('+'), tests, seconds: round(median(times), 2) });
  }
  // Least squares: seconds = fixed + perTest * tests.
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.tests, 0) / n;
  const my = points.reduce((s, p) => s + p.seconds, 0) / n;
  const perTest = points.reduce((s, p) => s + (p.tests - mx) * (p.seconds - my), 0) / points.reduce((s, p) => s + (p.tests - mx) ** 2, 0);
  const fixed = my - perTest * mx;
  report.scaling = { points, fixedSeconds: round(fixed, 2), perTestMs: round(perTest * 1000, 1) };
  for (const p of points) lines.push(`| areas ${p.areas} | ${p.tests} tests | ${p.seconds} s |`);
  lines.push(`| fit: fixed start-up + per test | | **${round(fixed, 2)} s + ${round(perTest * 1000, 1)} ms/test** |`);
}

interface Seeded {
  url: string;
  projectId: number;
  leafGroupId: number;
  heapMiB: () => Promise<number>;
  child: ChildProcess;
  stop: () => void;
}

/** bench/seeded-server.ts: the reference server with a repository of `files` files and `members` members. */
async function seededServer(files: number, members = 0): Promise<Seeded> {
  const { child, match } = await startChild(['bench/seeded-server.ts', '--files', String(files), '--members', String(members)], /listening (\d+) heap (\d+) project (\d+) group (\d+)/);
  const heapMiB = async () => ((await (await fetch(`http://127.0.0.1:${match[2]}/`)).json()) as { heapUsedMiB: number }).heapUsedMiB;
  return { url: `http://127.0.0.1:${match[1]}`, projectId: Number(match[3]), leafGroupId: Number(match[4]), heapMiB, child, stop: () => child.kill('SIGKILL') };
}

/** `runs` measurements of one load; medians of the rate, latencies and CPU per request. */
async function repeated(runs: number, measure: () => Promise<Load>): Promise<Load & { runs: number[] }> {
  const all: Load[] = [];
  for (let i = 0; i < runs; i++) all.push(await measure());
  return medianOf(all);
}

/** Measures taken in turn, round after round: a slow minute of the machine falls on each of them alike. */
async function alternated(runs: number, measures: (() => Promise<Load>)[]): Promise<(Load & { runs: number[] })[]> {
  const all: Load[][] = measures.map(() => []);
  for (let i = 0; i < runs; i++) for (const [k, measure] of measures.entries()) all[k].push(await measure());
  return all.map(medianOf);
}

function medianOf(all: Load[]): Load & { runs: number[] } {
  const cpu = all.map((l) => l.cpuUs).filter((x): x is number => x !== undefined);
  return {
    rps: median(all.map((l) => l.rps)),
    p50: median(all.map((l) => l.p50)),
    p99: median(all.map((l) => l.p99)),
    errors: all.reduce((n, l) => n + l.errors, 0),
    non2xx: all.reduce((n, l) => n + l.non2xx, 0),
    cpuUs: cpu.length > 0 ? round(median(cpu), 1) : undefined,
    runs: all.map((l) => l.rps),
  };
}

const cpuText = (l: Load) => (l.cpuUs === undefined ? '' : `, CPU ${l.cpuUs} µs/req`);
const failures = (l: Load) => (l.errors + l.non2xx > 0 ? ` (${l.errors} errors, ${l.non2xx} non-2xx!)` : '');

if (ONLY.has('server')) {
  step(`server: starting the bare Fastify route and the reference server`);
  const hello = await startChild(['bench/hello-server.ts'], /listening (\d+)/);
  const server = await seededServer(10);
  try {
    const bareUrl = `http://127.0.0.1:${hello.match[1]}`;
    const filePath = `/api/v4/projects/${server.projectId}/repository/files/dir3%2Ff3%2Etxt?ref=main`;
    step(`server: the bare route and GET file alternated, ${RUNS} runs each`);
    const [bare, getFile] = await alternated(RUNS, [() => load(bareUrl, '/hello', { headers: {} }, hello.child.pid), () => load(server.url, filePath, {}, server.child.pid)]);
    const ratio = round(getFile.rps / bare.rps, 2);
    report.server = { bareRoute: bare, getFile, getFileRatio: ratio };
    lines.push(`| bare Fastify route (ceiling) | 10 connections, median of ${RUNS} | ${bare.rps} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms${cpuText(bare)} |`);
    lines.push(`| GET file | **ratio to bare ${ratio}** | ${getFile.rps} req/s, p50 ${getFile.p50} ms, p99 ${getFile.p99} ms${cpuText(getFile)}${failures(getFile)} |`);
  } finally {
    hello.child.kill('SIGKILL');
    server.stop();
  }
}

if (ONLY.has('files')) {
  const rows: Record<string, unknown>[] = [];
  // Both repositories are seeded first, and their runs alternate: the ratio of two rates measured
  // minutes apart would carry the machine's drift between them.
  const sizes = [10, 10_000];
  const servers: { size: number; seedSeconds: number; heapMiB: number; server: Awaited<ReturnType<typeof seededServer>> }[] = [];
  try {
    for (const size of sizes) {
      step(`files: seeding a repository of ${size} files (one commit each)`);
      const seeding = performance.now();
      const server = await seededServer(size);
      servers.push({ size, seedSeconds: round((performance.now() - seeding) / 1000, 1), heapMiB: await server.heapMiB(), server });
    }
    const json = { 'content-type': 'application/json' };
    let n = 0;
    const put = ({ server }: (typeof servers)[number]) => {
      const files = `/api/v4/projects/${server.projectId}/repository/files`;
      return () =>
        load(server.url, files, {
          requests: [
            {
              method: 'PUT',
              setupRequest: (req) => {
                const k = 1 + (++n % 9);
                return { ...req, path: `${files}/dir${k}%2Ff${k}%2Etxt`, headers: { ...req.headers, ...json }, body: JSON.stringify({ branch: 'main', commit_message: 'update', content: `version ${n}\n` }) };
              },
            },
          ],
        }, server.child.pid);
    };
    const createDelete = ({ server }: (typeof servers)[number]) => {
      const files = `/api/v4/projects/${server.projectId}/repository/files`;
      return () =>
        load(server.url, files, {
          requests: [
            {
              method: 'POST',
              setupRequest: (req, context) => {
                (context as { n?: number }).n = ++n;
                return { ...req, path: `${files}/dir5%2Fnew-${n}%2Etxt`, headers: { ...req.headers, ...json }, body: JSON.stringify({ branch: 'main', commit_message: 'add', content: `new ${n}\n` }) };
              },
            },
            {
              method: 'DELETE',
              setupRequest: (req, context) => ({ ...req, path: `${files}/dir5%2Fnew-${(context as { n?: number }).n}%2Etxt?branch=main&commit_message=delete`, body: undefined }),
            },
          ],
        }, server.child.pid);
    };
    step(`files: PUT (update one of 9 files), ${sizes.join(' and ')} files alternated, ${RUNS} runs each`);
    const puts = await alternated(RUNS, servers.map(put));
    step(`files: POST a new file then DELETE it, ${sizes.join(' and ')} files alternated, ${RUNS} runs each`);
    const createDeletes = await alternated(RUNS, servers.map(createDelete));
    for (const [i, { size, seedSeconds, heapMiB }] of servers.entries()) {
      rows.push({ files: size, seedSeconds, heapMiBAfterSeeding: heapMiB, put: puts[i], createDelete: createDeletes[i] });
      lines.push(`| PUT file (a commit), repository of ${size} files | seeded in ${seedSeconds} s, heap ${heapMiB} MiB | ${puts[i].rps} commits/s, p50 ${puts[i].p50} ms, p99 ${puts[i].p99} ms${cpuText(puts[i])}${failures(puts[i])} |`);
      lines.push(`| POST then DELETE a file (two commits), ${size} files | | ${createDeletes[i].rps} commits/s, p50 ${createDeletes[i].p50} ms, p99 ${createDeletes[i].p99} ms${cpuText(createDeletes[i])}${failures(createDeletes[i])} |`);
    }
  } finally {
    for (const { server } of servers) server.stop();
  }
  const [small, big] = rows as { put: Load; createDelete: Load }[];
  const ratios = { put: round(small.put.rps / big.put.rps, 2), createDelete: round(small.createDelete.rps / big.createDelete.rps, 2) };
  report.files = { rows, slowdown10kVs10: ratios };
  lines.push(`| file commits, 10 → 10,000 files | slowdown (rate at 10 / rate at 10,000) | **PUT ${ratios.put}×, POST+DELETE ${ratios.createDelete}×** |`);
}

if (ONLY.has('members')) {
  const rows: { members: number; all: Load; lastPage: Load; direct: Load }[] = [];
  for (const size of [100, 10_000]) {
    step(`members: seeding ${size} members over a group and its three ancestors`);
    const server = await seededServer(1, size);
    try {
      const leaf = server.leafGroupId;
      step(`members: ${size} members, members/all per_page=100, ${RUNS} runs`);
      const all = await repeated(RUNS, () => load(server.url, `/api/v4/groups/${leaf}/members/all?per_page=100`, {}, server.child.pid));
      step(`members: ${size} members, members/all last page per_page=20, ${RUNS} runs`);
      const lastPage = await repeated(RUNS, () => load(server.url, `/api/v4/groups/${leaf}/members/all?per_page=20&page=${Math.ceil(size / 20)}`, {}, server.child.pid));
      step(`members: ${size} members, direct members of the top group per_page=20, ${RUNS} runs`);
      const direct = await repeated(RUNS, () => load(server.url, `/api/v4/groups/${leaf - 3}/members?per_page=20`, {}, server.child.pid));
      rows.push({ members: size, all, lastPage, direct });
      lines.push(`| GET members/all, ${size} members over 3 ancestor levels (per_page=100) | | ${all.rps} req/s, p50 ${all.p50} ms, p99 ${all.p99} ms${cpuText(all)}${failures(all)} |`);
      lines.push(`| … its last page (per_page=20) | | ${lastPage.rps} req/s, p99 ${lastPage.p99} ms${cpuText(lastPage)}${failures(lastPage)} |`);
      lines.push(`| GET members of the top group (${Math.ceil(size / 4)} direct, per_page=20) | | ${direct.rps} req/s, p99 ${direct.p99} ms${cpuText(direct)}${failures(direct)} |`);
    } finally {
      server.stop();
    }
  }
  const [small, big] = rows;
  const slowdown = { all: round(small.all.rps / big.all.rps, 2), lastPage: round(small.lastPage.rps / big.lastPage.rps, 2), direct: round(small.direct.rps / big.direct.rps, 2) };
  report.members = { rows, slowdown10kVs100: slowdown };
  lines.push(`| members lists, 100 → 10,000 members | slowdown (rate at 100 / rate at 10,000) | **members/all ${slowdown.all}×, last page ${slowdown.lastPage}×, direct ${slowdown.direct}×** |`);
}

if (ONLY.has('memory')) {
  step('memory: starting the reference server');
  const server = await seededServer(1);
  try {
    const url = `${server.url}/api/v4/projects/${server.projectId}/repository/files/README%2Emd?ref=main`;
    await autocannon({ url, amount: 5_000, connections: 10, headers: { 'private-token': TOKEN } });
    const before = await server.heapMiB();
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      step(`memory: GET file requests ${i * 20_000}–${(i + 1) * 20_000} of 100,000`);
      await autocannon({ url, amount: 20_000, connections: 10, headers: { 'private-token': TOKEN } });
      samples.push(await server.heapMiB());
    }
    report.memory = { requests: 100_000, heapUsedMiBBefore: before, heapUsedMiBAfterEach20k: samples };
    lines.push(`| heap over 100,000 GET file requests (after GC) | | ${before} MiB → ${samples.join(', ')} MiB |`);
  } finally {
    server.stop();
  }
}

if (ONLY.has('install')) {
  const install = await installSection(RUNS, step);
  report.install = install.figures;
  lines.push(...install.lines);
}

if (ONLY.has('profile')) {
  step(`profile: the suite with its default settings behind ${JSON.stringify(DEFAULT_PROFILE)} ms per request kind`);
  const run = await latencyProfileRun(DEFAULT_PROFILE, (line) => step(line));
  report.profile = { delaysMs: DEFAULT_PROFILE, ...run };
  const r = run.requests;
  lines.push(`| full suite, GitLab-like latency per request kind, default settings | ${run.tests} tests (${run.passed} passed) | **${run.wallSeconds} s**, ${run.totalRequests} requests |`);
  lines.push(`| … objects it creates | POST /users, tokens, /groups, /projects | ${r.user} users, ${r.token} tokens, ${r.group} groups, ${r.project} projects |`);
  lines.push(`| … its requests by purpose | the suite's own count | ${Object.entries(run.purposes).map(([purpose, n]) => `${purpose} ${n}`).join(', ')}; at most ${run.highestInFlight ?? '?'} in flight |`);
  for (const f of run.failures) runFailures.push({ run: 'profile', ...f });
  lines.push(`| … its slowest files | | ${run.slowest.slice(0, 3).map((f) => `${f.file} ${f.seconds} s`).join('; ')} |`);
}

if (ONLY.has('shards')) {
  step('shards: one whole run, then three shards at once, on the GitLab-like profile');
  const whole = await latencyProfileRun(DEFAULT_PROFILE, (line) => step(line));
  const run = await latencyShardsRun(DEFAULT_PROFILE, 3, (line) => step(line));
  report.shards = { whole: { wallSeconds: whole.wallSeconds, tests: whole.tests, passed: whole.passed }, ...run };
  for (const f of run.failures) runFailures.push({ run: 'shards', ...f });
  lines.push(`| whole run beside three shards at once (\`--shard i/3\`), GitLab-like latency | whole: ${whole.tests} tests (${whole.passed} passed); merged: ${run.merge.tests} tests (${run.merge.passed} passed) | whole **${whole.wallSeconds} s**; shards ${run.shards.map((s) => `${s.wallSeconds} s`).join(', ')} (all three **${run.wallSeconds} s**); merge ${run.merge.seconds} s |`);
}

if (ONLY.has('compare')) {
  // The old suite runs from a git worktree of its commit: with today's node_modules when its lock file
  // is today's, else with its own (npm ci: e.g. 0705a6b still used supertest). Runs alternate, so both
  // see the same machine over the same minutes.
  const ref = values.baseline!;
  const old = mkdtempSync(join(tmpdir(), 'conformance-baseline-'));
  const added = spawnSync('git', ['worktree', 'add', '--detach', old, ref], { cwd: ROOT, encoding: 'utf8' });
  if (added.status !== 0) {
    step(`compare: skipped, commit ${ref} is not in this clone (${added.stderr.trim()})`);
    lines.push(`| today's suite beside the suite of ${ref} | | not measured: ${ref} is not in this clone |`);
  } else {
    try {
      const sameLock = readFileSync(join(old, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
      if (sameLock) symlinkSync(join(ROOT, 'node_modules'), join(old, 'node_modules'), 'dir');
      else {
        step(`compare: npm ci for the suite of ${ref} (its lock file differs)`);
        const installed = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: old, encoding: 'utf8' });
        if (installed.status !== 0) throw new Error(`npm ci in the worktree of ${ref} failed: ${installed.stderr.slice(-500)}`);
      }
      const today: number[] = [];
      const then: number[] = [];
      const todayCpu: number[] = [];
      const thenCpu: number[] = [];
      let testsToday = 0;
      let testsThen = 0;
      for (let i = 0; i < RUNS; i++) {
        step(`compare: run ${i + 1}/${RUNS}, the suite of ${ref}`);
        const a = await runSuite([], {}, old);
        then.push(a.seconds);
        thenCpu.push(a.cpuSeconds);
        testsThen = a.tests;
        step(`compare: run ${i + 1}/${RUNS}, today's suite`);
        const b = await runSuite([]);
        today.push(b.seconds);
        todayCpu.push(b.cpuSeconds);
        testsToday = b.tests;
      }
      const perTest = (seconds: number, tests: number) => round((seconds * 1000) / tests, 1);
      // Ratios pair by pair (run i of today's against run i of the old suite), then their median.
      const ratio = (a: number[], b: number[]) => round(median(a.map((x, i) => x / b[i])), 2);
      report.compare = {
        baseline: ref,
        baseline_tests: testsThen,
        baseline_seconds: then.map((t) => round(t, 2)),
        baseline_cpu_seconds: thenCpu.map((t) => round(t, 2)),
        tests: testsToday,
        seconds: today.map((t) => round(t, 2)),
        cpu_seconds: todayCpu.map((t) => round(t, 2)),
      };
      lines.push(`| suite of ${ref}, bundled server, its defaults | ${testsThen} tests, median of ${RUNS}, alternated | **${round(median(then), 2)} s** wall (${perTest(median(then), testsThen)} ms/test), ${round(median(thenCpu), 1)} s CPU |`);
      lines.push(`| today's suite, same runs | ${testsToday} tests | **${round(median(today), 2)} s** wall (${perTest(median(today), testsToday)} ms/test), ${round(median(todayCpu), 1)} s CPU; **${ratio(today, then)}×** the wall, ${ratio(todayCpu, thenCpu)}× the CPU of ${ref} |`);
    } finally {
      spawnSync('git', ['worktree', 'remove', '--force', old], { cwd: ROOT });
      rmSync(old, { recursive: true, force: true });
    }
  }
}

report.failures = runFailures;
if (runFailures.length > 0) {
  step(`${runFailures.length} test(s) failed in the bench's runs (recorded in reports/bench.json; the figures stand):`);
  for (const f of runFailures) step(`  ${f.run}: ${f.verdict} ${f.id}: ${f.reason}`);
}
mkdirSync(join(ROOT, 'reports'), { recursive: true });
writeFileSync(join(ROOT, 'reports', 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
const machine = report.machine as { cpus: number; cpu: string; memoryGiB: number; node: string };
const table = [
  `Measured ${String(report.measuredAt).slice(0, 10)} on ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}; \`npm run bench\`.`,
  '',
  '| what | setting | result |',
  '|---|---|---|',
  ...lines,
].join('\n');
console.log(`\n${table}\n`);
const readmePath = join(ROOT, 'docs', 'performance.md');
const readme = readFileSync(readmePath, 'utf8');
const marked = /<!-- bench:start -->[\s\S]*<!-- bench:end -->/;
if (marked.test(readme) && SECTIONS.every((section) => ONLY.has(section))) writeFileSync(readmePath, readme.replace(marked, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`));

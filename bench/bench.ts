// `npm run bench`: every performance figure of the project, measured, never asserted. Writes
// reports/bench.json, prints a table, and rewrites the table in README.md between the bench markers.
//   suite     wall time of the whole conformance run as `npm run conformance` makes it (median of N)
//   latency   the same against a reference server that delays every answer by 0/20/50/100 ms
//   scaling   wall time against the number of test files run: fixed start-up and per-test cost
//   server    requests/s and p50/p99 of reference-server routes beside a bare Fastify route
//   members   GET members/all and a paginated page as membership grows to 100/1,000/10,000
//   memory    heap of the reference server over 100,000 requests
// Options: --runs N (default 3), --only suite,latency,scaling,server,members,memory
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const ROOT = resolve(import.meta.dirname, '..');
const TOKEN = 'glpat-bench-admin-token-0000';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string' } } });
const RUNS = Number(values.runs);
const ONLY = new Set((values.only ?? 'suite,latency,scaling,server,members,memory').split(','));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

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

/** One whole run of the suite; returns wall seconds and the number of tests. */
function runSuite(args: string[], env: Record<string, string> = {}): Promise<{ seconds: number; tests: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const reportDir = join(ROOT, 'reports', 'bench-run');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'gitlab-api-conformance.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CONFORMANCE_REPORT_DIR: reportDir, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return fail(new Error(`suite run ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { summary: { total: number; disabled: number } };
      done({ seconds, tests: results.summary.total - results.summary.disabled });
    });
  });
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/api/v4${path}`, {
    method,
    headers: { 'private-token': TOKEN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function load(url: string, path: string, options: Partial<autocannon.Options> = {}): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: 5, headers: { 'private-token': TOKEN }, ...options });
  return { rps: round(result.requests.average, 0), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

const report: Record<string, unknown> = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: round(totalmem() / 2 ** 30, 0), node: process.version },
  runs: RUNS,
};
const lines: string[] = [];

if (ONLY.has('suite')) {
  const times: number[] = [];
  let tests = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await runSuite([]);
    times.push(r.seconds);
    tests = r.tests;
  }
  report.suite = { medianSeconds: round(median(times), 2), runs: times.map((t) => round(t, 2)), tests };
  lines.push(`| full suite, bundled reference server | ${tests} tests | **${round(median(times), 2)} s** (median of ${RUNS}) |`);
}

if (ONLY.has('latency')) {
  const concurrency = 8;
  const rows: Record<string, unknown>[] = [];
  for (const ms of [0, 20, 50, 100]) {
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

if (ONLY.has('server')) {
  const hello = await startChild(['bench/hello-server.ts'], /listening (\d+)/);
  const server = await referenceServer();
  try {
    const bare = await load(`http://127.0.0.1:${hello.match[1]}`, '/hello', { headers: {} });
    const group = await api(server.url, 'POST', '/groups', { name: 'bench', path: 'bench', visibility: 'public' });
    const project = await api(server.url, 'POST', '/projects', { name: 'p', namespace_id: group.id, visibility: 'public', initialize_with_readme: true });
    await api(server.url, 'POST', `/projects/${project.id}/repository/files/src%2Fmain%2Erb`, { branch: 'main', commit_message: 'add', content: 'puts 1\n'.repeat(50) });
    const getFile = await load(server.url, `/api/v4/projects/${project.id}/repository/files/src%2Fmain%2Erb?ref=main`);
    let n = 0;
    const postFile = await load(server.url, '/api/v4/', {
      duration: 5,
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `/api/v4/projects/${project.id}/repository/files/load%2Ff${++n}%2Etxt`, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify({ branch: 'main', commit_message: 'load', content: `file ${n}\n` }) }) }],
    });
    report.server = { bareRoute: bare, getFile, postFile, getFileRatio: round(getFile.rps / bare.rps, 2) };
    lines.push(`| bare Fastify route (ceiling) | 10 connections | ${bare.rps} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms |`);
    lines.push(`| GET file | ratio to bare ${round(getFile.rps / bare.rps, 2)} | ${getFile.rps} req/s, p50 ${getFile.p50} ms, p99 ${getFile.p99} ms |`);
    lines.push(`| POST file (a new file each) | | ${postFile.rps} req/s, p50 ${postFile.p50} ms, p99 ${postFile.p99} ms |`);
  } finally {
    hello.child.kill('SIGKILL');
    server.stop();
  }
}

if (ONLY.has('members')) {
  const rows: Record<string, unknown>[] = [];
  for (const size of [100, 1000, 10000]) {
    const server = await referenceServer();
    try {
      // Three levels of ancestors above the group whose members are listed.
      let parent: Record<string, unknown> | undefined;
      for (const level of ['l1', 'l2', 'l3', 'leaf']) {
        parent = await api(server.url, 'POST', '/groups', { name: level, path: level, visibility: 'private', parent_id: parent?.id });
      }
      const leafId = parent!.id as number;
      const ancestors = [leafId - 3, leafId - 2, leafId - 1];
      for (let i = 0; i < size; i++) {
        const user = await api(server.url, 'POST', '/users', { username: `u${i}`, name: `User ${i}`, email: `u${i}@example.com`, password: 'Bench-pass-1234' });
        const at = i % 4 === 3 ? leafId : ancestors[i % 3];
        await api(server.url, 'POST', `/groups/${at}/members`, { user_id: user.id, access_level: 10 + 10 * (i % 4) });
      }
      const all = await load(server.url, `/api/v4/groups/${leafId}/members/all?per_page=100`);
      const lastPage = await load(server.url, `/api/v4/groups/${leafId}/members/all?per_page=20&page=${Math.ceil(size / 20)}`);
      rows.push({ members: size, all, lastPage });
      lines.push(`| GET members/all, ${size} members over 3 ancestor levels (per_page=100) | | ${all.rps} req/s, p50 ${all.p50} ms, p99 ${all.p99} ms |`);
      lines.push(`| … its last page (per_page=20) | | ${lastPage.rps} req/s, p99 ${lastPage.p99} ms |`);
    } finally {
      server.stop();
    }
  }
  report.members = rows;
}

if (ONLY.has('memory')) {
  const { child, match } = await startChild(['bench/memory-server.ts'], /listening (\d+) heap (\d+)/);
  try {
    const url = `http://127.0.0.1:${match[1]}`;
    const heap = async () => (await (await fetch(`http://127.0.0.1:${match[2]}/`)).json()) as { heapUsedMiB: number };
    await autocannon({ url: `${url}/api/v4/projects/1/repository/files/README%2Emd?ref=main`, amount: 5_000, connections: 10 });
    const before = (await heap()).heapUsedMiB;
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      await autocannon({ url: `${url}/api/v4/projects/1/repository/files/README%2Emd?ref=main`, amount: 20_000, connections: 10 });
      samples.push((await heap()).heapUsedMiB);
    }
    report.memory = { requests: 100_000, heapUsedMiBBefore: before, heapUsedMiBAfterEach20k: samples };
    lines.push(`| heap over 100,000 GET file requests (after GC) | | ${before} MiB → ${samples.join(', ')} MiB |`);
  } finally {
    child.kill('SIGKILL');
  }
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
const readmePath = join(ROOT, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const marked = /<!-- bench:start -->[\s\S]*<!-- bench:end -->/;
if (marked.test(readme) && ONLY.size === 6) writeFileSync(readmePath, readme.replace(marked, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`));

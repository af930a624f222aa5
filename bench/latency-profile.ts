// The suite against a GitLab-like target: the reference server behind a proxy that delays each
// request by its kind, as a real GitLab costs (project creation 1,500 ms, group creation 500 ms, user
// creation 400 ms, other writes 150 ms, reads 60 ms; --profile kind=ms,… changes them). The command
// runs with its default settings, as a CI user would. Reports wall time, requests and objects per
// kind, and the slowest test files. Progress goes to stderr as it runs. `--jitter MS` adds a random
// 0–MS to every delay (answers then come back in another order than asked); `--runs N` repeats the
// run and reports each one's failures: a suite that depends on timing shows false alarms there.
//   node --import tsx bench/latency-profile.ts [--profile project=1500,group=500,user=400,write=150,read=60] [--jitter MS] [--runs N] [--json out.json] [-- command options, e.g. --area members]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../runner/report/results.js';
import { startReferenceServer } from '../reference-server/server.js';

const ROOT = resolve(import.meta.dirname, '..');
export const DEFAULT_PROFILE = { project: 1500, group: 500, user: 400, token: 150, write: 150, read: 60 };
type Kind = keyof typeof DEFAULT_PROFILE;

/** The kind of a request, for its delay and the counts. */
export function kindOf(method: string, path: string): Kind {
  const p = path.replace(/\?.*$/, '').replace(/^\/api\/v4/, '');
  if (method === 'POST' && p === '/projects') return 'project';
  if (method === 'POST' && p === '/groups') return 'group';
  if (method === 'POST' && p === '/users') return 'user';
  if (method === 'POST' && /^\/users\/\d+\/personal_access_tokens$/.test(p)) return 'token';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

function parseProfile(text: string | undefined): Record<Kind, number> {
  const profile = { ...DEFAULT_PROFILE };
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [kind, ms] = part.split('=');
    if (!(kind in profile) || !/^\d+$/.test(ms ?? '')) throw new Error(`--profile: "${part}" is not kind=ms (kinds: ${Object.keys(profile).join(', ')})`);
    profile[kind as Kind] = Number(ms);
  }
  return profile;
}

/** The reference server behind the proxy that delays each request by its kind, with the settings a run against it needs. */
async function latencyTarget(profile: Record<Kind, number>, jitterMs: number) {
  const server = await startReferenceServer();
  const target = new URL(server.url);
  const counts: Record<Kind, number> = { project: 0, group: 0, user: 0, token: 0, write: 0, read: 0 };
  const proxy = http.createServer((req, res) => {
    const kind = kindOf(req.method ?? 'GET', req.url ?? '/');
    counts[kind]++;
    setTimeout(() => {
      const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }, profile[kind] + (jitterMs > 0 ? Math.random() * jitterMs : 0));
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  const port = (proxy.address() as { port: number }).port;
  const work = mkdtempSync(join(tmpdir(), 'conformance-latency-'));
  const fixtures = join(work, 'fixtures.json');
  writeFileSync(fixtures, JSON.stringify(server.fixtures));
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => (!k.startsWith('CONFORMANCE_') || k === 'CONFORMANCE_TRACE') && !k.startsWith('VITEST'))),
    CONFORMANCE_TARGET_URL: `http://127.0.0.1:${port}`,
    CONFORMANCE_ADMIN_TOKEN: server.adminToken,
    CONFORMANCE_CAPABILITIES: 'premium,ultimate,ldap,saml,promotion_management,enterprise_users',
    CONFORMANCE_FIXTURES: fixtures,
  };
  const close = async () => {
    proxy.close();
    await server.close();
  };
  return { env, counts, work, close };
}

/** The command with `args` against the target of `env`; resolves to its exit code. */
function command(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'ignore' = 'inherit'): Promise<number | null> {
  return new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'gitlab-api-conformance.js'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', stdio] });
    child.on('exit', done);
  });
}

export async function latencyProfileRun(profile: Record<Kind, number>, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`), jitterMs = 0, extraArgs: string[] = []) {
  const { env, counts, work, close } = await latencyTarget(profile, jitterMs);
  const started = Date.now();
  const progress = setInterval(() => log(`latency profile: ${Math.round((Date.now() - started) / 1000)} s, ${Object.values(counts).reduce((a, b) => a + b, 0)} requests so far`), 15_000);
  try {
    const code = await command(['--report-dir', join(work, 'reports'), ...extraArgs], env);
    const wallS = (Date.now() - started) / 1000;
    const results = JSON.parse(readFileSync(join(work, 'reports', 'results.json'), 'utf8')) as Results;
    const slowest = (results.files ?? []).slice(0, 8).map(({ file, durationMs }) => ({ file, seconds: Math.round(durationMs / 100) / 10 }));
    // Tests that did not pass are recorded, not fatal: the figures of the run stand.
    const failures = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error').map((t) => ({ id: t.id, verdict: t.verdict, reason: (t.reason ?? '').split('\n')[0] }));
    return {
      exitCode: code,
      wallSeconds: Math.round(wallS),
      tests: results.summary.total,
      passed: results.summary.pass,
      failures,
      requests: counts,
      totalRequests: Object.values(counts).reduce((a, b) => a + b, 0),
      // What the requests were for (the suite's own count: checked, setup, take-back, reset), per file.
      purposes: results.requests?.total ?? {},
      perFile: results.requests?.files ?? [],
      highestInFlight: results.requests?.highestInFlight,
      slowest,
    };
  } finally {
    clearInterval(progress);
    await close();
  }
}

/**
 * `count` shards of one run started at once against one target on the profile (as a CI's parallel
 * jobs against one GitLab), then `merge`: the wall time of each shard, of them all, and of the merge,
 * with each shard's and the merged verdicts.
 */
export async function latencyShardsRun(profile: Record<Kind, number>, count: number, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  const { env, counts, work, close } = await latencyTarget(profile, 0);
  const started = Date.now();
  const progress = setInterval(() => log(`latency shards: ${Math.round((Date.now() - started) / 1000)} s, ${Object.values(counts).reduce((a, b) => a + b, 0)} requests so far`), 15_000);
  try {
    const dirs = Array.from({ length: count }, (_, i) => join(work, `shard-${i + 1}`));
    const shards = await Promise.all(dirs.map(async (dir, i) => {
      const code = await command(['--shard', `${i + 1}/${count}`, '--run-id', 'bench', '--report-dir', dir], env, 'ignore');
      const seconds = (Date.now() - started) / 1000;
      const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
      return { shard: i + 1, exitCode: code, wallSeconds: Math.round(seconds), tests: results.summary.total, passed: results.summary.pass, failing: results.summary.fail + results.summary.error };
    }));
    const allSeconds = (Date.now() - started) / 1000;
    const mergeStarted = Date.now();
    const mergeCode = await command(['merge', ...dirs, '--out', join(work, 'merged')], env, 'ignore');
    const mergeSeconds = (Date.now() - mergeStarted) / 1000;
    const merged = JSON.parse(readFileSync(join(work, 'merged', 'results.json'), 'utf8')) as Results;
    const failures = merged.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error').map((t) => ({ id: t.id, verdict: t.verdict, reason: (t.reason ?? '').split('\n')[0] }));
    return { shards, wallSeconds: Math.round(allSeconds), merge: { exitCode: mergeCode, seconds: Math.round(mergeSeconds * 10) / 10, tests: merged.summary.total, passed: merged.summary.pass }, failures, totalRequests: Object.values(counts).reduce((a, b) => a + b, 0) };
  } finally {
    clearInterval(progress);
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { profile: { type: 'string' }, json: { type: 'string' }, jitter: { type: 'string', default: '0' }, runs: { type: 'string', default: '1' } } });
  const profile = parseProfile(values.profile);
  const [jitterMs, runs] = [Number(values.jitter), Number(values.runs)];
  if (!Number.isInteger(jitterMs) || jitterMs < 0 || !Number.isInteger(runs) || runs < 1) throw new Error('--jitter takes whole milliseconds (0 or more), --runs a whole number from 1');
  process.stderr.write(`latency profile: ${JSON.stringify(profile)} (ms per request kind)${jitterMs ? ` plus a random 0–${jitterMs} ms` : ''}; the suite with its default settings, ${runs} run(s) …\n`);
  const results = [];
  for (let run = 1; run <= runs; run++) {
    const result = await latencyProfileRun(profile, undefined, jitterMs, positionals);
    if (runs > 1) process.stderr.write(`run ${run}: ${result.wallSeconds} s, ${result.passed} of ${result.tests} passed, ${result.failures.length} failing${result.failures.map((f) => `\n  ${f.id} [${f.verdict}]: ${f.reason}`).join('')}\n`);
    results.push(result);
  }
  const result = runs === 1 ? results[0] : { runs: results.map(({ wallSeconds, tests, passed, failures, requests, totalRequests }) => ({ wallSeconds, tests, passed, failures, requests, totalRequests })) };
  console.log(JSON.stringify(result, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ profile, jitterMs, ...result }, null, 2)}\n`);
}

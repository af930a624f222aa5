// The GitLab token bootstrap for CI (scripts/gitlab-bootstrap.sh) and the CI templates that use it
// (docs/ci/). No Docker here: the script is checked for syntax, for what its --dry-run says it would
// run, and once for real against a stub `docker` that records what it is asked; the templates are
// parsed and must call the bootstrap, then the CLI with --token-file (never a token in argv).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts', 'gitlab-bootstrap.sh');
const CI = join(ROOT, 'docs', 'ci');
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function bootstrap(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('scripts/gitlab-bootstrap.sh', () => {
  test('is valid bash (bash -n)', () => {
    const check = spawnSync('bash', ['-n', SCRIPT], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  test('--dry-run prints the wait, the gitlab-rails runner step and the check, and runs nothing', () => {
    const run = bootstrap(['--container', 'gitlab', '--url', 'http://localhost:8080/', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("curl -s -o /dev/null -w '%{http_code}' --max-time 10 http://localhost:8080/api/v4/version");
    expect(run.stdout).toContain('docker exec -i gitlab gitlab-rails runner -');
    expect(run.stdout).toContain("User.find_by_username('root')");
    expect(run.stdout).toContain('scopes: [:api, :admin_mode]');
    expect(run.stdout).toContain('expires_at: 3.days.from_now');
    expect(run.stdout).toMatch(/token\.set_token\('<token>'\)\ntoken\.save!/);
    expect(run.stdout).toContain('-H @- http://localhost:8080/api/v4/user');
    expect(run.stdout).not.toMatch(/glpat-/);
  });

  test('--dry-run with a compose service and no URL: compose exec, readiness asked inside the container', () => {
    const run = bootstrap(['--compose-service', 'gitlab', '--compose-file', 'docs/ci/docker-compose.yml', '--user', 'admin2', '--expires-days', '2', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('docker compose -f docs/ci/docker-compose.yml exec -T gitlab /opt/gitlab/embedded/bin/curl -fsS -o /dev/null --max-time 10 http://localhost/-/readiness');
    expect(run.stdout).toContain('docker compose -f docs/ci/docker-compose.yml exec -T gitlab gitlab-rails runner -');
    expect(run.stdout).toContain("User.find_by_username('admin2')");
    expect(run.stdout).toContain('expires_at: 2.days.from_now');
    expect(run.stdout).not.toContain('/api/v4/user');
  });

  test.each([
    [[], 'give --container NAME or --compose-service SERVICE'],
    [['--url', 'http://localhost:8080'], 'give --container NAME or --compose-service SERVICE'],
    [['--container', 'a', '--compose-service', 'b'], 'not both'],
    [['--container', 'a', '--user', "x'); system('id"], 'not a GitLab username'],
    [['--container', 'a', '--expires-days', '0'], '--expires-days'],
    [['--container', 'a', '--url', 'localhost:8080'], '--url must start with http'],
    [['--container'], '--container needs a value'],
  ])('refuses %j with exit code 2 and nothing on stdout', (args, message) => {
    const run = bootstrap([...args, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  test('for real, against a stub docker: stdout is the token alone; the token goes in on stdin, never in argv', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cnf-bootstrap-'));
    dirs.push(dir);
    const stub = join(dir, 'docker');
    writeFileSync(
      stub,
      [
        '#!/usr/bin/env bash',
        'printf "%s\\n" "$*" >> "$STUB_LOG.argv"',
        'case "$1 $*" in',
        '  inspect*) echo true ;;',
        '  *readiness*) exit 0 ;;',
        '  *"gitlab-rails runner -"*) cat > "$STUB_LOG.stdin"; echo "a rails warning on stdout" ;;',
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(stub, 0o755);
    const tokens: string[] = [];
    for (const n of [1, 2]) {
      const log = join(dir, `run${n}`);
      const run = bootstrap(['--container', 'gitlab-test'], { DOCKER: stub, STUB_LOG: log });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^glpat-[A-Za-z0-9]{20}\n$/);
      const token = run.stdout.trim();
      tokens.push(token);
      expect(run.stderr).toContain('a rails warning on stdout');
      expect(run.stderr).not.toContain(token);
      const argv = readFileSync(`${log}.argv`, 'utf8');
      expect(argv).toContain('exec -i gitlab-test gitlab-rails runner -');
      expect(argv).not.toContain(token);
      const ruby = readFileSync(`${log}.stdin`, 'utf8');
      expect(ruby).toContain(`token.set_token('${token}')`);
      expect(ruby).toContain('scopes: [:api, :admin_mode]');
    }
    expect(tokens[0]).not.toBe(tokens[1]);
  });
});

// ---- the CI templates ---------------------------------------------------------------------------

interface Call {
  where: string;
  line: string;
}

/** Every shell line of the templates' scripts, with where it is. */
function gitlabCiLines(doc: Record<string, Record<string, unknown>>): Call[] {
  const lines: Call[] = [];
  for (const [job, body] of Object.entries(doc)) {
    for (const key of ['before_script', 'script', 'after_script']) {
      for (const line of (body[key] as string[] | undefined) ?? []) lines.push({ where: `${job}.${key}`, line });
    }
  }
  return lines;
}

function githubLines(doc: { jobs: Record<string, { steps: { run?: string; name?: string }[] }> }): Call[] {
  return Object.entries(doc.jobs).flatMap(([job, body]) =>
    body.steps.flatMap((step, i) => (step.run ?? '').split('\n').filter((l) => l.trim() !== '').map((line) => ({ where: `${job}.steps[${i}]`, line }))),
  );
}

/** The bootstrap call and the CLI call; the CLI reads the file the bootstrap wrote. */
function checkCalls(lines: Call[], variables: Record<string, unknown>): void {
  const boot = lines.filter((c) => c.line.includes('$CONFORMANCE_BOOTSTRAP') || c.line.includes('gitlab-bootstrap.sh'));
  expect(boot.length, 'one bootstrap call').toBe(1);
  expect(String(variables.CONFORMANCE_BOOTSTRAP)).toMatch(/(^|\/)scripts\/gitlab-bootstrap\.sh$/);
  expect(boot[0].line).toMatch(/--container \S+/);
  expect(boot[0].line).toMatch(/--url "\$GITLAB_URL"/);
  const written = /> *("[^"]+"|\S+)\)?$/.exec(boot[0].line)?.[1];
  expect(written, 'the bootstrap writes the token to a file').toBeDefined();

  const cli = lines.filter((c) => /\bgitlab-api-conformance\b/.test(c.line) && !c.line.includes('npm install'));
  expect(cli.length, 'one CLI call').toBe(1);
  // The command itself, exec'd: npx puts `sh -c` between the job and it, which returns at once on SIGTERM (README).
  expect(cli[0].line).toMatch(/^exec node_modules\/\.bin\/gitlab-api-conformance /);
  expect(lines.indexOf(cli[0])).toBeGreaterThan(lines.indexOf(boot[0]));
  expect(cli[0].line).toContain(`--token-file ${written}`);
  expect(cli[0].line).toContain('--target "$GITLAB_URL"');
  expect(cli[0].line).toMatch(/--report-dir "?reports\//);
  // Never a token on a command line, nor in the environment of the step.
  for (const { line, where } of lines) {
    expect(line, where).not.toMatch(/--token(?!-file)\b|--token=|CONFORMANCE_ADMIN_TOKEN(?!_FILE)|PRIVATE-TOKEN|glpat-/);
  }
}

describe('CI templates (docs/ci/)', () => {
  const read = (file: string) => readFileSync(join(CI, file), 'utf8');
  const minimal = ["puma['worker_processes'] = 0", "prometheus_monitoring['enable'] = false"];

  test('gitlab-ci.yml: GitLab in Docker, the bootstrap, then the CLI with --token-file; reports as artifacts', () => {
    const doc = parse(read('gitlab-ci.yml')) as Record<string, Record<string, unknown>>;
    const job = doc.conformance;
    const variables = job.variables as Record<string, string>;
    // The shard jobs make their GitLab and run; the merge job (ci-templates-run.spec.ts runs both) only joins reports.
    const shardJob = { conformance: job };
    checkCalls(gitlabCiLines(shardJob), variables);
    const lines = gitlabCiLines(shardJob).map((c) => c.line);
    expect(lines.some((l) => /docker run .*--name gitlab\b.*"\$GITLAB_IMAGE"/.test(l))).toBe(true);
    expect(variables.GITLAB_IMAGE).toMatch(/^gitlab\/gitlab-ee:/);
    for (const line of minimal) expect(variables.GITLAB_OMNIBUS_CONFIG).toContain(line);
    for (const name of ['conformance', 'conformance-report']) {
      const artifacts = doc[name].artifacts as { when: string; paths: string[] };
      expect(artifacts.when, name).toBe('always');
      expect(artifacts.paths, name).toContain('reports/');
    }
    expect((doc['conformance-report'].artifacts as { reports: { junit: string } }).reports.junit).toBe('reports/junit.xml');
  });

  test('github-actions.yml: GitLab as a service, the bootstrap, then the CLI with --token-file; reports as artifacts', () => {
    const doc = parse(read('github-actions.yml')) as {
      jobs: Record<string, { env: Record<string, string>; services: Record<string, { image: string; env: Record<string, string> }>; steps: { run?: string; uses?: string; with?: Record<string, string> }[] }>;
    };
    const job = doc.jobs.conformance;
    checkCalls(githubLines({ jobs: { conformance: job } }), job.env);
    expect(job.services.gitlab.image).toMatch(/^gitlab\/gitlab-ee:/);
    expect(githubLines(doc).find((c) => c.line.includes('$CONFORMANCE_BOOTSTRAP'))?.line).toContain('--container "${{ job.services.gitlab.id }}"');
    for (const line of minimal) expect(job.services.gitlab.env.GITLAB_OMNIBUS_CONFIG).toContain(line);
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.with?.path).toBe('reports/');
    const junit = doc.jobs.report.steps.find((s) => s.with?.report_paths !== undefined);
    expect(junit?.with?.report_paths).toBe('reports/junit.xml');
  });

  test('docker-compose.yml: a small gitlab-ee service the bootstrap can reach by name', () => {
    const doc = parse(read('docker-compose.yml')) as { services: Record<string, { image: string; ports: string[]; environment: Record<string, string> }> };
    const gitlab = doc.services.gitlab;
    expect(gitlab.image).toContain('gitlab/gitlab-ee');
    expect(gitlab.ports).toContain('8080:80');
    for (const line of minimal) expect(gitlab.environment.GITLAB_OMNIBUS_CONFIG).toContain(line);
    // The command its header comment gives works (as a dry run).
    const run = bootstrap(['--compose-service', 'gitlab', '--compose-file', 'docs/ci/docker-compose.yml', '--url', 'http://localhost:8080', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(read('docker-compose.yml')).toContain('scripts/gitlab-bootstrap.sh --compose-service gitlab');
  });

  test('the package ships the bootstrap and the templates (package.json files)', () => {
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files.some((f) => f === 'scripts/gitlab-bootstrap.sh' || f === 'scripts/')).toBe(true);
    expect(files.some((f) => f === 'docs/' || f === 'docs/ci/')).toBe(true);
  });
});

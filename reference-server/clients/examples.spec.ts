// The examples of docs/reference-server.md that need a client outside npm: the pytest fixture with
// python-gitlab and the Go test with go-gitlab (Debian's python3-gitlab and python3-pytest;
// golang-go and golang-github-xanzy-go-gitlab-dev, built offline). Each starts the server with the
// examples' seed through `gitlab-api-conformance serve`, resets it between its tests and stops it;
// each is skipped, saying so, where its client is not installed. (The @gitbeaker/rest example is a
// vitest file itself: docs/examples/gitbeaker/.)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { probe } from './drive.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'docs', 'examples');
// The commands the examples start: node on the command, and npx as their users do (in this clone,
// npx runs the package's own bin).
const SERVERS = { node: `${process.execPath} ${join(ROOT, 'bin', 'gitlab-api-conformance.js')} serve`, npx: 'npx --yes gitlab-reference-server' };
const GOPATH = '/usr/share/gocode';

function run(server: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env, GITLAB_REFERENCE_SERVER: server }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

const pytest = probe('/usr/bin/python3', ['-c', 'import gitlab, pytest; print(gitlab.__version__)']);
const go = existsSync(join(GOPATH, 'src/github.com/xanzy/go-gitlab')) ? probe('go', ['version']) : { missing: 'go-gitlab not found' };

describe.each(Object.entries(SERVERS))('the examples of docs/reference-server.md, the server started with %s', { timeout: 600_000 }, (_launcher, server) => {
  test('python-gitlab: the pytest fixture seeds, resets between tests and stops the server', async (ctx) => {
    if (!pytest.version) ctx.skip(`python-gitlab or pytest not installed: ${pytest.missing} (apt-get install python3-gitlab python3-pytest)`);
    const result = await run(server, '/usr/bin/python3', ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', join(EXAMPLES, 'python-gitlab')], ROOT, { PYTHONDONTWRITEBYTECODE: '1' });
    expect(result.output).toMatch(/3 passed/);
    expect(result.code, result.output.slice(-3000)).toBe(0);
  });

  test('go-gitlab: TestMain seeds and stops the server, each test resets it', async (ctx) => {
    if (!go.version) ctx.skip(`go-gitlab cannot be built: ${go.missing} (apt-get install golang-go golang-github-xanzy-go-gitlab-dev)`);
    // Debian's Go packages are a GOPATH tree: GOPATH mode, no module proxy, no network.
    const env = { GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOCACHE: join(tmpdir(), 'gitlab-api-conformance-go-cache'), GOPROXY: 'off' };
    const result = await run(server, 'go', ['test', '-count=1', '-v', '.'], join(EXAMPLES, 'go-gitlab'), env);
    expect(result.output.match(/^--- PASS/gm)?.length, result.output.slice(-3000)).toBe(3);
    expect(result.code, result.output.slice(-3000)).toBe(0);
  });
});

// The reference server as a user installs it, two ways: the suite's tarball (gitlab-api-conformance,
// which carries the server beside the suite and its test tooling) and the server's own
// (gitlab-reference-server, packages/reference-server/). Each packed, installed from its tarball
// into an empty folder, and measured: the folder's node_modules (bytes, disk use, packages), and a
// start of its `gitlab-reference-server` (time to the first answer of GET /api/v4/version, and the
// server's resident memory then). `npm run bench -- --only install` prints the figures;
// cli/server-package.spec.ts takes the same steps for the server's package.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTE = 60_000;

/** The environment of a user's shell: nothing of an npm script or a test run around this one. */
export function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !k.startsWith('VITEST') &&
        !k.startsWith('CONFORMANCE_') &&
        !k.startsWith('npm_package_') &&
        !k.startsWith('npm_lifecycle_') &&
        !['NODE_ENV', 'TEST', 'INIT_CWD', 'npm_command', 'npm_config_local_prefix', 'NODE_OPTIONS'].includes(k),
    ),
  );
}

/** Runs npm; its standard output, or an error with the tail of what it printed when it fails. */
function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 10 * MINUTE, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} (in ${cwd}) ended ${result.status}:\n${`${result.stdout}\n${result.stderr}`.slice(-3000)}`);
  return result.stdout;
}

/** This repository's two packages, by the folder `npm pack` takes; both install the command gitlab-reference-server. */
export const PACKAGES = { suite: '.', server: './packages/reference-server' } as const;
export type PackageName = keyof typeof PACKAGES;

/** `npm pack` of one package (its prepack builds it) into `destination`: the tarball's path. */
export function pack(name: PackageName, destination: string): string {
  const out = npm(['pack', '--json', '--pack-destination', destination, PACKAGES[name]], ROOT);
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return join(destination, filename);
}

/** An empty project with the tarball installed (its dependencies from the registry, or npm's cache when there). */
export function installTarball(tarball: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'cnf-install-'));
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'cnf-install-check', version: '1.0.0', private: true }, null, 2)}\n`);
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], folder);
  return folder;
}

export interface InstalledSize {
  /** The files' sizes, as npm's "unpacked size" counts them. */
  bytes: number;
  /** The blocks they take on disk, as `du` counts them. */
  diskBytes: number;
  /** The packages installed (a folder with a package.json under a node_modules), the project's own apart. */
  packages: number;
}

/** What the project's node_modules holds; a file linked twice (esbuild's binary is) counted once, as `du` does. */
export function installedSize(project: string): InstalledSize {
  const size: InstalledSize = { bytes: 0, diskBytes: 0, packages: 0 };
  const seen = new Set<string>();
  const walk = (dir: string, underNodeModules: boolean) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const stat = lstatSync(path);
      const inode = `${stat.dev}:${stat.ino}`;
      if (!seen.has(inode)) {
        seen.add(inode);
        size.bytes += stat.size;
        size.diskBytes += stat.blocks * 512;
      }
      if (!entry.isDirectory()) continue;
      const isPackage = underNodeModules && !entry.name.startsWith('@') && !entry.name.startsWith('.');
      if (isPackage) size.packages++;
      walk(path, entry.name === 'node_modules' || (underNodeModules && entry.name.startsWith('@')));
    }
  };
  walk(join(project, 'node_modules'), true);
  return size;
}

export interface Start {
  /** From the spawn to the first answer of GET /api/v4/version. */
  firstAnswerMs: number;
  /** The answer. */
  version: { status: number; body: string };
  /** The server process's resident memory at its first answer (VmRSS). */
  rssKiB: number;
  /** The CPU time the server process spent up to its first answer: less disturbed than the wall time by a busy machine. */
  cpuMs: number;
  url: string;
  /** Its output so far (the token it prints is the one given: no other secret). */
  output: () => string;
  /** SIGTERM, then its exit. */
  stop: () => Promise<void>;
}

/**
 * Starts `command args… --port 0 --admin-token TOKEN` in the project, and waits for its first answer
 * to GET /api/v4/version. The server is the process whose command line holds the token (npx runs it
 * in a process of its own, below itself).
 */
export async function startAndAsk(command: string, args: string[], cwd: string, adminToken: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(command, [...args, '--port', '0', '--admin-token', adminToken], { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  try {
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`not listening within 2 minutes: ${out}`)), 2 * MINUTE);
      const look = () => {
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)?.[1];
        if (found) {
          clearTimeout(timer);
          done(found);
        }
      };
      child.stdout.on('data', look);
      child.on('exit', (code) => fail(new Error(`ended (${code}) before listening: ${out}`)));
    });
    const answer = await fetch(`${url}/api/v4/version`, { headers: { 'private-token': adminToken } });
    const version = { status: answer.status, body: await answer.text() };
    const firstAnswerMs = performance.now() - started;
    return { firstAnswerMs, version, ...serverProcess(adminToken), url, output: () => out, stop: () => (child.kill('SIGTERM'), exited) };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The one node process whose command line holds `marker`: its resident memory (VmRSS) and the CPU
 * time it has spent (user and system).
 */
function serverProcess(marker: string): { rssKiB: number; cpuMs: number } {
  const servers = readdirSync('/proc').filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return /^\d+$/.test(pid) && argv.includes(marker) && /(^|\/)node$/.test(argv[0]);
    } catch {
      return false; // gone meanwhile, or no process
    }
  });
  if (servers.length !== 1) throw new Error(`wanted one server process, found ${servers.length}`);
  const rssKiB = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${servers[0]}/status`, 'utf8'))?.[1]);
  // The fields after the command's name in parentheses: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${servers[0]}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return { rssKiB, cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
}

export interface InstallFigures extends InstalledSize {
  /** The first start after the install; then the medians of the others. */
  firstStartMs: number;
  medianStartMs: number;
  medianStartCpuMs: number;
  medianRssMiB: number;
}

/**
 * `npm run bench`'s install section: both packages packed and installed, then `runs` + 1 starts of
 * each, alternated (node on the installed bin, not npx, so that the figure is the server's own). The
 * rows of docs/performance.md's table, and the figures.
 */
export async function installSection(runs: number, step: (message: string) => void): Promise<{ figures: Record<PackageName, InstallFigures>; lines: string[] }> {
  const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const names = Object.keys(PACKAGES) as PackageName[];
  const packDir = mkdtempSync(join(tmpdir(), 'bench-pack-'));
  const projects = {} as Record<PackageName, string>;
  const starts = Object.fromEntries(names.map((name) => [name, [] as Start[]])) as Record<PackageName, Start[]>;
  try {
    for (const name of names) {
      step(`install: packing and installing ${name === 'suite' ? 'the suite (gitlab-api-conformance)' : 'the server alone (gitlab-reference-server)'}`);
      projects[name] = installTarball(pack(name, packDir));
    }
    for (let i = 0; i <= runs; i++) {
      for (const name of names) {
        step(`install: ${name}, start ${i + 1}/${runs + 1}`);
        const start = await startAndAsk(process.execPath, [join(projects[name], 'node_modules', '.bin', 'gitlab-reference-server')], projects[name], 'glpat-bench-install-admin-01');
        await start.stop();
        if (start.version.status !== 200) throw new Error(`GET /api/v4/version answered ${start.version.status}: ${start.output()}`);
        starts[name].push(start);
      }
    }
    const figures = {} as Record<PackageName, InstallFigures>;
    const lines: string[] = [];
    for (const name of names) {
      const [first, ...rest] = starts[name];
      const f = (figures[name] = {
        ...installedSize(projects[name]),
        firstStartMs: Math.round(first.firstAnswerMs),
        medianStartMs: Math.round(median(rest.map((s) => s.firstAnswerMs))),
        medianStartCpuMs: Math.round(median(rest.map((s) => s.cpuMs))),
        medianRssMiB: round(median(rest.map((s) => s.rssKiB)) / 1024),
      });
      const label = name === 'suite' ? "the suite's tarball (gitlab-api-conformance)" : 'its own tarball (gitlab-reference-server)';
      lines.push(
        `| the reference server installed from ${label} | ${f.packages} package${f.packages === 1 ? '' : 's'} | **${round(f.diskBytes / 1e6)} MB** on disk (${round(f.bytes / 1e6)} MB of files); first answer of GET /api/v4/version **${f.medianStartMs} ms** after the spawn, ${f.medianStartCpuMs} ms of CPU (medians of ${runs}, alternated; the first start after the install ${f.firstStartMs} ms), RSS then ${f.medianRssMiB} MiB |`,
      );
    }
    return { figures, lines };
  } finally {
    for (const project of Object.values(projects)) rmSync(project, { recursive: true, force: true });
    rmSync(packDir, { recursive: true, force: true });
  }
}

// The command's lifetime: the server ends when the process that started it ends, however it ends.
//
// Started by `npx gitlab-reference-server` (or `npm run`), the process tree is
//   starter (a test, a shell) → npm → sh -c "gitlab-reference-server …" → the server
// and npm forwards SIGINT and SIGTERM to the `sh` only (@npmcli/run-script's signal-manager.js): the
// shell catches the signal and waits for the server, npm waits for the shell, and nothing serves
// nobody forever. SIGKILL of npm leaves the shell and the server under init. So the server watches,
// every quarter second, each process between it and its starter and the starter itself: one that is
// gone (or whose parent changed: its own parent died) ends the server. The shell npm started runs one
// command and sleeps in wait() until it ends: it wakes (its context-switch count grows) only for a
// signal, which is what npm passed on, and that ends the server too, as the signal would have.
// Outside Linux (no /proc) only the parent's exit is seen (process.ppid changing).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProcessInfo {
  ppid: number;
  /** Since boot, in clock ticks: tells a pid reused from one still the same process. */
  startTime: string;
  argv: string[];
}

function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
    return { ppid: Number(fields[1]), startTime: fields[19], argv };
  } catch {
    return undefined;
  }
}

/** How often the process was put to sleep and woken; undefined once it is gone. */
function wakeups(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return [...status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  } catch {
    return undefined;
  }
}

/** npm sets its process title ("npm exec", "npm run …"); or its entry script shows. */
function isNpm(argv: string[]): boolean {
  return /^npm(\s|$)/.test(argv[0] ?? '') || argv.some((arg) => /(^|\/)np[mx]-cli\.js$/.test(arg));
}

function isShellCommand(argv: string[]): boolean {
  return ['sh', 'dash', 'bash'].includes(basename(argv[0] ?? '')) && argv[1] === '-c';
}

interface Watched extends ProcessInfo {
  pid: number;
  /** For the shell npm started: its wake-ups when the watch began. */
  wakeups?: number;
}

/** The processes between this one and its starter, and the starter (not init, unless init is npm: a container's command). */
export function launchers(self: number = process.pid, info: (pid: number) => ProcessInfo | undefined = processInfo): Watched[] {
  const chain: Watched[] = [];
  let pid = info(self)?.ppid;
  while (pid !== undefined && pid >= 1) {
    const current = info(pid);
    // Init is no starter to outlive; npm as the first process of a container is.
    if (!current || (pid === 1 && !isNpm(current.argv))) break;
    chain.push({ pid, ...current });
    const parent = info(current.ppid);
    const npmShell = isShellCommand(current.argv) && parent !== undefined && isNpm(parent.argv);
    // Past npm's shell and npm itself to the process that ran npm; any other process is the starter.
    if (!npmShell && !isNpm(current.argv)) break;
    pid = current.ppid;
  }
  return chain;
}

/** Calls `onGone` once the starter or a process between is gone, or npm passed a signal on; returns a function that stops watching. */
export function watchStarter(onGone: (why: string) => void, intervalMs = 250): () => void {
  const chain = launchers();
  for (const [i, watched] of chain.entries()) {
    if (isShellCommand(watched.argv) && chain[i + 1] && isNpm(chain[i + 1].argv)) watched.wakeups = wakeups(watched.pid);
  }
  const parent = process.ppid;
  const timer = setInterval(() => {
    const why = chain.length === 0 ? (process.ppid !== parent ? 'its parent ended' : undefined) : check(chain);
    if (why !== undefined) {
      clearInterval(timer);
      onGone(why);
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function check(chain: Watched[]): string | undefined {
  for (const watched of chain) {
    const now = processInfo(watched.pid);
    const name = watched.argv[0] ?? String(watched.pid);
    if (!now || now.startTime !== watched.startTime) return `${name} (pid ${watched.pid}) ended`;
    if (now.ppid !== watched.ppid) return `the parent of ${name} (pid ${watched.pid}) ended`;
    if (watched.wakeups !== undefined && wakeups(watched.pid) !== watched.wakeups) return `npm passed a signal on to ${name} (pid ${watched.pid})`;
  }
  return undefined;
}

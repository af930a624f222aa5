// One run per report directory at a time: two runs writing one directory leave the report of
// whichever ends last, and the other's results lost. A run holds `.conformance-run.lock` in its report
// directory from its start to its exit; a second run finds it and refuses. The lock is made whole and
// at once (its text written to a file of this process, then hard-linked to the lock's name, which
// fails when the name exists: no moment where another run could read it half-written); a lock whose
// process is gone (a killed run) is taken over.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface LockHolder {
  runId: string;
  pid: number;
  host: string;
  /** When the run started (ISO 8601). */
  started: string;
}

const LOCK_FILE = '.conformance-run.lock';

/** Takes `dir`'s lock for this process's run `runId`, released when the process exits; else the run that holds it. */
export function lockReportDir(dir: string, runId: string): { heldBy?: LockHolder } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const holder: LockHolder = { runId, pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const text = JSON.stringify(holder);
  const mine = `${path}.${process.pid}`;
  writeFileSync(mine, text);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, path);
        process.on('exit', () => {
          if (readHolder(path)?.runId === runId) rmSync(path, { force: true });
        });
        return {};
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const other = readHolder(path);
      if (other !== undefined && alive(other)) return { heldBy: other };
      // Stale (or unreadable): moved aside, and removed only if it is still the one read (another
      // run taking it over at the same moment may have put its own in its place).
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
      } catch {
        continue; // gone already
      }
      const moved = readHolder(aside);
      if (moved !== undefined && alive(moved)) {
        renameSync(aside, path);
        return { heldBy: moved };
      }
      rmSync(aside, { force: true });
    }
    return { heldBy: readHolder(path) };
  } finally {
    rmSync(mine, { force: true });
  }
}

/** The holder a lock file names, or undefined when it cannot be read. */
function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' && typeof holder.runId === 'string' ? (holder as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder's process is still there; one on another machine (a shared directory) is taken to be. */
function alive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The line a run refused for `dir` prints. */
export function refusal(dir: string, holder: LockHolder | undefined): string {
  const who = holder ? `run ${holder.runId} (pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}, started ${holder.started})` : 'another run';
  return `conformance: the report directory ${dir}/ is in use by ${who}; nothing was run (wait for it to end, or give this run another --report-dir)`;
}

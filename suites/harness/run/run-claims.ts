// What the test files of one run agree on through the file system, next to the ledger, since they
// run in several workers: which file has which pool user in each namespace that several files share
// (a run world's, a fixture's), and which users of the seatless pool are spent.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunContext } from './context.js';

const claimsDir = (run: Pick<RunContext, 'ledgerPath' | 'runId'>) => join(dirname(run.ledgerPath), `claims-${run.runId}`);
const spentFile = (run: Pick<RunContext, 'ledgerPath' | 'runId'>) => join(dirname(run.ledgerPath), `spent-${run.runId}`);

/** The names of the run's claim directory and spent list, for the clean-up at the end of the run. */
export const claimNames = (runId: string) => [`claims-${runId}`, `spent-${runId}`];

/**
 * Claims `userId` in each shared namespace of `keys`, or in none: true when no file of the run has it
 * there (until releaseShared). A directory per pair, made atomically by mkdir, is the claim.
 * Synchronous, so that users asked for at once in one process are claimed one after the other.
 */
export function claimShared(run: RunContext, userId: number, keys: readonly string[]): boolean {
  if (keys.length === 0) return true;
  const root = claimsDir(run);
  mkdirSync(root, { recursive: true });
  const made: string[] = [];
  for (const key of keys) {
    const dir = join(root, `${key}--${userId}`);
    try {
      mkdirSync(dir);
      made.push(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      for (const claimed of made) rmdirSync(claimed);
      return false;
    }
  }
  return true;
}

/** Gives up claims made by claimShared: the user has been taken back from those namespaces. */
export function releaseShared(run: RunContext, userId: number, keys: readonly string[]): void {
  for (const key of keys) rmSync(join(claimsDir(run), `${key}--${userId}`), { recursive: true, force: true });
}

/** Marks users of the seatless pool as spent: they may hold a seat now, and no file hands them out again. */
export function markSpent(run: RunContext, userIds: readonly number[]): void {
  if (userIds.length > 0) appendFileSync(spentFile(run), userIds.map((id) => `${id}\n`).join(''));
}

/** The seatless users spent so far in the run, by any file. */
export function spentUsers(run: RunContext): Set<number> {
  const file = spentFile(run);
  return new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []);
}

// Worlds for the whole run: objects that many test files use at once without stepping on each
// other (projects whose tests each work in mirrors, files or branches of their own), built once per
// run instead of once per file. Test files run in several workers, so the first file to ask builds
// and the others wait for its result on disk, next to the ledger; the run's clean-up removes the
// objects (they are in the ledger like any other).
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HarnessError } from '../core/errors.js';
import { registerSecret } from '../core/redact.js';
import type { RunContext } from './context.js';
import { claimNames } from './run-claims.js';
import { noteRunSources, World } from './world.js';

/** How long a file waits for another worker to build a run world: the hook's own timeout is 120 s. */
const WAIT_MS = 110_000;

const building = new Map<string, Promise<unknown>>();

/**
 * The run's world named `scope`: built by `build` in the first file that asks for it, in any worker;
 * the same value (JSON: data, no functions) in every other. A failed build fails every file that asks.
 */
export function runWorld<T>(run: RunContext, scope: string, build: (world: World) => Promise<T>): Promise<T> {
  const file = join(dirname(run.ledgerPath), `world-${run.runId}-${scope}.json`);
  let value = building.get(file) as Promise<T> | undefined;
  if (!value) {
    value = (claim(file) ? buildAndShare(new World(run, scope), file, build) : waitFor<T>(file, scope)).then((v) => {
      noteRunSources(v);
      return v;
    });
    building.set(file, value);
  }
  return value;
}

/** The run's world files and claims (run-claims.ts), once its objects are removed: the ledger stays, these would only pile up. */
export function removeRunFiles(ledgerPath: string, runId: string): void {
  const dir = dirname(ledgerPath);
  if (!existsSync(dir)) return;
  const claims = claimNames(runId);
  for (const name of readdirSync(dir)) if (name.startsWith(`world-${runId}-`) || claims.includes(name)) rmSync(join(dir, name), { force: true, recursive: true });
}

/** True for the one caller in the whole run that creates the claim file. */
function claim(file: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function buildAndShare<T>(world: World, file: string, build: (world: World) => Promise<T>): Promise<T> {
  // Written whole and renamed into place: a waiting reader sees the empty claim or the result, never a part.
  const publish = (result: { value: T } | { error: string }) => {
    writeFileSync(`${file}.tmp`, JSON.stringify(result));
    renameSync(`${file}.tmp`, file);
  };
  try {
    const value = await build(world);
    world.endBuild();
    publish({ value });
    return value;
  } catch (error) {
    publish({ error: (error as Error).message });
    throw error;
  }
}

async function waitFor<T>(file: string, scope: string): Promise<T> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const text = readFileSync(file, 'utf8');
    if (text !== '') {
      const result = JSON.parse(text) as { value: T } | { error: string };
      if ('error' in result) throw new HarnessError(`building the run's ${scope} world failed in another file: ${result.error}`);
      registerTokens(result.value);
      return result.value;
    }
    if (Date.now() > until) throw new HarnessError(`the run's ${scope} world was not built within ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The tokens of the users in a world built elsewhere (`tokens` of an ActorInfo), to be masked in this worker's output too. */
function registerTokens(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'tokens' && inner !== null && typeof inner === 'object') for (const token of Object.values(inner)) registerSecret(token as string);
    else registerTokens(inner);
  }
}

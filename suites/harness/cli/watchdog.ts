// The target lost: while a run against a URL goes on, the command asks the target's /api/v4/version
// every few seconds; when it has not answered at all (refused, reset, timed out) several times in a
// row, the run is stopped as interrupted ("target lost"), instead of ending in hundreds of `error`
// verdicts that read as the target's fault. Any HTTP answer, whatever its status, means the target is there.
import { giveSlot, takeSlot } from '../core/in-flight.js';
export interface Watchdog {
  stop(): void;
}

/** Whether the target answers at all (any status): a few tries, a moment apart, each on a new connection. */
export async function answers(targetUrl: string, tries = 3, gapMs = 500, timeoutMs = 10_000): Promise<{ ok: boolean; error: string }> {
  let error = '';
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((done) => setTimeout(done, gapMs));
    try {
      const res = await fetch(`${targetUrl}/api/v4/version`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      return { ok: true, error: '' };
    } catch (e) {
      error = String((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name);
    }
  }
  return { ok: false, error };
}

export function watchTarget(targetUrl: string, onLost: (why: string) => void, options: { everyMs?: number; misses?: number; timeoutMs?: number } = {}): Watchdog {
  const everyMs = options.everyMs ?? 2_000;
  const misses = options.misses ?? 3;
  let missed = 0;
  let lastError = '';
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    // Within the run's bound on requests in flight, and on a connection of its own: an answer on a
    // kept-alive socket says nothing of whether the target still takes new ones.
    takeSlot()
      .then(() => fetch(`${targetUrl}/api/v4/version`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) }).finally(giveSlot))
      .then(async (res) => {
        await res.body?.cancel();
        missed = 0;
      })
      .catch((error: unknown) => {
        missed++;
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        lastError = String(cause);
        if (missed === misses) onLost(`target lost: ${targetUrl} did not answer ${misses} times in a row (${lastError})`);
      })
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The watchdog as a reporter of the run: it starts with the first test file (before it, the run's
 * own pre-check says what a dead target is) and calls `onLost`, set once the run can be cancelled.
 */
export class TargetWatch {
  onLost: (why: string) => void = () => undefined;
  private watchdog: Watchdog | undefined;

  constructor(private readonly targetUrl: string | undefined) {}

  onTestModuleStart(): void {
    if (this.targetUrl !== undefined) this.watchdog ??= watchTarget(this.targetUrl, (why) => this.onLost(why));
  }

  stop(): void {
    this.watchdog?.stop();
  }

  /**
   * At the end, before the reports: a run whose target stopped answering faster than the watchdog
   * could tell (every request refused at once) is a run cut short too, when the target is gone now.
   */
  async lostAtTheEnd(): Promise<string | undefined> {
    if (this.targetUrl === undefined) return undefined;
    const { ok, error } = await answers(this.targetUrl);
    return ok ? undefined : `target lost: ${this.targetUrl} does not answer at the end of the run (${error})`;
  }
}

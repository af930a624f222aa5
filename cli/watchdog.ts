// The target lost: when requests of a run against a URL get no answer at all (refused, reset, timed
// out: the clients count them in the run's shared counters, core/in-flight.ts), the command asks the
// target's /api/v4/version a few times on a connection of its own; when none of those is answered
// either, the run is stopped as interrupted ("target lost") instead of ending in hundreds of `error`
// verdicts that read as the target's fault. A healthy run costs no request: the watchdog asks only
// after an unanswered one. Any HTTP answer, whatever its status, means the target is there.
import type { TestModule } from 'vitest/node';
import { reach } from '../runner/run/coordinator-channel.js';

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

/**
 * The watchdog as a reporter of the run: it starts with the first test file (before it, the run's
 * own pre-check says what a dead target is) and calls `onLost`, set once the run can be cancelled.
 */
export class TargetWatch {
  onLost: (why: string) => void = () => undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The run's shared counters (core/in-flight.ts), which its coordinator hands over. */
  private counters: SharedArrayBuffer | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly targetUrl: string | undefined,
    private readonly everyMs = 1_000,
  ) {}

  onTestModuleStart(module: TestModule): void {
    const runId = module.project.getProvidedContext().conformance?.runId;
    const targetUrl = this.targetUrl;
    if (targetUrl === undefined || runId === undefined || this.started) return;
    this.started = true;
    const { coordinator, close } = reach(runId);
    void coordinator
      .tallies.inFlight()
      .finally(close)
      .then(
        (counters) => {
          this.counters = counters;
          if (!this.stopped) this.watch(targetUrl);
        },
        (error: unknown) => console.error(`conformance: ${(error as Error).message}; a target lost mid-run is not watched for`),
      );
  }

  /** How many requests of the run got no answer at all. */
  private unanswered(): number {
    return this.counters ? Atomics.load(new Int32Array(this.counters), 3) : 0;
  }

  private watch(targetUrl: string): void {
    let seen = this.unanswered();
    let busy = false;
    this.timer = setInterval(() => {
      const now = this.unanswered();
      if (busy || now === seen) return;
      seen = now;
      busy = true;
      void answers(targetUrl).then(({ ok, error }) => {
        busy = false;
        if (!ok) this.onLost(`target lost: ${targetUrl} did not answer (${error}) after ${now} request(s) of the run got no answer`);
      });
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /**
   * At the end, before the reports: a run whose target stopped answering faster than the watchdog
   * could tell (every request refused at once) is a run cut short too, when the target is gone now.
   */
  async lostAtTheEnd(): Promise<string | undefined> {
    if (this.targetUrl === undefined || this.unanswered() === 0) return undefined;
    const { ok, error } = await answers(this.targetUrl);
    return ok ? undefined : `target lost: ${this.targetUrl} does not answer at the end of the run (${error})`;
  }
}

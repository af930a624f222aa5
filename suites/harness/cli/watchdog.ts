// The target lost: while a run against a URL goes on, the command asks the target's /api/v4/version
// every few seconds; when it has not answered at all (refused, reset, timed out) several times in a
// row, the run is stopped as interrupted ("target lost"), instead of ending in hundreds of `error`
// verdicts that read as the target's fault. Any HTTP answer, whatever its status, means the target is there.
export interface Watchdog {
  stop(): void;
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
    fetch(`${targetUrl}/api/v4/version`, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) })
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

// `gitlab-api-conformance [run]` and `record`: the settings read once from the flags, the environment
// and .env; the run made here and handed to the conformance projects as a value (vitest's provide:
// their global setup then makes none); vitest driven through its node API; the run stopped on a
// signal or a lost target, cleaned up, and its exit code.
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Vitest } from 'vitest/node';
import { CATALOG } from '../suites/areas.js';
import { Client } from '../runner/core/client.js';
import { ConfigError } from '../runner/core/errors.js';
import { registerSecret } from '../runner/core/redact.js';
import { flagged, loadConfig, type Config, type Flags } from '../runner/run/config.js';
import type { RunContext } from '../runner/run/context.js';
import type { CleanUpSummary, MadeRun } from '../runner/run/lifecycle.js';
import { ledgerPathOf } from '../runner/run/ledger.js';
import { parseShard, type ShardSpec } from '../runner/run/shard.js';
import { sweepLedger } from '../runner/run/removal.js';
import { ProgressReporter } from '../runner/report/progress-reporter.js';
import { ConformanceReporter, type RunControl, type UnloadedTest } from '../runner/report/reporter.js';
import { chosenSummary, type Results } from '../runner/report/results.js';
import { printEnding, printTable } from '../runner/report/terminal.js';
import type { Home } from './home.js';
import { takeSignals, withoutVitestSignalHandlers } from './own-signals.js';
import { lockReportDir, refusal } from './report-lock.js';
import { conformanceVitest, unloadedTests } from './selection.js';
import { shardFiles } from './shards.js';
import { TargetWatch } from './watchdog.js';

/**
 * After a signal: how long the tests under way may take to end before their worker threads are
 * ended and the run is cleaned up from this process (a second signal does it at once).
 */
const STOP_GRACE_MS = 5_000;
/** After an interrupted run's reports: how long the process may take to end by itself before it exits. */
const EXIT_AFTER_MS = 3_000;

/** The exit codes, as pytest has them: 5 when the selection matched no test. */
export const EXIT = { passed: 0, failed: 1, notMade: 2, empty: 5 } as const;

const RUN_FLAGS = {
  target: { type: 'string' },
  'token-file': { type: 'string' },
  area: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  grep: { type: 'string' },
  level: { type: 'string' },
  capabilities: { type: 'string' },
  fixtures: { type: 'string' },
  'report-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'max-in-flight': { type: 'string' },
  sequential: { type: 'boolean' },
  timeout: { type: 'string' },
  'max-answer-mb': { type: 'string' },
  'expected-failures': { type: 'string' },
  shard: { type: 'string' },
  'run-id': { type: 'string' },
  keep: { type: 'boolean' },
} as const;
type RunValues = ReturnType<typeof parseArgs<{ options: typeof RUN_FLAGS }>>['values'];

/** The run's settings, the one place they are read: the flags, then the environment, then .env. */
function runSettings(values: RunValues, transcript: string | undefined): Config {
  const flags: Flags = {
    ...flagged('CONFORMANCE_TARGET_URL', values.target, '--target'),
    ...flagged('CONFORMANCE_ADMIN_TOKEN_FILE', values['token-file'], '--token-file'),
    ...flagged('CONFORMANCE_AREAS', values.area, '--area'),
    ...flagged('CONFORMANCE_LEVEL', values.level, '--level'),
    ...flagged('CONFORMANCE_ENDPOINTS', values.endpoint?.join(';'), '--endpoint'),
    ...flagged('CONFORMANCE_CAPABILITIES', values.capabilities, '--capabilities'),
    ...flagged('CONFORMANCE_FIXTURES', values.fixtures, '--fixtures'),
    ...flagged('CONFORMANCE_REPORT_DIR', values['report-dir'], '--report-dir'),
    ...flagged('CONFORMANCE_REQUEST_TIMEOUT_MS', values.timeout, '--timeout'),
    ...flagged('CONFORMANCE_MAX_ANSWER_MB', values['max-answer-mb'], '--max-answer-mb'),
    ...flagged('CONFORMANCE_EXPECTED_FAILURES', values['expected-failures'], '--expected-failures'),
    ...flagged('CONFORMANCE_CONCURRENCY', values.concurrency, '--concurrency'),
    ...flagged('CONFORMANCE_MAX_IN_FLIGHT', values['max-in-flight'], '--max-in-flight'),
    ...flagged('CONFORMANCE_SEQUENTIAL', values.sequential ? 'true' : undefined, '--sequential'),
    ...flagged('CONFORMANCE_TRANSCRIPT', transcript, 'record --out'),
    ...flagged('CONFORMANCE_RUN_ID', values['run-id'], '--run-id'),
  };
  const config = loadConfig(process.env, '.env', CATALOG, flags);
  registerSecret(config.adminToken);
  if (values.keep) {
    if (config.targetUrl === undefined) throw new ConfigError('--keep needs --target: the bundled server ends with the run (start one with `gitlab-api-conformance serve` and point --target at it)');
    config.keep = true;
  }
  return config;
}

/** The test files the run loads: a shard's own (by path from the package root: vitest's --shard would split by count), else those of the selected areas. */
function fileFilters(config: Config, shard: ShardSpec | undefined, shardFlag: string | undefined): { filters: string[]; ofShard?: string[] } {
  // Load only the test files of the selected areas; the gate reports the rest of a file's tests.
  const selected = config.areas.length > 0 ? config.areas : CATALOG.areaNames;
  const areas = new Set<string>(selected.filter((a) => config.endpoints.length === 0 || config.endpoints.some((e) => CATALOG.endpointArea.get(e) === a)));
  const ofShard = shard && shardFiles(shard, areas);
  if (ofShard?.length === 0) throw new ConfigError(`--shard ${shardFlag}: the selection has fewer test files than shards`);
  return { filters: ofShard ?? (areas.size === CATALOG.areaNames.length ? [] : [...areas].map((a) => `suites/${a}/`)), ...(ofShard ? { ofShard } : {}) };
}

/**
 * How the run is stopped: the first signal (or the target lost) interrupts it, and the tests under
 * way get a grace to end; a second signal, or the grace's end, escalates: their workers are ended and
 * the run is cleaned up from this process.
 */
class Stopping {
  private escalate = () => {};
  readonly escalated = new Promise<void>((resolve) => (this.escalate = resolve));
  private grace: NodeJS.Timeout | undefined;
  private again = false;
  /** What stopping does to the run, once vitest is made. */
  stopRun = () => {};

  constructor(private readonly control: RunControl) {}

  readonly interrupt = (why: string) => {
    if (this.control.interruption !== undefined) return;
    this.control.interruption = why;
    process.exitCode = EXIT.notMade;
    console.error(`\nconformance: interrupted (${why}); stopping and cleaning up what the run created …`);
    // The tests under way may end within the grace; after it their threads are ended and the run cleaned up from here.
    this.grace = setTimeout(() => {
      console.error(`conformance: the run did not stop within ${STOP_GRACE_MS / 1000} s of the interruption; ending its workers and cleaning up …`);
      this.escalate();
    }, STOP_GRACE_MS).unref();
    this.stopRun();
  };

  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.control.interruption === undefined) return this.interrupt(signal);
    if (this.again) return;
    this.again = true;
    console.error(`\nconformance: ${signal} again; ending the workers now and cleaning up what the run created …`);
    this.escalate();
  };

  /** From now on a signal cancels the run so that its clean-up happens; one while the command loaded counts now (own-signals.ts). */
  listen(): void {
    const early = takeSignals(this.onSignal);
    if (early !== undefined) this.interrupt(early);
  }

  endGrace(): void {
    clearTimeout(this.grace);
  }
}

export async function run(args: string[], home: Home, transcript?: string): Promise<number> {
  const { values } = parseArgs({ args, options: RUN_FLAGS });
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  // Parsed once, here, from the flags and the environment (which the command only reads): the run,
  // the workers and the reporters take this object.
  const config = runSettings(values, transcript);
  const { filters, ofShard } = fileFilters(config, shard, values.shard);
  config.runId = (await import('../runner/run/lifecycle.js')).newRunId();
  const { heldBy } = lockReportDir(config.reportDir, config.runId);
  if (heldBy !== undefined) {
    console.error(refusal(config.reportDir, heldBy));
    return EXIT.notMade;
  }
  rmSync(join(config.reportDir, 'results.json'), { force: true });
  const control: RunControl = { partial: shard !== undefined, completeInterrupted: true, ...(shard && ofShard ? { shard: { ...shard, run: config.runName ?? config.runId, files: ofShard } } : {}) };
  const watch = new TargetWatch(config.targetUrl);
  control.cutShort = () => watch.lostAtTheEnd();
  const reporter = new ConformanceReporter(CATALOG, config, control);

  // Loaded here, not at the top: --help and sweep need none of vitest.
  const { createVitest } = await import('vitest/node');
  const { NameOrder } = await import('../runner/run/name-order.js');
  const lifecycle = await import('../runner/run/lifecycle.js');
  // Threads that serve the setting phases too, instead of four more started for them (kept-threads.ts).
  const pool = (await import('./kept-threads.js')).keptThreads();
  // Set up before vitest, whose set-up takes a while: a signal then already stops the run.
  const stopping = new Stopping(control);
  stopping.listen();
  const vitest = await withoutVitestSignalHandlers(() => createVitest('test', {
    pool,
    ...conformanceVitest(home),
    testNamePattern: values.grep,
    maxWorkers: config.sequential ? 1 : config.concurrency,
    // The settings parsed here reach the workers as they are: the configuration file is imported
    // afresh by vitest, and its own parse would see only the environment.
    provide: { conformanceSettings: config },
    ...(config.sequential ? { sequence: { sequencer: NameOrder } } : {}),
    reporters: [new ProgressReporter(), reporter, watch],
  }));
  // The tests of the files not loaded yet are listed at once, while the run stops and is cleaned up.
  let unloaded: Promise<UnloadedTest[]> | undefined;
  let runStarted = false;
  stopping.stopRun = () => {
    // Before the run started no test is under way: nothing to wait for, nor to end.
    if (!runStarted) stopping.endGrace();
    pool.endWithRunners();
    vitest.cancelCurrentRun('keyboard-input').catch(() => undefined);
    unloaded = unloadedTests(home, config, vitest.state.getTestModules(), { filters, grep: values.grep, unstarted: runStarted ? undefined : vitest }).catch((error: unknown) => {
      console.error(`conformance: the tests of the files the run did not load could not be listed (${(error as Error).message}); the reports lack them`);
      return [];
    });
  };
  watch.onLost = stopping.interrupt;
  /** Why the run could not be made or vitest could not run it (the pre-check refused the target or its token): said in one line. */
  let startError: string | undefined;
  // A signal before the run started (during vitest's own set-up) stops it before any file loads.
  if (control.interruption !== undefined) stopping.stopRun();
  let making: Promise<MadeRun> | undefined;
  const ran = (async () => {
    try {
      if (control.interruption === undefined) {
        making = lifecycle.createRun({ catalog: CATALOG, config });
        handOver(vitest, (await making).run);
      }
      if (control.interruption === undefined) {
        runStarted = true;
        await vitest.start(filters);
      } else await unloaded;
    } catch (error) {
      startError = (error as Error).message.split('\n')[0];
    }
    await vitest.close();
  })();
  // The run ends, or (interrupted) its workers are ended after the grace or at a second signal.
  const stopped = await Promise.race([ran.then(() => true, (error: unknown) => (console.error(`conformance: ${(error as Error).message}`), true)), stopping.escalated.then(() => !runStarted && ran.then(() => true))]);
  stopping.endGrace();
  watch.stop();
  if (!stopped) await Promise.race([pool.close().catch(() => undefined), new Promise((done) => setTimeout(done, 2_000).unref())]);
  else await pool.close().catch((error: unknown) => console.error(`conformance: ${(error as Error).message}`));
  const { run, cleanUp } = await cleanUpAfter(making, config);
  if (control.interruption !== undefined) {
    const modules = reporter.interruptedModules ?? vitest.state.getTestModules();
    await reporter.report(modules, control.interruption, (await unloaded) ?? [], run);
    // However the run stopped, the process ends soon after its reports: a worker or handle vitest left must not keep it.
    setTimeout(() => process.exit(EXIT.notMade), EXIT_AFTER_MS).unref();
  }
  // The clean-up ran after the reports were written: what GitLab keeps pending deletion goes into them now.
  reporter.addCleanUp({ pending: cleanUp?.pending ?? [] });
  return exitCode(reporter.results, { control, startError, values, config });
}

/** The run handed to the conformance projects (their global setup then makes none, and the workers inject it). */
function handOver(vitest: Vitest, run: RunContext): void {
  for (const project of vitest.projects) if (project.name.startsWith('conformance')) project.provide('conformance', run);
}

/**
 * The run's clean-up, once the workers are done (after an interruption too, when they were ended
 * before they were); then, as a safety net, whatever its ledger still lists.
 */
async function cleanUpAfter(making: Promise<MadeRun> | undefined, config: Config): Promise<{ run?: RunContext; cleanUp?: CleanUpSummary }> {
  const made = await making?.catch(() => undefined);
  const cleanUp = (await made?.teardown().catch((error: unknown) => void console.error(`conformance: the clean-up failed: ${(error as Error).message}`))) ?? undefined;
  if (!config.keep) await sweepLeftovers(ledgerPathOf(config.runId!), config).catch((error: unknown) => console.error(`conformance: ${(error as Error).message}`));
  return { run: made?.run, cleanUp };
}

/** The command's exit code from the run's results, with what it says about them. */
function exitCode(results: Results | undefined, { control, startError, values, config }: { control: RunControl; startError?: string; values: RunValues; config: Config }): number {
  if (startError !== undefined && (results !== undefined || control.interruption !== undefined)) console.error(`conformance: ${startError}`);
  if (results === undefined) {
    if (control.interruption !== undefined) {
      console.error(`conformance: INTERRUPTED (${control.interruption}) before any test ran; no report written`);
      return EXIT.notMade;
    }
    console.error(`conformance: the run could not be made: ${startError ?? 'see the error above (configuration, target or admin token)'}`);
    return EXIT.notMade;
  }
  printTable(results);
  printEnding(results, config.reportDir);
  if (results.status === 'interrupted') return EXIT.notMade;
  if (results.status === 'empty') {
    const unsupported = results.summary.unsupported;
    console.error(unsupported > 0
      ? `conformance: nothing was checked: each of the ${unsupported} selected test(s) is unsupported on this target (reasons in the report)`
      : `conformance: no test matched the selection (${selectionText(values, config)}); nothing was checked`);
    return EXIT.empty;
  }
  if (results.baseline) {
    const { unexpectedFailures, stale } = results.baseline;
    if (unexpectedFailures.length) console.error(`unexpected failures (not in ${results.baseline.file}): ${unexpectedFailures.join(', ')}`);
    if (stale.length) console.error(`stale baseline entries (these pass now; remove them): ${stale.join(', ')}`);
    return unexpectedFailures.length + stale.length > 0 ? EXIT.failed : EXIT.passed;
  }
  const summary = chosenSummary(results);
  return summary.fail + summary.error > 0 ? EXIT.failed : EXIT.passed;
}

/** The selection as the user gave it, for the line that says it matched nothing. */
function selectionText(values: { grep?: string; shard?: string }, config: Config): string {
  const parts = [
    config.areas.length > 0 ? `areas ${config.areas.join(', ')}` : '',
    config.endpoints.length > 0 ? `endpoints ${config.endpoints.join('; ')}` : '',
    values.grep !== undefined ? `--grep ${JSON.stringify(values.grep)}` : '',
    values.shard !== undefined ? `--shard ${values.shard}` : '',
    config.disabledTests.length > 0 ? `CONFORMANCE_DISABLE ${config.disabledTests.join(',')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'every test is gated off';
}

/**
 * A safety net after an interrupted run: whatever the ledger of this command's run still lists.
 * Never another ledger of the folder: a run beside this one (a shard, another pipeline) is still
 * using what its ledger lists.
 */
async function sweepLeftovers(ledger: string, config: Config): Promise<void> {
  if (config.targetUrl === undefined || !existsSync(ledger)) return; // the bundled server is gone with the run
  const admin = new Client(config.targetUrl, config.adminToken, 'admin (sweep)', { timeoutMs: config.requestTimeoutMs, maxBytes: config.maxAnswerBytes });
  // Refused: another run's ledger, of another target (said nothing of), or a target that does not answer.
  const { left, refused } = await sweepLedger(admin, ledger, { target: config.targetUrl }).catch((error: unknown) => ({ left: [], refused: (error as Error).message }));
  const later = `run \`gitlab-api-conformance sweep --target ${config.targetUrl} --ledger ${ledger}\``;
  if (refused !== undefined && !refused.startsWith('it was written against')) console.error(`conformance: the clean-up could not be made: ${refused}; ${later} when it answers`);
  if (left.length) console.error(`conformance: could not undo ${left.join(', ')}; ${later}`);
}

/**
 * `record --out FILE [--concurrent] [run options]`: the run, one test at a time unless --concurrent,
 * which also writes the transcript to FILE.
 */
export async function record(args: string[], home: Home): Promise<number> {
  const at = args.indexOf('--out');
  const out = at >= 0 ? args[at + 1] : undefined;
  if (out === undefined || out.startsWith('--')) throw new ConfigError('record needs --out FILE (where the transcript goes)');
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  const concurrent = rest.includes('--concurrent');
  if (concurrent) console.error('record --concurrent: tests run at once, so two recordings of one target will differ in which users were lent where (diff counts such differences as noise only with --noise)');
  const runArgs = rest.filter((a) => a !== '--concurrent');
  return run(concurrent || runArgs.includes('--sequential') ? runArgs : [...runArgs, '--sequential'], home, resolve(out));
}

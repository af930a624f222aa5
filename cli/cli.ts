// The command line: `gitlab-api-conformance [run] [options]`, `gitlab-api-conformance sweep` and
// `gitlab-api-conformance diff` (differential/command.ts: two transcripts compared, offline).
// Flags become the CONFORMANCE_* settings (so a flag, the environment and .env mean the same thing)
// and vitest is driven through its node API. Exit codes: 0 every applicable test passed, 1 some
// failed (or the baseline broke), 2 the run could not be made.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CATALOG } from '../suites/areas.js';
import { Client } from '../runner/core/client.js';
import { ConfigError } from '../runner/core/errors.js';
import { escapeControls, filterOutput, safeText } from '../runner/core/output.js';
import { registerSecret } from '../runner/core/redact.js';
import { conformanceProjects, loadConfig, useSettings, type Config, type Flags } from '../runner/run/config.js';
import { normalizeTarget } from '../runner/run/instance-identity.js';
import { parseShard } from '../runner/run/shard.js';
import { Ledger } from '../runner/run/ledger.js';
import { describePending, sweepLedger, sweepPrefix, type Pending, type SweepResult } from '../runner/run/removal.js';
import { ProgressReporter } from '../runner/report/progress-reporter.js';
import { ConformanceReporter, type RunControl, type UnloadedTest } from '../runner/report/reporter.js';
import { chosenSummary, SUITE_VERSION } from '../runner/report/results.js';
import { printEnding, printTable } from '../runner/report/terminal.js';
import { lockReportDir, refusal } from './report-lock.js';
import type { RunContext } from '../runner/run/context.js';
import { takeSignals, withoutVitestSignalHandlers } from './own-signals.js';
import { unloadedTests } from './selection.js';
import { TargetWatch } from './watchdog.js';
import { shardFiles } from './shards.js';
import { vitestConfigFile } from './vitest-config-file.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * After a signal: how long the tests under way may take to end before their worker threads are
 * ended and the run is cleaned up from this process (a second signal does it at once).
 */
const STOP_GRACE_MS = 5_000;
/** After an interrupted run's reports: how long the process may take to end by itself before it exits. */
const EXIT_AFTER_MS = 3_000;

/** The exit codes, as pytest has them: 5 when the selection matched no test. */
export const EXIT = { passed: 0, failed: 1, notMade: 2, empty: 5 } as const;

const RUN_OPTIONS = `  --target URL               base URL of the target, without /api/v4 (CONFORMANCE_TARGET_URL);
                             without it, the bundled reference server is started and used
  --token-file PATH          file holding an administrator's token, scope api
                             (CONFORMANCE_ADMIN_TOKEN_FILE; CONFORMANCE_ADMIN_TOKEN in the environment
                             works too). Never put a token on the command line.
  --area LIST                areas to run: ${CATALOG.areaNames.join(', ')} (comma list)
  --endpoint FORM            an endpoint form to run, e.g. "GET /groups/:id/members" (repeatable)
  --grep PATTERN             only tests whose id or title matches
  --level LEVEL              the verdict level the exit code follows: spec (default) or parity
                             (also GitLab's exact texts and check order); reports show both
  --capabilities LIST        what the target offers beyond Free (CONFORMANCE_CAPABILITIES)
  --fixtures PATH            fixture manifest (CONFORMANCE_FIXTURES)
  --report-dir DIR           where the reports go (default reports); one run at a time per
                             directory: a second run there exits 2 at once, naming the first
  --concurrency N            test files run at once (CONFORMANCE_CONCURRENCY; default 8 against a
                             target URL, 2 with the bundled server); the tests of a file run at once too
  --max-in-flight N          requests in flight against the target at once, over the whole run
                             (CONFORMANCE_MAX_IN_FLIGHT; default 16; 0: no bound): the knob of the load
  --sequential               one test at a time, files in name order, one request in flight
  --timeout MS               time to an answer's headers (default 15000); its whole body gets twice that
  --max-answer-mb N          MB read of one answer at most (CONFORMANCE_MAX_ANSWER_MB; default 16):
                             a bigger answer is the test's error, not read further
  --expected-failures FILE   baseline: YAML or JSON list of { id, reason, link }
  --shard I/N                run the I-th of N shards (split across CI jobs), the test files split
                             by their measured durations (suites/durations.json); \`merge\` joins them
  --run-id ID                the run's name, the same in each of its shards (CONFORMANCE_RUN_ID;
                             in CI the pipeline's id): \`merge\` joins only shards of one run
  --keep                     leave what the run made on the target (with --target), to send a
                             failure's cURL line again by hand: the users' tokens go to
                             .conformance/kept-<run>.tokens.json (mode 600); \`sweep\` removes it all`;

const EXIT_CODES = `Exit codes: 0 every applicable test passed; 1 some failed or the baseline broke; 2 the run could not
be made or was interrupted (a signal, the target lost); 5 nothing was checked (the selection matched no
test, or every selected one is unsupported).`;

const HELP = `Usage:
  gitlab-api-conformance [run] [options]     run the suite (default: against the bundled reference server)
  gitlab-api-conformance list [options]      the tests a selection holds, without running any
  gitlab-api-conformance record --out FILE [options]
                                             run the suite one test at a time and write its transcript
  gitlab-api-conformance diff BASELINE CANDIDATE [--noise FILE]
                                             compare two transcripts, offline
  gitlab-api-conformance sweep --target URL [options]
                                             undo what an earlier, killed run left on the target
  gitlab-api-conformance merge DIR... [--out DIR]
                                             join the report directories of a run's shards into one
  gitlab-api-conformance serve [options]     the reference server alone (as gitlab-reference-server)
  gitlab-api-conformance --version           the suite's version

Each command has its own help: gitlab-api-conformance <command> --help.

Run options:
${RUN_OPTIONS}

Reports: report.html, summary.md, junit.xml, results.json, clauses.json in the report directory.
${EXIT_CODES}

Example:
  gitlab-api-conformance --target https://gitlab.example.com --token-file admin.token --capabilities premium`;

const RECORD_HELP = `Usage: gitlab-api-conformance record --out FILE [--concurrent] [run options]

Runs the suite and writes its transcript to FILE (JSON Lines, docs/transcript-format.md): every
exchange of every test, tokens masked, for \`diff\`. A recording runs one test at a time, files in
name order and one request in flight, so that two recordings of one target meet the same objects in
the same order. --concurrent runs it as an ordinary run instead: faster, but two recordings then
differ in which users were lent where, and \`diff\` says so.

Run options:
${RUN_OPTIONS}

${EXIT_CODES}

Example:
  gitlab-api-conformance record --target https://gitlab.example.com --token-file admin.token --out gitlab-17.11.jsonl`;

const SWEEP_HELP = `Usage: gitlab-api-conformance sweep --target URL [--token-file PATH] [--ledger FILE] [--dry-run]
       gitlab-api-conformance sweep --target URL [--token-file PATH] --prefix cnf-<run id>
       gitlab-api-conformance sweep --forget <run id>

Undoes what a killed run left on the target: deletes the users, groups and projects its ledger
lists, revokes the tokens it made for a user that stays, and puts back an instance setting it changed. Only what that run made on that target: a
ledger names its target and instance in its first line, and a ledger of another target or instance
is left alone; each object is read before its DELETE, and one whose id now names another (its
username or full path is not the one recorded, with the run prefix) is left and reported.

  --target URL, --token-file PATH   the target and an administrator's token, as for a run
  --ledger FILE              undo what this ledger lists (default: every ledger in .conformance/
                             written against --target); a ledger of another target exits 2
  --dry-run                  with ledgers: read only, print what would be undone
  --prefix PREFIX            for a run whose ledger is lost: delete the users, groups and projects
                             whose names start with this run prefix ("cnf-<run id>"), each read
                             before its DELETE as a ledger's are
  --forget RUN_ID            drop the ledger of that run for good (.conformance/ledger-<run id>.jsonl),
                             as for a server that is gone; nothing on any target is touched

A group or project GitLab keeps pending deletion (marked: GitLab 17 Premium and Ultimate, 18 every
tier) counts as removed: GitLab removes it when the instance's deletion delay has passed. A ledger
of another instance at this URL, or of a target that does not answer, is listed and left alone.

Exit codes: 0 everything undone (or pending deletion); 1 something could not be undone; 2 a bad
call, a named ledger of another target or instance, or a search answer --prefix cannot use.

Example:
  gitlab-api-conformance sweep --target https://gitlab.example.com --token-file admin.token --dry-run`;

/** A setting given by a flag, when it was. */
function flag(name: string, value: string | undefined, flagName: string): Flags {
  return value === undefined ? {} : { [name]: { value, flag: flagName } };
}

async function run(args: string[], transcript?: string): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
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
    },
  });
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const flags: Flags = {
    ...flag('CONFORMANCE_TARGET_URL', values.target, '--target'),
    ...flag('CONFORMANCE_ADMIN_TOKEN_FILE', values['token-file'], '--token-file'),
    ...flag('CONFORMANCE_AREAS', values.area, '--area'),
    ...flag('CONFORMANCE_LEVEL', values.level, '--level'),
    ...flag('CONFORMANCE_ENDPOINTS', values.endpoint?.join(';'), '--endpoint'),
    ...flag('CONFORMANCE_CAPABILITIES', values.capabilities, '--capabilities'),
    ...flag('CONFORMANCE_FIXTURES', values.fixtures, '--fixtures'),
    ...flag('CONFORMANCE_REPORT_DIR', values['report-dir'], '--report-dir'),
    ...flag('CONFORMANCE_REQUEST_TIMEOUT_MS', values.timeout, '--timeout'),
    ...flag('CONFORMANCE_MAX_ANSWER_MB', values['max-answer-mb'], '--max-answer-mb'),
    ...flag('CONFORMANCE_EXPECTED_FAILURES', values['expected-failures'], '--expected-failures'),
    ...flag('CONFORMANCE_CONCURRENCY', values.concurrency, '--concurrency'),
    ...flag('CONFORMANCE_MAX_IN_FLIGHT', values['max-in-flight'], '--max-in-flight'),
    ...flag('CONFORMANCE_SEQUENTIAL', values.sequential ? 'true' : undefined, '--sequential'),
    ...flag('CONFORMANCE_TRANSCRIPT', transcript, 'record --out'),
    ...flag('CONFORMANCE_RUN_ID', values['run-id'], '--run-id'),
  };

  // Parsed once, here, from the flags and the environment (which the command only reads): the global
  // setup, the workers and the reporters take this object.
  const config = loadConfig(process.env, '.env', CATALOG, flags);
  registerSecret(config.adminToken);
  if (values.keep) {
    if (config.targetUrl === undefined) throw new ConfigError('--keep needs --target: the bundled server ends with the run (start one with `gitlab-api-conformance serve` and point --target at it)');
    config.keep = true;
  }
  useSettings(config);
  // Load only the test files of the selected areas; the gate reports the rest of a file's tests.
  const selected = config.areas.length > 0 ? config.areas : CATALOG.areaNames;
  const areas = new Set<string>(selected.filter((a) => config.endpoints.length === 0 || config.endpoints.some((e) => CATALOG.endpointArea.get(e) === a)));
  // A shard loads its own files, by path from the package root (vitest's --shard would split by count).
  const ofShard = shard && shardFiles(shard, areas);
  if (ofShard?.length === 0) throw new ConfigError(`--shard ${values.shard}: the selection has fewer test files than shards`);
  const filters = ofShard ?? (areas.size === CATALOG.areaNames.length ? [] : [...areas].map((a) => `suites/${a}/`));
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
  const { made } = lifecycle.offerRunMaker(CATALOG);
  // Threads that serve the setting phases too, instead of four more started for them (kept-threads.ts).
  const pool = (await import('./kept-threads.js')).keptThreads();
  // Set up before vitest, whose set-up takes a while: a signal then already stops the run.
  let escalate = () => {};
  const escalated = new Promise<void>((resolve) => (escalate = resolve));
  let stopRun = () => {};
  let grace: NodeJS.Timeout | undefined;
  const interrupt = (why: string) => {
    if (control.interruption !== undefined) return;
    control.interruption = why;
    process.exitCode = EXIT.notMade;
    console.error(`\nconformance: interrupted (${why}); stopping and cleaning up what the run created …`);
    // The tests under way may end within the grace; after it their threads are ended and the run cleaned up from here.
    grace = setTimeout(() => {
      console.error(`conformance: the run did not stop within ${STOP_GRACE_MS / 1000} s of the interruption; ending its workers and cleaning up …`);
      escalate();
    }, STOP_GRACE_MS).unref();
    stopRun();
  };
  let again = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (control.interruption === undefined) return interrupt(signal);
    if (again) return;
    again = true;
    console.error(`\nconformance: ${signal} again; ending the workers now and cleaning up what the run created …`);
    escalate();
  };
  // From now on a signal cancels the run so that its clean-up happens; one while the command loaded counts now (own-signals.ts).
  const early = takeSignals(onSignal);
  if (early !== undefined) interrupt(early);
  const vitest = await withoutVitestSignalHandlers(() => createVitest('test', {
    pool,
    root: ROOT,
    config: vitestConfigFile(ROOT),
    // This process runs its compiled copy, or its sources under tsx: the config and the modules it
    // imports load as they are (the copy's config with the copy), not bundled again by vite.
    configLoader: 'native',
    mode: 'cli',
    project: conformanceProjects(CATALOG),
    watch: false,
    testNamePattern: values.grep,
    maxWorkers: config.sequential ? 1 : config.concurrency,
    // The settings parsed here reach the global setup and the workers as they are: the configuration
    // file is imported afresh by vitest, and its own parse would see only the environment.
    provide: { conformanceSettings: config },
    ...(config.sequential ? { sequence: { sequencer: NameOrder } } : {}),
    reporters: [new ProgressReporter(), reporter, watch],
  }));
  // The tests of the files not loaded yet are listed at once, while the run stops and is cleaned up.
  let unloaded: Promise<UnloadedTest[]> | undefined;
  let runStarted = false;
  stopRun = () => {
    // Before the run started no test is under way: nothing to wait for, nor to end.
    if (!runStarted) clearTimeout(grace);
    pool.endWithRunners();
    vitest.cancelCurrentRun('keyboard-input').catch(() => undefined);
    unloaded = unloadedTests(ROOT, config, vitest.state.getTestModules(), { filters, grep: values.grep, unstarted: runStarted ? undefined : vitest }).catch((error: unknown) => {
      console.error(`conformance: the tests of the files the run did not load could not be listed (${(error as Error).message}); the reports lack them`);
      return [];
    });
  };
  watch.onLost = interrupt;
  /** Why vitest could not run the suite (the pre-check refused the target or its token): said in one line. */
  let startError: string | undefined;
  // A signal before the run started (during vitest's own set-up) stops it before any file loads.
  if (control.interruption !== undefined) stopRun();
  const ran = (async () => {
    try {
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
  const stopped = await Promise.race([ran.then(() => true, (error: unknown) => (console.error(`conformance: ${(error as Error).message}`), true)), escalated.then(() => !runStarted && ran.then(() => true))]);
  clearTimeout(grace);
  watch.stop();
  if (!stopped) await Promise.race([pool.close().catch(() => undefined), new Promise((done) => setTimeout(done, 2_000).unref())]);
  else await pool.close().catch((error: unknown) => console.error(`conformance: ${(error as Error).message}`));
  let run: RunContext | undefined;
  const pending: string[] = [];
  for (const making of made) {
    // What the run made is undone here when vitest's teardown did not (workers ended, a signal during set-up);
    // the teardown is one: when vitest's is under way, this waits for it.
    const it = await making.catch(() => undefined);
    run ??= it?.run;
    const cleanUp = await it?.teardown().catch((error: unknown) => void console.error(`conformance: the clean-up failed: ${(error as Error).message}`));
    pending.push(...(cleanUp?.pending ?? []));
  }
  if (!config.keep) await sweepLeftovers(lifecycle.ledgersOfThisProcess(), config).catch((error: unknown) => console.error(`conformance: ${(error as Error).message}`));
  // The handlers stay until the process ends: a later signal, as the reports are written, must not kill it.
  if (control.interruption !== undefined) {
    const modules = reporter.interruptedModules ?? vitest.state.getTestModules();
    await reporter.report(modules, control.interruption, (await unloaded) ?? [], run);
    // However the run stopped, the process ends soon after its reports: a worker or handle vitest left must not keep it.
    setTimeout(() => process.exit(EXIT.notMade), EXIT_AFTER_MS).unref();
  }
  // The clean-up ran after the reports were written: what GitLab keeps pending deletion goes into them now.
  reporter.addCleanUp({ pending });
  const results = reporter.results;
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
 * A safety net after an interrupted run: whatever the ledgers of this process's run still list.
 * Never another ledger of the folder: a run beside this one (a shard, another pipeline) is still
 * using what its ledger lists.
 */
async function sweepLeftovers(ledgers: string[], config: Config): Promise<void> {
  if (config.targetUrl === undefined) return; // the bundled server is gone with the run
  const admin = new Client(config.targetUrl, config.adminToken, 'admin (sweep)', { timeoutMs: config.requestTimeoutMs, maxBytes: config.maxAnswerBytes });
  for (const path of ledgers.filter((l) => existsSync(l))) {
    // Refused: another run's ledger, of another target (said nothing of), or a target that does not answer.
    const { left, refused } = await sweepLedger(admin, path, { target: config.targetUrl }).catch((error: unknown) => ({ left: [], refused: (error as Error).message }));
    const later = `run \`gitlab-api-conformance sweep --target ${config.targetUrl} --ledger ${path}\``;
    if (refused !== undefined && !refused.startsWith('it was written against')) console.error(`conformance: the clean-up could not be made: ${refused}; ${later} when it answers`);
    if (left.length) console.error(`conformance: could not undo ${left.join(', ')}; ${later}`);
  }
}

/**
 * `record --out FILE [--concurrent] [run options]`: the run, one test at a time unless --concurrent,
 * which also writes the transcript to FILE.
 */
async function record(args: string[]): Promise<number> {
  const at = args.indexOf('--out');
  const out = at >= 0 ? args[at + 1] : undefined;
  if (out === undefined || out.startsWith('--')) throw new ConfigError('record needs --out FILE (where the transcript goes)');
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  const concurrent = rest.includes('--concurrent');
  if (concurrent) console.error('record --concurrent: tests run at once, so two recordings of one target will differ in which users were lent where (diff counts such differences as noise only with --noise)');
  const runArgs = rest.filter((a) => a !== '--concurrent');
  return run(concurrent || runArgs.includes('--sequential') ? runArgs : [...runArgs, '--sequential'], resolve(out));
}

async function sweep(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { target: { type: 'string' }, 'token-file': { type: 'string' }, ledger: { type: 'string' }, prefix: { type: 'string' }, 'dry-run': { type: 'boolean' }, forget: { type: 'string' } },
  });
  if (values.forget !== undefined) return forgetLedger(values.forget);
  const config = loadConfig(process.env, '.env', undefined, { ...flag('CONFORMANCE_TARGET_URL', values.target, '--target'), ...flag('CONFORMANCE_ADMIN_TOKEN_FILE', values['token-file'], '--token-file') });
  if (config.targetUrl === undefined) throw new ConfigError('sweep needs a target: --target URL (or CONFORMANCE_TARGET_URL) and an admin token');
  registerSecret(config.adminToken);
  const admin = new Client(config.targetUrl, config.adminToken, 'admin (sweep)', { timeoutMs: config.requestTimeoutMs, maxBytes: config.maxAnswerBytes });
  const dryRun = values['dry-run'] === true;
  if (values.prefix !== undefined) {
    if (!/^cnf[-_][0-9a-f]{6,}/.test(values.prefix)) throw new ConfigError(`--prefix must be a run prefix such as cnf-2611221016ab12, got "${values.prefix}"`);
    if (dryRun) throw new ConfigError('--dry-run goes with ledgers only, not with --prefix');
    const result = await sweepPrefix(admin, values.prefix);
    if (result.unusable !== undefined) {
      console.error(`sweep: ${result.unusable}; nothing removed`);
      return 2;
    }
    console.log(`sweep: removed ${result.removed} object(s)${result.left.length ? `; could not undo ${result.left.join(', ')}` : ''}`);
    return result.left.length > 0 ? 1 : 0;
  }
  const named = values.ledger !== undefined;
  if (named && !existsSync(values.ledger!)) throw new ConfigError(`--ledger ${values.ledger}: no such file`);
  const ledgers = named ? [values.ledger!] : existsSync('.conformance') ? readdirSync('.conformance').filter((f) => f.startsWith('ledger-')).map((f) => join('.conformance', f)) : [];
  let removed = 0;
  let restored = 0;
  let otherTargets = 0;
  let refused = false;
  const left: string[] = [];
  const pending: Pending[] = [];
  for (const ledger of ledgers) {
    const result = await sweepLedger(admin, ledger, { target: config.targetUrl, dryRun }).catch((error: unknown) => ({ ...emptySweep(), refused: (error as Error).message }));
    if (result.refused !== undefined) {
      // Unnamed, a ledger of another target is another run's business: counted, not refused.
      const header = Ledger.header(ledger);
      if (!named && header !== undefined && header.target !== normalizeTarget(config.targetUrl)) otherTargets++;
      else if (!named) {
        // Another instance at this URL (a server since gone), or one that does not answer: listed, and
        // left for `sweep --forget` or a later sweep; the rest of this target's sweep stands.
        console.error(`sweep: ledger ${ledger} left alone: ${result.refused}; \`gitlab-api-conformance sweep --forget ${header?.runId ?? '<run id>'}\` drops it`);
      } else {
        refused = true;
        console.error(`sweep: ledger ${ledger} left alone, nothing removed: ${result.refused}`);
      }
      continue;
    }
    for (const line of result.wouldUndo) console.log(`sweep --dry-run: would ${line}`);
    removed += result.removed;
    restored += result.restored;
    left.push(...result.left);
    pending.push(...result.pending);
  }
  const skipped = otherTargets ? `; ${otherTargets} ledger(s) of other targets not considered` : '';
  const done = dryRun ? 'dry run, nothing removed' : `removed ${removed} object(s)${restored ? `, put back ${restored} instance setting(s)` : ''}`;
  const marked = pending.length ? `; of them ${describePending(pending).join(', ')}` : '';
  console.log(`sweep: ${done}${marked}${left.length ? `; ${dryRun ? 'would leave' : 'could not undo'} ${left.join(', ')}` : ''}${skipped}`);
  if (refused && named) return 2;
  return left.length > 0 || refused ? 1 : 0;
}

function emptySweep(): SweepResult {
  return { removed: 0, pending: [], restored: 0, left: [], wouldUndo: [] };
}

/** `sweep --forget <run id>`: drops that run's ledger (and a --keep run's tokens file) for good, touching no target. */
function forgetLedger(runId: string): number {
  if (!/^[0-9a-f]{6,}$/.test(runId)) throw new ConfigError(`--forget takes a run id such as 2611221016ab12 (the ledger is .conformance/ledger-<run id>.jsonl), got "${runId}"`);
  const ledger = join('.conformance', `ledger-${runId}.jsonl`);
  if (!existsSync(ledger)) throw new ConfigError(`--forget ${runId}: no ledger ${ledger}`);
  rmSync(ledger);
  rmSync(join('.conformance', `kept-${runId}.tokens.json`), { force: true });
  console.log(`sweep: forgot ledger ${ledger}; what it still listed stays on its target`);
  return 0;
}

/** The help of a command (`run` for the general help), as `<command> --help` prints it. */
export async function helpOf(command: string): Promise<string> {
  if (command === 'list') return (await import('./list.js')).LIST_HELP;
  if (command === 'diff') return (await import('../runner/differential/command.js')).DIFF_HELP;
  if (command === 'serve') return (await import('../reference-server/cli.js')).USAGE;
  if (command === 'merge') return (await import('./merge.js')).MERGE_HELP;
  return ({ record: RECORD_HELP, sweep: SWEEP_HELP } as Record<string, string>)[command] ?? HELP;
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  // Everything any command prints passes one filter: secrets masked, a target's control characters
  // escaped (runner/core/output.ts). `serve` prints the token it was started with on purpose, and
  // registers none: its output is escaped only.
  filterOutput(first === 'serve' ? escapeControls : safeText);
  // diff has its own options and help, and reads files only; loaded here, as runs need none of it.
  if (first === 'diff') return (await import('../runner/differential/command.js')).runDiff(rest);
  // serve: the reference server alone, with its own options and help (reference-server/cli.ts).
  if (first === 'serve') return (await import('../reference-server/cli.js')).serve(rest);
  try {
    if (first === '--version' || first === '-v') {
      console.log(`gitlab-api-conformance ${SUITE_VERSION}`);
      return 0;
    }
    if (first === '-h' || first === '--help' || rest.includes('--help') || rest.includes('-h')) {
      console.log(await helpOf(first ?? 'run'));
      return 0;
    }
    if (first === 'sweep') return await sweep(rest);
    if (first === 'merge') return await (await import('./merge.js')).merge(rest);
    if (first === 'record') return await record(rest);
    if (first === 'list') return await (await import('./list.js')).list(rest, ROOT);
    return await run(first === 'run' ? rest : argv);
  } catch (error) {
    if (error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`gitlab-api-conformance: ${(error as Error).message}\nRun with --help for the options.`);
      return 2;
    }
    throw error;
  }
}

// The command line: `gitlab-api-conformance [run] [options]`, `gitlab-api-conformance sweep` and
// `gitlab-api-conformance diff` (differential/command.ts: two transcripts compared, offline).
// Flags become the CONFORMANCE_* settings (so a flag, the environment and .env mean the same thing)
// and vitest is driven through its node API. Exit codes: 0 every applicable test passed, 1 some
// failed (or the baseline broke), 2 the run could not be made.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../suites/areas.js';
import { ConfigError } from '../runner/core/errors.js';
import { escapeControls, filterOutput, safeText } from '../runner/core/output.js';
import { SUITE_VERSION } from '../runner/report/results.js';
import { homeAt } from './home.js';
import { adoptSignalRoute, type SignalRoute } from './own-signals.js';
import { record, run } from './run-command.js';
import { sweep, SWEEP_HELP } from './sweep-command.js';

export { EXIT } from './run-command.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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

/** The help of a command (`run` for the general help), as `<command> --help` prints it. */
export async function helpOf(command: string): Promise<string> {
  if (command === 'list') return (await import('./list.js')).LIST_HELP;
  if (command === 'diff') return (await import('../runner/differential/command.js')).DIFF_HELP;
  if (command === 'serve') return (await import('../reference-server/cli.js')).USAGE;
  if (command === 'merge') return (await import('./merge.js')).MERGE_HELP;
  return ({ record: RECORD_HELP, sweep: SWEEP_HELP } as Record<string, string>)[command] ?? HELP;
}

/**
 * `compiledVitestConfig`: the vitest configuration of the command's compiled copy, when it runs from
 * that copy (bin/); `signals`: the route the bin gave the process's signals from its first line.
 */
export async function main(argv: string[], compiledVitestConfig?: string, signals?: SignalRoute): Promise<number> {
  const [first, ...rest] = argv;
  if (signals) adoptSignalRoute(signals);
  const home = homeAt(ROOT, compiledVitestConfig);
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
    if (first === 'record') return await record(rest, home);
    if (first === 'list') return await (await import('./list.js')).list(rest, home);
    return await run(first === 'run' ? rest : argv, home);
  } catch (error) {
    if (error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`gitlab-api-conformance: ${(error as Error).message}\nRun with --help for the options.`);
      return 2;
    }
    throw error;
  }
}

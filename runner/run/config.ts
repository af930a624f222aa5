// One configuration for the whole run, from the environment and `.env` (dotenv), with defaults that
// fit a stock self-managed GitLab. Every setting is listed in SETTINGS, which the README mirrors.
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import type { Catalog } from '../core/area.js';
import { DEFAULT_MAX_ANSWER_BYTES } from '../core/client.js';
import { ConfigError } from '../core/errors.js';
import { phaseProject } from '../core/instance-setting.js';
import { LEVELS, type VerdictLevel } from '../core/exchange.js';

export { ConfigError } from '../core/errors.js';

export const CAPABILITIES = ['premium', 'ultimate', 'ldap', 'saml', 'promotion_management', 'enterprise_users', 'member_removal_rate_limit'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Test files at once. Against a URL the suite waits on HTTP and costs no CPU, so the default follows
 * the target, not the cores: 8 hides a GitLab's latency without loading it much. The bundled server
 * shares the machine's cores with the workers, where more files only add contention: each worker
 * loads the suite and compiles the schemas again, and on 2 cores 2 files at once ran the whole suite
 * in 10.0 s against 11.4 s with 4 (alternated runs, 2026-11-23).
 */
export const URL_TARGET_CONCURRENCY = 8;
export const BUNDLED_CONCURRENCY = 2;
/**
 * Users in the run's pool (RunContext.pool), lent to tests and fixtures (lending.ts): as many as the
 * largest fixture holds (members/list-all: 17). A test that finds none free where it works gets one
 * taken back from an earlier test there, and a new user only when none can be.
 */
export const USER_POOL_SIZE = 17;
/**
 * Seatless users in the run's pool (Frame.leaseSeatless): as many as the promotion-approval tests ask
 * for in one source (members: 8); they are taken out of it after each test and serve the next source.
 */
export const SEATLESS_POOL_SIZE = 8;

/**
 * Requests in flight against the target at once, over all test files: what a small GitLab (one Puma
 * worker with a few threads) serves without queueing much, and enough to hide its latency.
 */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** Tests of one file run at once (vitest's maxConcurrency); the bound on requests in flight keeps the load in check. */
export const TESTS_PER_FILE = 8;

/**
 * Seconds a run waits for a setting's lease held by another run (runner/run/target-lease.ts): that
 * run's setting phases and clean-up, a few minutes on a GitLab.
 */
export const DEFAULT_LEASE_WAIT_S = 300;

/** The wrapper's deadline for one test's body: an answer that never comes is the suite's `error`, not a failure. */
export const BODY_DEADLINE_MS = 60_000;
/** vitest's timeout of one conformance test: its body, and waiting for its fixtures and its turn. */
export const TEST_TIMEOUT_MS = 600_000;

export interface Config {
  /** Base URL of the target without /api/v4; undefined: start the bundled reference server. */
  targetUrl?: string;
  adminToken?: string;
  capabilities: Capability[];
  fixturesPath?: string;
  headerPrefix: string;
  /** Areas to run; empty: all. */
  areas: string[];
  /** The verdict level the exit code follows. */
  level: VerdictLevel;
  /** Endpoint forms to run (lines of the spec's endpoints.txt); empty: all. */
  endpoints: string[];
  /** Test ids the person turned off (verdict `disabled`). */
  disabledTests: string[];
  reportDir: string;
  requestTimeoutMs: number;
  /** Bytes read of one answer at most (CONFORMANCE_MAX_ANSWER_MB): a bigger answer is the test's error. */
  maxAnswerBytes: number;
  /** Test files run at once. */
  concurrency: number;
  /** Requests in flight against the target at once (0: no bound). */
  maxInFlight: number;
  /** One test at a time, files in name order: a run another run can be compared with exchange by exchange. */
  sequential: boolean;
  /** The suite's own race check: mark the GETs tests send about shared sources (runner/run/shared-lists.ts). */
  markSharedLists: boolean;
  /** Where `record` writes the run's transcript (JSON Lines); undefined: the run records nothing. */
  transcriptPath?: string;
  /** Baseline of expected failures (YAML or JSON). */
  expectedFailuresPath?: string;
  /** How long the run waits for an instance setting's lease another run holds (target-lease.ts). */
  leaseWaitMs: number;
  /**
   * Leave what the run made on the target (the command's --keep, for a repro by hand): the ledger
   * stays for `sweep`, and the users' tokens go to a file beside it, never to the output.
   */
  keep?: boolean;
  /** The run's name shared by its shards (--run-id), so that `merge` joins only shards of one run. */
  runName?: string;
  /** The run's id when the command chose it (its report directory's lock names it); else the run makes one. */
  runId?: string;
}

export interface Setting {
  env: string;
  default: string;
  meaning: string;
}

/** Every setting, in the order the README lists them. */
export const SETTINGS: Setting[] = [
  { env: 'CONFORMANCE_TARGET_URL', default: '(unset: the bundled reference server on a free loopback port)', meaning: 'Base URL of the target, without /api/v4.' },
  { env: 'CONFORMANCE_ADMIN_TOKEN', default: '(unset; required with a target URL)', meaning: 'Personal access token of an administrator, scope api.' },
  { env: 'CONFORMANCE_ADMIN_TOKEN_FILE', default: '(unset)', meaning: 'A file holding the admin token, read when CONFORMANCE_ADMIN_TOKEN is unset.' },
  { env: 'CONFORMANCE_CAPABILITIES', default: 'empty for a URL target; all with the reference server', meaning: `Comma list of: ${CAPABILITIES.join(', ')}.` },
  { env: 'CONFORMANCE_FIXTURES', default: '(unset; the reference server supplies its own)', meaning: 'Path to the JSON manifest of fixtures the API cannot create.' },
  { env: 'CONFORMANCE_HEADER_PREFIX', default: 'X-Gitlab-', meaning: 'Prefix of the file metadata headers (the spec\'s X-Service-).' },
  { env: 'CONFORMANCE_AREAS', default: '(empty: all; see suites/areas.ts)', meaning: 'Comma list of areas to run; tests of the others are reported as disabled.' },
  { env: 'CONFORMANCE_LEVEL', default: 'spec', meaning: 'The verdict level the exit code follows: spec (what any compatible implementation must do) or parity (also GitLab\'s exact texts, check order and GitLab-only behaviour). Reports show both.' },
  { env: 'CONFORMANCE_ENDPOINTS', default: '(empty: all)', meaning: 'Semicolon list of endpoint forms to run, e.g. "GET /groups/:id/members"; tests of the others are reported as disabled.' },
  { env: 'CONFORMANCE_DISABLE', default: '(empty)', meaning: 'Comma list of test ids (a trailing * matches a prefix) reported as disabled.' },
  { env: 'CONFORMANCE_REPORT_DIR', default: 'reports', meaning: 'Where results.json and junit.xml are written.' },
  { env: 'CONFORMANCE_EXPECTED_FAILURES', default: '(unset)', meaning: 'Baseline file (YAML or JSON list of { id, reason, link }): a failure not on it, or a listed test that passes, fails the run.' },
  { env: 'CONFORMANCE_REQUEST_TIMEOUT_MS', default: '15000', meaning: 'Time to the headers of an answer of the target; its whole body gets twice that. An answer late either way is the test\'s `error`, naming the limit it missed.' },
  { env: 'CONFORMANCE_MAX_ANSWER_MB', default: String(DEFAULT_MAX_ANSWER_BYTES / (1024 * 1024)), meaning: 'What one answer of the target may cost the run, in MB read: reading stops beyond it, and the request is the test\'s `error` ("answer over 16 MB: not read further"). A GitLab sends far less on the endpoints the suite calls.' },
  { env: 'CONFORMANCE_CONCURRENCY', default: `${URL_TARGET_CONCURRENCY} with a target URL; ${BUNDLED_CONCURRENCY} with the bundled server`, meaning: `Test files run at once (the tests of a file run ${TESTS_PER_FILE} at a time). A URL target is waited on, not computed for, so more files hide its latency whatever the cores.` },
  { env: 'CONFORMANCE_MAX_IN_FLIGHT', default: String(DEFAULT_MAX_IN_FLIGHT), meaning: 'Requests in flight against the target at once, over the whole run (0: no bound). The one knob of the load on the target: lower it for a small GitLab.' },
  { env: 'CONFORMANCE_SEQUENTIAL', default: 'false', meaning: 'true: one test at a time, the files in name order, one request in flight (CONFORMANCE_MAX_IN_FLIGHT is then 1), so that two runs of one target meet the same objects in the same order (recordings to compare with `diff` then differ the least). Slower.' },
  { env: 'CONFORMANCE_MARK_SHARED_LISTS', default: 'false', meaning: 'true: the suite\'s own race check. A test that does not run alone sends its reads of sources other tests of its file share with the header X-Conformance-Shared-List; the bundled reference server started with `neighbours` changes such a list before it answers, as a test beside it could, so a test that compares it fails. A target ignores the header.' },
  { env: 'CONFORMANCE_RUN_ID', default: '(unset: the run\'s own id)', meaning: 'The run\'s name in the reports, the same in each of its shards (--shard) so that `merge` joins them: in CI, the pipeline\'s id (e.g. $CI_PIPELINE_ID).' },
  { env: 'CONFORMANCE_LEASE_WAIT_S', default: String(DEFAULT_LEASE_WAIT_S), meaning: 'Seconds the run waits for the lease of an instance setting (enable_member_promotion_management) that another run against the same instance holds; after that, the tests that need the setting are unsupported, naming the holder.' },
  { env: 'CONFORMANCE_TRANSCRIPT', default: '(unset)', meaning: 'Where the run writes its transcript (JSON Lines, docs/transcript-format.md): every exchange of every test, tokens masked. `record --out` sets it.' },
];

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
}

/** Settings the command's flags gave, by variable name, with the flag as the person wrote it (for messages). */
export type Flags = Partial<Record<string, { value: string; flag: string }>>;

/** A setting given by a flag, when it was. */
export function flagged(name: string, value: string | undefined, flagName: string): Flags {
  return value === undefined ? {} : { [name]: { value, flag: flagName } };
}

/**
 * Reads the flags, then the environment, with `.env` filling what neither sets. With the catalog of
 * areas, area names and endpoint forms are checked against it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env', catalog?: Catalog, flags: Flags = {}): Config {
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const get = (name: string): string | undefined => {
    const value = flags[name]?.value ?? env[name] ?? fromFile[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  // A message names what the person wrote: the flag when they passed one, else the variable.
  const label = (name: string): string => flags[name]?.flag ?? name;

  const { targetUrl, adminToken } = targetOf(get, label, flags);

  const capabilities = list(get('CONFORMANCE_CAPABILITIES'));
  const unknownCapability = capabilities.find((c) => !(CAPABILITIES as readonly string[]).includes(c));
  if (unknownCapability) throw new ConfigError(`${label('CONFORMANCE_CAPABILITIES')} has an unknown capability "${unknownCapability}" (known: ${CAPABILITIES.join(', ')})`);

  const areas = list(get('CONFORMANCE_AREAS'));
  const known = catalog?.areaNames;
  const unknownArea = known && areas.find((a) => !known.includes(a));
  if (unknownArea) throw new ConfigError(`${label('CONFORMANCE_AREAS')} has an unknown area "${unknownArea}" (known: ${known.join(', ')})`);

  const endpoints = (get('CONFORMANCE_ENDPOINTS') ?? '').split(';').map((e) => e.trim().replace(/\s+/g, ' ')).filter((e) => e !== '');
  const unknownEndpoint = catalog && endpoints.find((e) => !catalog.endpointArea.has(e));
  if (unknownEndpoint) throw new ConfigError(`${label('CONFORMANCE_ENDPOINTS')} has an unknown endpoint form "${unknownEndpoint}" (forms are listed in the spec's endpoints.txt, e.g. "GET /groups/:id/members")`);

  const level = get('CONFORMANCE_LEVEL') ?? 'spec';
  if (!(LEVELS as readonly string[]).includes(level)) throw new ConfigError(`${label('CONFORMANCE_LEVEL')} must be one of ${LEVELS.join(', ')}, got "${level}"`);

  const fixturesPath = get('CONFORMANCE_FIXTURES');
  if (fixturesPath !== undefined && !existsSync(fixturesPath)) throw new ConfigError(`${label('CONFORMANCE_FIXTURES')} does not exist: ${fixturesPath}`);

  const expectedFailuresPath = get('CONFORMANCE_EXPECTED_FAILURES');
  if (expectedFailuresPath !== undefined && !existsSync(expectedFailuresPath)) throw new ConfigError(`${label('CONFORMANCE_EXPECTED_FAILURES')} does not exist: ${expectedFailuresPath}`);

  const headerPrefix = get('CONFORMANCE_HEADER_PREFIX') ?? 'X-Gitlab-';
  if (!/^[A-Za-z][A-Za-z0-9-]*-$/.test(headerPrefix)) throw new ConfigError(`${label('CONFORMANCE_HEADER_PREFIX')} must be a header name prefix ending in "-", got "${headerPrefix}"`);

  const timeout = get('CONFORMANCE_REQUEST_TIMEOUT_MS') ?? '15000';
  if (!/^\d+$/.test(timeout) || Number(timeout) < 100) throw new ConfigError(`${label('CONFORMANCE_REQUEST_TIMEOUT_MS')} must be a whole number of milliseconds, at least 100, got "${timeout}"`);

  const maxAnswerMb = get('CONFORMANCE_MAX_ANSWER_MB') ?? String(DEFAULT_MAX_ANSWER_BYTES / (1024 * 1024));
  if (!/^[1-9]\d*$/.test(maxAnswerMb)) throw new ConfigError(`${label('CONFORMANCE_MAX_ANSWER_MB')} must be a positive whole number of MB, got "${maxAnswerMb}"`);

  const concurrency = get('CONFORMANCE_CONCURRENCY') ?? String(targetUrl === undefined ? BUNDLED_CONCURRENCY : URL_TARGET_CONCURRENCY);
  if (!/^[1-9]\d*$/.test(concurrency)) throw new ConfigError(`${label('CONFORMANCE_CONCURRENCY')} must be a positive whole number, got "${concurrency}"`);

  const maxInFlight = get('CONFORMANCE_MAX_IN_FLIGHT') ?? String(DEFAULT_MAX_IN_FLIGHT);
  if (!/^\d+$/.test(maxInFlight)) throw new ConfigError(`${label('CONFORMANCE_MAX_IN_FLIGHT')} must be a whole number (0: no bound), got "${maxInFlight}"`);

  const leaseWait = get('CONFORMANCE_LEASE_WAIT_S') ?? String(DEFAULT_LEASE_WAIT_S);
  if (!/^\d+$/.test(leaseWait)) throw new ConfigError(`${label('CONFORMANCE_LEASE_WAIT_S')} must be a whole number of seconds, got "${leaseWait}"`);

  const flag = (name: string): boolean => {
    const value = get(name) ?? 'false';
    if (!['true', 'false'].includes(value)) throw new ConfigError(`${label(name)} must be true or false, got "${value}"`);
    return value === 'true';
  };
  const sequential = flag('CONFORMANCE_SEQUENTIAL');

  const runId = get('CONFORMANCE_RUN_ID');
  if (runId !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(runId)) throw new ConfigError(`${label('CONFORMANCE_RUN_ID')} must be letters, digits, ".", "_" or "-" (at most 100), got "${runId}"`);

  return {
    targetUrl: targetUrl?.replace(/\/+$/, ''),
    adminToken,
    capabilities: (targetUrl === undefined && get('CONFORMANCE_CAPABILITIES') === undefined ? [...CAPABILITIES] : capabilities) as Capability[],
    fixturesPath,
    headerPrefix,
    areas,
    level: level as VerdictLevel,
    endpoints,
    disabledTests: list(get('CONFORMANCE_DISABLE')),
    reportDir: get('CONFORMANCE_REPORT_DIR') ?? 'reports',
    requestTimeoutMs: Number(timeout),
    maxAnswerBytes: Number(maxAnswerMb) * 1024 * 1024,
    concurrency: Number(concurrency),
    // One request at a time too: requests a test or the set-up sends at once would reach the target
    // in an order its timing decides, and so would the ids it hands out (lists are ordered by them).
    maxInFlight: sequential ? 1 : Number(maxInFlight),
    sequential,
    markSharedLists: flag('CONFORMANCE_MARK_SHARED_LISTS'),
    transcriptPath: get('CONFORMANCE_TRANSCRIPT'),
    expectedFailuresPath,
    ...(runId !== undefined ? { runName: runId } : {}),
    leaseWaitMs: Number(leaseWait) * 1000,
  };
}

type Read = (name: string) => string | undefined;

/** The target URL (checked: http or https, no credentials, no /api/v4) and the admin token, required with it. */
function targetOf(get: Read, label: (name: string) => string, flags: Flags): { targetUrl?: string; adminToken?: string } {
  const targetUrl = get('CONFORMANCE_TARGET_URL');
  if (targetUrl !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(targetUrl);
    } catch {
      throw new ConfigError(`${label('CONFORMANCE_TARGET_URL')} is not a URL: "${targetUrl}"`);
    }
    if (!['http:', 'https:'].includes(parsed.protocol)) throw new ConfigError(`${label('CONFORMANCE_TARGET_URL')} must be http or https, got "${parsed.protocol}"`);
    // Reports and output show the target URL: credentials in it would be printed everywhere.
    if (parsed.username !== '' || parsed.password !== '') throw new ConfigError(`${label('CONFORMANCE_TARGET_URL')} must not carry a user or password: the admin token authenticates`);
    if (/\/api\/v4\/?$/.test(parsed.pathname)) throw new ConfigError(`${label('CONFORMANCE_TARGET_URL')} must not end in /api/v4: give the base URL of the instance`);
  }

  let adminToken = get('CONFORMANCE_ADMIN_TOKEN');
  const tokenFile = get('CONFORMANCE_ADMIN_TOKEN_FILE');
  if (adminToken === undefined && tokenFile !== undefined) {
    if (!existsSync(tokenFile)) throw new ConfigError(`${label('CONFORMANCE_ADMIN_TOKEN_FILE')} does not exist: ${tokenFile}`);
    adminToken = readFileSync(tokenFile, 'utf8').trim() || undefined;
  }
  if (targetUrl !== undefined && adminToken === undefined) {
    const how = flags.CONFORMANCE_TARGET_URL ? '--token-file FILE (or CONFORMANCE_ADMIN_TOKEN in the environment)' : 'CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_ADMIN_TOKEN_FILE)';
    throw new ConfigError(`an administrator's token (scope api) is required with ${label('CONFORMANCE_TARGET_URL')}: give it with ${how}`);
  }

  return { targetUrl, adminToken };
}

/** The vitest projects of a run of the suite: every file but the exclusive ones, then each setting phase (vitest.config.ts). */
export const conformanceProjects = (catalog: Catalog): string[] => ['conformance', ...catalog.settingPhases.map(phaseProject)];

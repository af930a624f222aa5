// Making a run: read the configuration, start the bundled reference server when no target is
// configured, check the admin token, read the version, create the shared actors. The teardown
// removes what the run created (everything left in the ledger) and stops the server. Used by the
// global setup, and inside the test worker itself when the server must run there (mutation testing).
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { FixtureManifest } from '../../contract/fixture-manifest.js';
import { loadManifest } from '../../fixtures/manifest.js';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/server.js';
import type { Area, Catalog } from '../core/area.js';
import { Client } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import { bindInFlight } from '../core/in-flight.js';
import { registerSecret } from '../core/redact.js';
import { ROLE_LEVEL, ROLES, TOKEN_SCOPES, type ActorName } from '../core/vocabulary.js';
import { loadConfig, SEATLESS_POOL_SIZE, USER_POOL_SIZE, type Config } from './config.js';
import type { ActorInfo, RunContext } from './context.js';
import { local, serve } from './coordinator-channel.js';
import { Coordinator } from './coordinator.js';
import { Frame } from './frame.js';
import { identityOf, normalizeTarget } from './instance-identity.js';
import { Ledger, ledgerPathOf } from './ledger.js';
import { describePending, sweepLedger } from './removal.js';

/** What a run's clean-up leaves for GitLab to finish: its phrases ("14 groups pending deletion until …"), for the reports. */
export interface CleanUpSummary {
  pending: string[];
}

/** A run made: its context (handed to the workers), its coordinator, its clean-up, and `abandon` (no clean-up: for a run whose reference server goes with it). */
export interface MadeRun {
  run: RunContext;
  coordinator: Coordinator;
  teardown: () => Promise<CleanUpSummary | undefined>;
  abandon: () => Promise<void>;
}

/** A run's id: the time it started (to the second, UTC) and four hex digits. */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:TZ.]/g, '').slice(2, 14)}${randomBytes(2).toString('hex')}`;
}

/** Makes the run; `catalog` (the registered areas) checks the area and endpoint settings. */
export async function createRun(options: { unrefServer?: boolean; catalog?: Catalog; config?: Config } = {}): Promise<MadeRun> {
  const config = options.config ?? loadConfig(process.env, '.env', options.catalog);
  const { server, targetUrl, adminToken, fixtures } = await openTarget(config, options.unrefServer === true);
  const admin = new Client(targetUrl, adminToken, 'admin (setup)', { timeoutMs: config.requestTimeoutMs, maxBytes: config.maxAnswerBytes });
  const runId = config.runId ?? newRunId();
  const ledger = new Ledger(ledgerPathOf(runId), runId);
  const coordinator = new Coordinator(config.maxInFlight, ledger);
  bindInFlight(coordinator.tallies.inFlight());
  const stopServing = serve(coordinator, runId);
  let made: RunContext | undefined;
  const { teardown, abandon } = endings({ admin, ledgerPath: ledger.path, targetUrl, keep: config.keep === true, made: () => made, stopServing, server });
  try {
    const { adminId, version } = await precheck(admin, targetUrl, ledger);
    const run: RunContext = {
      settings: config,
      targetUrl,
      adminToken,
      adminId,
      runId,
      prefix: `cnf-${runId}`,
      ledgerPath: ledger.path,
      version,
      referenceServer: server !== undefined,
      fixtures,
      actors: {} as Record<ActorName, ActorInfo>,
      root: undefined,
      pool: { seats: undefined, users: [], seatless: [] },
      roleGrantingWrites: options.catalog?.roleGrantingWrites ?? [],
    };
    await makeShared(run, coordinator, pooled(config, options.catalog));
    made = run;
    return { run, coordinator, teardown, abandon };
  } catch (error) {
    await teardown();
    throw error;
  }
}

/** The target of the run: the one the settings name, else the bundled reference server, started here (with its fixtures unless a manifest is named). */
async function openTarget(config: Config, unrefServer: boolean): Promise<{ server?: ReferenceServer; targetUrl: string; adminToken: string; fixtures: FixtureManifest }> {
  let fixtures = loadManifest(config.fixturesPath);
  if (config.targetUrl !== undefined) {
    registerSecret(config.adminToken);
    return { targetUrl: config.targetUrl, adminToken: config.adminToken!, fixtures };
  }
  const server = await startReferenceServer();
  // A server made inside a test worker must not keep the worker alive.
  if (unrefServer) server.app.server.unref();
  if (config.fixturesPath === undefined) fixtures = server.fixtures;
  registerSecret(server.adminToken);
  return { server, targetUrl: server.url, adminToken: server.adminToken, fixtures };
}

/**
 * The run's two endings: its clean-up, one however many call it (the global setup's teardown, the
 * command after an interruption; each caller waits for it to end), and `abandon`, no clean-up: for a
 * run whose reference server goes with it (an in-worker run, current-run.ts).
 */
function endings(run: { admin: Client; ledgerPath: string; targetUrl: string; keep: boolean; made: () => RunContext | undefined; stopServing: () => void; server?: ReferenceServer }): Pick<MadeRun, 'teardown' | 'abandon'> {
  const { admin, ledgerPath, targetUrl } = run;
  let ended = false;
  let tornDown: Promise<CleanUpSummary | undefined> | undefined;
  const stop = async () => {
    run.stopServing();
    await run.server?.close();
  };
  const teardown = () => {
    if (tornDown) return tornDown;
    ended = true;
    tornDown = (async () => {
      const made = run.made();
      if (run.keep && made) {
        keepForRepro(made, ledgerPath);
        run.stopServing();
        return;
      }
      try {
        // Also the instance settings the setting phases changed (coordination/setting-phases.ts).
        const { removed, restored, left, refused, pending } = await sweepLedger(admin, ledgerPath, { target: targetUrl });
        const sweep = `gitlab-api-conformance sweep --target ${targetUrl} --ledger ${ledgerPath}`;
        if (refused !== undefined) console.error(`conformance: clean-up could not be made (${refused}); run \`${sweep}\` when the target answers`);
        else if (left.length > 0) console.error(`conformance: clean-up removed ${removed} object(s) but left ${left.length} on the target: ${left.join(', ')}; run \`${sweep}\``);
        // A run that made nothing (refused at its pre-check) says nothing of its clean-up.
        else if (removed + restored > 0) console.error(`conformance: clean-up removed ${removed} object(s) the run made${restored ? `, put back ${restored} instance setting(s)` : ''}`);
        // Marked for deletion (GitLab 17 Premium and Ultimate, 18 every tier keep them for days): removed as far as the run can, not left.
        if (pending.length > 0) console.error(`conformance: clean-up: ${describePending(pending).join('; ')}`);
        return { pending: describePending(pending) };
      } finally {
        await stop();
      }
    })();
    return tornDown;
  };
  const abandon = async () => {
    if (ended) return;
    ended = true;
    await stop();
    rmSync(ledgerPath, { force: true });
  };
  return { teardown, abandon };
}

/** The target's pre-check: an administrator's token with scope api; then the ledger's header, before the first object, and the version. */
async function precheck(admin: Client, targetUrl: string, ledger: Ledger): Promise<{ adminId: number; version: string }> {
  const me = await admin.get('/user');
  if (me.status === 401) throw new HarnessError(`the target refused the admin token (GET /api/v4/user answered 401)`);
  if (me.status !== 200) throw new HarnessError(`GET /api/v4/user answered HTTP ${me.status}; is ${targetUrl} a GitLab API?`);
  const user = me.body as { id: number; is_admin?: boolean; username: string };
  if (user.is_admin !== true) throw new HarnessError(`the admin token belongs to ${user.username}, who is not an administrator; the suite needs an administrator's token`);
  await checkScopes(admin);
  const instance = identityOf(user);
  if (instance === undefined) throw new HarnessError(`GET /api/v4/user lacks id, username or created_at; the ledger needs them to name the instance`);
  // Before the first object: a clean-up elsewhere refuses what follows (removal.ts sweepLedger).
  ledger.writeHeader(normalizeTarget(targetUrl), instance);
  const versionRes = await admin.get('/version');
  const version = versionRes.status === 200 ? String((versionRes.body as { version?: string }).version ?? 'unknown') : 'unknown';
  return { adminId: user.id, version };
}

/** Whether a selected area lends users from the run's pool. */
function pooled(config: Config, catalog: Catalog | undefined): boolean {
  const selected = (area: Area) =>
    (config.areas.length === 0 || config.areas.includes(area.name)) && (config.endpoints.length === 0 || config.endpoints.some((e) => catalog?.endpointArea.get(e) === area.name));
  return catalog === undefined || catalog.areas.some((a) => a.usesUserPool && selected(a));
}

/** What every test shares, made by the run's own frame: the root group, the actors, the pool; the coordinator learns the pool and the manifest's groups. */
async function makeShared(run: RunContext, coordinator: Coordinator, withPool: boolean): Promise<void> {
  const frame = new Frame({ context: run, coordinator: local(coordinator) }, { holder: 'run', scope: 'run' });
  // Public: groups below it may then be public, internal or private.
  run.root = await frame.make.group({ top: true, visibility: 'public', hint: 'root' });
  await Promise.all([
    // The shared actors and the pool at once: on a real GitLab each user costs several round trips.
    ...([...ROLES, 'outsider'] as const).map(async (name) => {
      run.actors[name] = await frame.make.user(name, TOKEN_SCOPES);
    }),
    // Without a pool each test makes its own users: a target whose members API fails then shows
    // it in those tests' verdicts, not as a run that cannot be made.
    withPool
      ? makePool(frame, run).catch((error: unknown) => {
          run.pool = { seats: undefined, users: [], seatless: [] };
          console.error(`conformance: the pool of users could not be made, tests make their own: ${(error as Error).message}`);
        })
      : undefined,
  ]);
  for (const user of run.pool.users) coordinator.lending.adopt(user);
  for (const user of run.pool.seatless) coordinator.lending.adoptSeatless(user);
  // The manifest's groups are known sources: a subgroup a test makes in one is in its domain.
  for (const entry of Object.values(run.fixtures)) {
    const groupId = (entry as { group_id?: unknown } | undefined)?.group_id;
    if (typeof groupId === 'number') coordinator.lending.registerSource({ kind: 'group', id: groupId }, undefined, 'run');
  }
}

/**
 * `--keep`: nothing is removed. The users' tokens go to a file of the owner's alone beside the ledger
 * (never to the output), so that a failure's cURL line can be sent again by hand; `sweep` removes
 * what the ledger lists, and the tokens with their users.
 */
function keepForRepro(run: RunContext, ledgerPath: string): void {
  const tokensPath = ledgerPath.replace(/ledger-(.+)\.jsonl$/, 'kept-$1.tokens.json');
  const users = [...Object.entries(run.actors).map(([role, u]) => ({ role, ...u })), ...run.pool.users.map((u) => ({ role: 'pool', ...u })), ...run.pool.seatless.map((u) => ({ role: 'seatless', ...u }))];
  writeFileSync(tokensPath, `${JSON.stringify({ target: run.targetUrl, users: users.map(({ role, id, username, tokens }) => ({ role, id, username, tokens })) }, null, 2)}\n`, { mode: 0o600 });
  console.error(
    `conformance: --keep: what the run made on ${run.targetUrl} stays (ledger ${ledgerPath}); the tokens of its users are in ${tokensPath} (readable by you alone). ` +
      `Remove it all with: gitlab-api-conformance sweep --target ${run.targetUrl} --ledger ${ledgerPath}`,
  );
}

/**
 * The admin token's scopes (GET /personal_access_tokens/self, lib/api/personal_access_tokens/self_information.rb,
 * open to a token of any scope): the run creates and deletes users, groups and projects, which takes
 * `api` (`read_api` answers every write 403 insufficient_scope). `sudo` is not needed: the tests of
 * sudo make a token of their own. A target without the endpoint (an older GitLab answers 404) or a
 * token that is no personal access token gets no 200, and a target that does not answer it none: the
 * scopes are unknown, and the run goes on.
 */
async function checkScopes(admin: Client): Promise<void> {
  const res = await admin.get('/personal_access_tokens/self').catch(() => undefined);
  const scopes = (res?.body as { scopes?: unknown } | undefined)?.scopes;
  if (res?.status !== 200 || !Array.isArray(scopes)) return;
  if (!scopes.includes('api')) throw new HarnessError(`the admin token lacks the scope api (it has ${scopes.join(', ') || 'none'}); the suite creates and deletes users, groups and projects, which needs api`);
}

/**
 * The run's pool of users (RunContext.pool): each a Reporter of one seat group (added in one
 * request), with an `api` token; and, when the run may turn promotion approval on, the seatless
 * ones, members of nothing.
 */
async function makePool(frame: Frame, run: RunContext): Promise<void> {
  const seatless = run.settings.capabilities.includes('promotion_management') ? SEATLESS_POOL_SIZE : 0;
  const [seats, users, without] = await Promise.all([
    frame.make.group({ hint: 'seats' }),
    Promise.all(Array.from({ length: USER_POOL_SIZE }, () => frame.make.user('pool'))),
    Promise.all(Array.from({ length: seatless }, () => frame.make.user('seatless'))),
  ]);
  await frame.make.addMember(seats, users.map((u) => u.id), ROLE_LEVEL.reporter);
  run.pool = { seats, users, seatless: without };
}

// The reference server's command: `gitlab-reference-server [options]`, also `gitlab-api-conformance
// serve [options]` and `npm run reference-server -- [options]`. It starts the server, prints its URL,
// its administrator token and the command line that runs the suite against it with what it offers
// (every capability, and the fixtures, in a manifest file of its own), and ends on SIGINT or SIGTERM
// with the server closed and the manifest removed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startReferenceServer } from './server.js';
import { watchStarter } from './lifetime.js';
import { logLine } from './http/journal.js';
import { StubError } from './stubs/stubs.js';
import { FAULTS, FAULT_NAMES } from './areas.js';
import { SeedError } from './seed/seed.js';
import { StateError } from './state/state.js';
import { validSeed } from './vary/index.js';
import { EXTRA_SETUP_ENDPOINTS, unknownWithout } from './without.js';
import { parseProfile, type GitlabProfile } from './profile.js';

/**
 * What the reference server offers beyond a Free GitLab: every capability the suite knows
 * (runner/run/config.ts CAPABILITIES; main.spec.ts keeps the two lists equal).
 */
export const OFFERED_CAPABILITIES = ['premium', 'ultimate', 'ldap', 'saml', 'promotion_management', 'enterprise_users', 'member_removal_rate_limit'];

export const USAGE = `Usage: gitlab-reference-server [--port 3000] [--host 127.0.0.1] [--admin-token TOKEN] [--seed FILE]
                               [--gitlab VERSION-EDITION[-TIER]] [--delayed-deletion] [--vary SEED] [--neighbours] [--without NAME ...] [--spec-only]
                               [--header-prefix X-Gitlab-] [--latency MS] [--fault NAME ...] [--log] [--strict] [--detach] [--stubs FILE] [--state FILE] [--no-suite-fixtures]
  (also: gitlab-api-conformance serve [options])
  --port N            the port; 0 takes a free one (the URL printed says which)
  --admin-token TOKEN the administrator's token (user root); a fresh glpat- token otherwise, printed
  --seed FILE         users (with tokens), groups, projects (with files on branches), members, invitations
                      and mirrors to start with, JSON or YAML (schema: reference-server/seed/seed.schema.json);
                      POST /-/reference/reset with the administrator's token goes back to them
  --spec-only         do what the spec says and nothing more of GitLab's (other error texts, check order, optional fields)
  --gitlab PROFILE    answer as that GitLab release and tier where the areas differ (reference-server/profile.ts):
                      16.11-ce, 17.10-ee-premium, 18.1-ee-free, 18.3-ee-ultimate, …; the default is 19.0.0-ee with every feature
  --delayed-deletion  delete groups and projects as GitLab 17 and 18 do: marked first, removed by permanently_remove
                      (subgroups and projects only: a top-level group stays pending deletion)
  --vary SEED         take every freedom GitLab leaves open, as the seed (0 to 4294967295) chooses: colliding group and
                      project ids, ids with gaps, open list orders shuffled, unknown fields on every object, other
                      timestamp precision, other key and header order, extra headers (reference-server/vary/)
  --neighbours        the suite's race check (with CONFORMANCE_MARK_SHARED_LISTS=true): before answering a test's read
                      of a list another test changed, change it once more, as that test could have (neighbours.ts)
  --without NAME      lack one of the set-up endpoints the suite uses beyond the target contract (repeatable):${EXTRA_SETUP_ENDPOINTS.map((e) => `\n    ${e.name}: ${e.description}`).join('')}
  --latency MS        wait MS milliseconds before answering each request, to play a slow target
  --stubs FILE        answers for routes it does not model, JSON or YAML (schema: reference-server/stubs/stubs.schema.json);
                      kept over resets; POST /-/reference/stubs adds more until the next reset
  --state FILE        start from a saved state (GET /-/reference/state's JSON; schema: reference-server/state/state.schema.json)
                      instead of the seeded one; reset still goes back to the seed
  --no-suite-fixtures only the administrator and the seed: none of the conformance suite's fixture users and groups
  --log               print a line per request: time, method, path and query (secrets masked), status, user, duration
  --strict            answer a route it does not model 501 naming it, not GitLab's unknown-route 404
  --detach            keep serving after the process that started it ends (a script that starts it in the
                      background and exits, a Makefile line); stop it with SIGINT or SIGTERM
                      (without it: the 404 carries X-Reference-Server: not-modelled, and a line on stderr names the route)
Outside the API (docs/reference-server.md):
  GET /-/reference/health      {"status":"ok"} once it serves (no token)
  POST /-/reference/reset      back to the start: the administrator, the suite's fixtures and the seed; the journal emptied,
                               stubs added while running dropped (administrator's token)
  GET /-/reference/in-flight   {"current":n,"highest":m}: the requests received and not yet answered, and the most at once (no token)
  POST /-/reference/stubs      add stubs until the next reset (administrator's token); GET /-/reference/health lists them
  GET /-/reference/requests    the request journal, filters method, path (prefix or glob), since (administrator's token)
  GET|PUT /-/reference/state   save the whole state as JSON, or load one (administrator's token)
SIGINT or SIGTERM stops it.
Faults: ${FAULTS.map((f) => `\n  ${f.name}: ${f.description}`).join('')}`;

/**
 * The suite's command: `node <bin>` in the suite's package folder, the nearest one up with its package.json
 * (the sources' or dist/'s parent); `npx gitlab-api-conformance` where the server runs from its own
 * package (gitlab-reference-server), without the suite around it.
 */
function suiteCommand(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== 'gitlab-api-conformance') {
    const parent = dirname(dir);
    if (parent === dir) return 'npx gitlab-api-conformance';
    dir = parent;
  }
  return `node ${join(dir, 'bin', 'gitlab-api-conformance.js')}`;
}

/** The command's options (parseArgs). */
const OPTIONS = {
  port: { type: 'string', default: '3000' },
  host: { type: 'string', default: '127.0.0.1' },
  'admin-token': { type: 'string' },
  seed: { type: 'string' },
  'header-prefix': { type: 'string' },
  fault: { type: 'string', multiple: true },
  latency: { type: 'string', default: '0' },
  'spec-only': { type: 'boolean', default: false },
  'delayed-deletion': { type: 'boolean', default: false },
  gitlab: { type: 'string' },
  vary: { type: 'string' },
  neighbours: { type: 'boolean', default: false },
  without: { type: 'string', multiple: true },
  log: { type: 'boolean', default: false },
  strict: { type: 'boolean', default: false },
  stubs: { type: 'string' },
  state: { type: 'string' },
  'no-suite-fixtures': { type: 'boolean', default: false },
  detach: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

/** What is wrong with the values of the options, if anything: the message the command fails with. */
function problemOf(values: Values): string | undefined {
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) return `--port must be a number from 0 to 65535, got "${values.port}"`;
  if (!/^\d+$/.test(values.latency)) return `--latency must be a whole number of milliseconds, got "${values.latency}"`;
  const unknownFault = (values.fault ?? []).find((name) => !FAULT_NAMES.includes(name));
  if (unknownFault) return `unknown fault "${unknownFault}" (known: ${FAULT_NAMES.join(', ')})`;
  const vary = values.vary === undefined ? undefined : Number(values.vary);
  if (values.vary !== undefined && (!/^\d+$/.test(values.vary) || !validSeed(vary))) return `--vary must be a whole number from 0 to 4294967295, got "${values.vary}"`;
  const unknownSwitch = unknownWithout(values.without ?? [])[0];
  if (unknownSwitch !== undefined) return `unknown --without "${unknownSwitch}" (known: ${EXTRA_SETUP_ENDPOINTS.map((e) => e.name).join(', ')})`;
  if (values.seed !== undefined && !existsSync(values.seed)) return `--seed: no file ${values.seed}`;
  if (values.stubs !== undefined && !existsSync(values.stubs)) return `--stubs: no file ${values.stubs}`;
  if (values.state !== undefined && !existsSync(values.state)) return `--state: no file ${values.state}`;
  return undefined;
}

/** Runs the command; resolves to an exit code once the server listens (the process then runs until a signal). */
export async function serve(args: string[]): Promise<number> {
  const fail = (message: string) => {
    console.error(`gitlab-reference-server: ${message}`);
    return 2;
  };
  let values: Values;
  try {
    values = parseArgs({ args, options: OPTIONS }).values;
  } catch (error) {
    return fail(`${(error as Error).message} (--help lists the options)`);
  }

  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const problem = problemOf(values);
  if (problem) return fail(problem);
  const port = Number(values.port);
  const latencyMs = Number(values.latency);
  const vary = values.vary === undefined ? undefined : Number(values.vary);
  let profile: GitlabProfile | undefined;
  try {
    profile = values.gitlab === undefined ? undefined : parseProfile(values.gitlab);
  } catch (error) {
    return fail((error as Error).message);
  }

  let server;
  try {
    server = await startReferenceServer({
      port,
      host: values.host,
      adminToken: values['admin-token'],
      headerPrefix: values['header-prefix'],
      latencyMs,
      faults: values.fault,
      specOnly: values['spec-only'],
      delayedDeletion: values['delayed-deletion'],
      gitlab: values.gitlab,
      vary,
      neighbours: values.neighbours,
      without: values.without,
      seed: values.seed,
      strict: values.strict,
      stubs: values.stubs,
      state: values.state,
      suiteFixtures: !values['no-suite-fixtures'],
      onRequest: (entry) => {
        if (values.log) console.log(logLine(entry));
        if (entry.route === null) console.error(`gitlab-reference-server: not modelled here: ${entry.method} ${entry.path}`);
      },
    });
  } catch (error) {
    if (error instanceof SeedError || error instanceof StubError || error instanceof StateError) return fail(error.message);
    if ((error as { code?: string }).code === 'EADDRINUSE') return fail(`port ${port} is in use (--port 0 takes a free one)`);
    throw error;
  }

  // The fixtures' owner tokens go to a file only this user reads, never to the output; removed at the end.
  const folder = mkdtempSync(join(tmpdir(), 'gitlab-reference-server-'));
  const manifest = join(folder, 'fixtures.json');
  writeFileSync(manifest, JSON.stringify(server.fixtures, null, 2), { mode: 0o600 });

  let stopping = false;
  const removeManifest = () => rmSync(folder, { recursive: true, force: true });
  const stop = () => {
    // A second signal while closing ends at once.
    if (stopping) process.exit(130);
    stopping = true;
    removeManifest();
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  // An exit of any other kind (an error thrown) leaves no file behind either.
  process.on('exit', removeManifest);
  // Started through npx or npm run, or by a process killed outright: it ends with its starter (lifetime.ts),
  // unless asked to outlive it.
  if (!values.detach) watchStarter(stop);

  const modes = [profile && `as GitLab ${profile.version} ${profile.tier}`, values['spec-only'] && 'spec-only mode', values['delayed-deletion'] && 'delayed deletion', vary !== undefined && `vary seed ${vary}`, values.neighbours && 'neighbours', values.seed && `seeded from ${values.seed}`, values.state && `state from ${values.state}`].filter(Boolean);
  console.log(`GitLab reference server listening on ${server.url} (API at ${server.url}/api/v4)${modes.length ? `, ${modes.join(', ')}` : ''}`);
  // The operator asked for this server: its admin token is printed unless they chose it themselves.
  console.log(`Administrator token: ${values['admin-token'] === undefined ? server.adminToken : 'the one given with --admin-token'}`);
  const capabilities = profile?.capabilities ?? OFFERED_CAPABILITIES;
  console.log(`Run the suite against it (every capability it offers, its fixtures in ${manifest}):`);
  console.log(
    `  CONFORMANCE_ADMIN_TOKEN=<token above> ${suiteCommand()} --target ${server.url}${capabilities.length ? ` --capabilities ${capabilities.join(',')}` : ''} --fixtures ${manifest}`,
  );
  console.log('Stop it with Ctrl-C or SIGTERM.');
  return 0;
}

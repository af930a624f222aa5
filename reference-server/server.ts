// Builds the reference server: a Fastify app under /api/v4 with GitLab's error rendering, seeded
// with an administrator whose token the caller gets back. Start it with `startReferenceServer`.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError } from './http/errors.js';
import { installGitlabHttp } from './http/gitlab-http.js';
import { countInFlight, type InFlight } from './http/in-flight.js';
import { parseQueryForRoute } from './http/rack-params.js';
import { faultContext, faultsOf, faultsPossible, installFaults, rewriteUrlWith, type FaultContext, type FaultOptions } from './faults/index.js';
import type { FixtureManifest } from '../contract/fixture-manifest.js';
import type { Context, RouteModule, ServerOptions } from './http/context.js';
import { Store } from './state/store.js';
import { repositoryReadRoutes } from './routes/repository-reads.js';
import { setupRoutes } from './routes/setup/index.js';
import { uploadsRoutes } from './routes/uploads.js';
import { seedFixtures } from './fixtures.js';
import { FAULTS, SERVER_AREAS, type ServerArea } from './areas.js';
import { installSpecOnly, type SpecOnlyOptions } from './spec-only/index.js';
import { installVary, validSeed, variedIds, type VaryOptions } from './vary/index.js';
import { installNeighbours, type NeighboursOptions } from './neighbours.js';
import { installWithout, type WithoutOptions } from './without.js';
import { installProfile, parseProfile, type Deletion } from './profile.js';
import { applySeed, checkSeed, loadSeedFile, type Seed } from './seed/seed.js';
import { installReferenceEndpoints } from './reference-endpoints.js';
import { checkState, loadStateFile, restoreState, saveState, type ServerState } from './state/state.js';
import { installJournal, Journal, type JournalEntry, type JournalFilter } from './http/journal.js';
import { checkStubs, installStubs, loadStubsFile, StubRegistry, type Stub } from './stubs/stubs.js';

export interface ReferenceServerOptions extends Partial<ServerOptions>, FaultOptions, SpecOnlyOptions, VaryOptions, WithoutOptions, NeighboursOptions {
  /** Fixes the administrator's token; a fresh `glpat-` token otherwise. */
  adminToken?: string;
  /** Largest accepted request body; GitLab's default API limit is far above what tests need. */
  bodyLimit?: number;
  /** The areas to serve (default: all of reference-server/areas.ts); a test may add one of its own. */
  areas?: ServerArea[];
  /** Delay before every answer, in milliseconds, to play a slow target. */
  latencyMs?: number;
  /** Objects to start with and go back to on reset: a seed, or the path of a JSON or YAML seed file (seed/seed.schema.json). */
  seed?: Seed | string;
  /** The GitLab release and tier to answer as, `<major>.<minor>-<ce|ee>[-<tier>]` (profile.ts); the newest, every feature, otherwise. */
  gitlab?: string;
  /** Called with each request's journal entry as it is kept (the command's --log, and its line for a route not modelled). */
  onRequest?: (entry: JournalEntry) => void;
  /** A route the server does not model answers 501 naming it, not GitLab's unknown-route 404. */
  strict?: boolean;
  /** With false, only the administrator and the seed: none of the suite's fixture users and groups (fixtures.ts). Default true. */
  suiteFixtures?: boolean;
  /** Answers beside the server's routes, kept over resets: stubs, or the path of a JSON or YAML stub file (stubs/stubs.schema.json). */
  stubs?: Stub[] | string;
  /** A saved state to start with instead of the seeded one, or the path of its JSON file (state/state.schema.json); reset still goes back to the seed. */
  state?: ServerState | string;
}

export interface ReferenceServer {
  app: FastifyInstance;
  store: Store;
  adminToken: string;
  url: string;
  /** The fixtures the API cannot create, as a target's manifest describes them (empty with suiteFixtures: false). */
  fixtures: FixtureManifest;
  /** What the fault hooks saw and did. */
  faults: FaultContext;
  /** Requests received and not yet answered, and the highest count seen (also at GET /-/reference/in-flight). */
  inFlight: InFlight;
  /** The requests answered (the latest 10,000), oldest first, masked; also GET /-/reference/requests (http/journal.ts). */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Adds stubs (checked; StubError otherwise) until the next reset; also POST /-/reference/stubs. */
  stub(stubs: Stub | Stub[]): void;
  /** Puts the state back as it was at the start: the administrator, the fixtures and the seed, and empties the journal (also POST /-/reference/reset). */
  reset(): void;
  /** The whole state, as JSON (state/state.schema.json); also GET /-/reference/state. */
  saveState(): ServerState;
  /** Replaces the whole state with a saved one, checked first (StateError naming the JSON pointer, nothing changed); also PUT /-/reference/state. */
  loadState(state: unknown): void;
  close(): Promise<void>;
}

/** The app, not yet listening; and what buildApp made with it. */
export interface BuiltApp {
  app: FastifyInstance;
  store: Store;
  adminToken: string;
  faults: FaultContext;
  inFlight: InFlight;
  journal: Journal;
  stubs: StubRegistry;
  /** The fixtures, when asked for (startReferenceServer). */
  fixtures?: FixtureManifest;
  reset(): void;
  saveState(): ServerState;
  loadState(state: unknown): void;
}


/**
 * The app, not yet listening; `inFlight` counts the requests its HTTP server receives (not `app.inject`'s).
 * `withFixtures` seeds the fixtures the API cannot create (fixtures.ts) before the seed.
 */
export function buildApp(options: ReferenceServerOptions = {}, withFixtures = false): BuiltApp {
  const profile = options.gitlab === undefined ? undefined : parseProfile(options.gitlab);
  // --delayed-deletion without a profile: GitLab 18.3 and later.
  const newestMarking: Deletion = { kind: 'marked', projectSuffix: 'deletion_scheduled', groupSuffix: 'deletion_scheduled' };
  const deletion: Deletion = profile?.deletion.kind === 'marked' ? profile.deletion : options.delayedDeletion ? newestMarking : (profile?.deletion ?? { kind: 'immediate' });
  if (options.vary !== undefined && !validSeed(options.vary)) throw new Error(`vary: the seed must be a whole number from 0 to 2^32 - 1, got ${options.vary}`);
  const seed = typeof options.seed === 'string' ? loadSeedFile(options.seed) : options.seed === undefined ? undefined : checkSeed(options.seed);
  const seededAt = Date.now();
  // Made the same way at the start and on every reset: the same ids, the same commits.
  const populate = () => {
    const store = options.vary === undefined ? new Store() : new Store(variedIds(options.vary));
    const admin = store.createUser({ username: 'root', name: 'Administrator', email: 'admin@example.com', isAdmin: true });
    const adminToken = store.createToken(admin.id, 'conformance-admin', ['api', 'sudo', 'admin_mode'], null, options.adminToken).token;
    const fixtures = withFixtures ? seedFixtures(store) : undefined;
    if (seed) applySeed(store, seed, admin, seededAt, typeof options.seed === 'string' ? options.seed : 'seed');
    return { store, adminToken, fixtures };
  };
  const { store, adminToken, fixtures } = populate();
  // What the first build drew from the clock and at random stays as handed out: creation times and tokens.
  const records = (s: Store) => [...s.users.values(), ...s.groups.values(), ...s.projects.values(), ...s.members.values(), ...s.tokens.values()];
  const createdAt = records(store).map((r) => r.createdAt);
  const tokens = [...store.tokens.keys()];
  const journal = new Journal();
  const stubs = new StubRegistry(typeof options.stubs === 'string' ? loadStubsFile(options.stubs) : options.stubs === undefined ? [] : checkStubs(options.stubs));
  const reset = () => {
    journal.clear();
    stubs.reset();
    const fresh = populate().store;
    records(fresh).forEach((r, i) => (r.createdAt = createdAt[i]));
    const made = [...fresh.tokens.values()];
    fresh.tokens.clear();
    made.forEach((record, i) => fresh.tokens.set((record.token = tokens[i]), record));
    store.takeOver(fresh);
  };
  const saveWhole = () => saveState(store);
  // Built apart and checked whole before the server's store takes it over: a bad state changes nothing.
  const loadWhole = (state: unknown) => store.takeOver(restoreState(checkState(state)));
  if (options.state !== undefined) loadWhole(typeof options.state === 'string' ? loadStateFile(options.state) : options.state);
  const ctx: Context = {
    store,
    // The release whose behaviour it plays: GitLab 19.0 added the remote mirrors' host_keys parameter.
    options: { version: options.version ?? profile?.version ?? '19.0.0-ee', headerPrefix: options.headerPrefix ?? 'X-Gitlab-', delayedDeletion: deletion.kind === 'marked', deletion },
  };

  const faults = faultContext(store, options, options.areas ? faultsOf(options.areas) : FAULTS);
  const withFaults = faultsPossible(options);
  // maxParamLength: GitLab full paths (URL-encoded `:id`s) run far past Fastify's default of 100.
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    routerOptions: { maxParamLength: 8192, querystringParser: parseQueryForRoute },
    logger: false,
    trustProxy: false,
    forceCloseConnections: true,
    ...(withFaults ? { rewriteUrl: rewriteUrlWith(faults) } : {}),
  });
  const inFlight = countInFlight(app.server);
  installReferenceEndpoints(app.server, store, reset, journal, stubs, { save: saveWhole, load: loadWhole });
  // First of the hooks: it sees every request, whatever the later ones answer.
  installJournal(app, store, journal, options.onRequest);
  const answerStub = installStubs(app, stubs);
  // Before the fault hooks, so that a fault may still break what this sets right.
  installGitlabHttp(app);
  const latency = options.latencyMs ?? 0;
  if (latency > 0) app.addHook('onRequest', () => new Promise<void>((resolve) => setTimeout(resolve, latency)));
  if (withFaults) installFaults(app, faults, options.faultHeader ?? false);
  if (options.specOnly) installSpecOnly(app, ctx);
  if (options.without?.length) installWithout(app, options.without);
  if (profile) installProfile(app, profile);
  if (options.neighbours) installNeighbours(app, store, adminToken);
  // Last: it varies the answers as every other hook left them.
  if (options.vary !== undefined) installVary(app, options.vary);
  app.register(
    async (api) => {
      // Every route is declared by id (http/route-ids.ts), so that faults and variations can name it.
      api.addHook('onRoute', (route) => {
        if (!route.config?.route) throw new Error(`${String(route.method)} ${route.url}: a route of the API is registered from its table with \`on\` (http/route-ids.ts)`);
      });
      const routes: RouteModule[] = [setupRoutes, repositoryReadRoutes, ...(options.areas ?? SERVER_AREAS).map((a) => a.routes)];
      for (const register of routes) register(api, ctx);
    },
    { prefix: '/api/v4' },
  );
  uploadsRoutes(app, ctx);

  installAnswersOfNoRoute(app, answerStub, options.strict ?? false);

  return { app, store, adminToken, faults, inFlight, journal, stubs, fixtures, reset, saveState: saveWhole, loadState: loadWhole };
}

/** What no route answers: an unknown route (a stub's answer, else GitLab's 404 or 501 with --strict), and the errors. */
function installAnswersOfNoRoute(app: FastifyInstance, answerStub: (request: FastifyRequest, reply: FastifyReply) => boolean, strict: boolean): void {
  // A route GitLab may have and this server does not: GitLab's unknown-route answer, marked (or 501 with --strict).
  app.setNotFoundHandler((request, reply) => {
    if (answerStub(request, reply)) return;
    reply.header(NOT_MODELLED_HEADER, 'not-modelled');
    if (strict) reply.code(501).send({ message: `501 Not Implemented: ${request.method} ${request.url.split('?')[0]} is not modelled by the reference server` });
    else reply.code(404).send({ error: '404 Not Found' });
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) {
      reply.code(error.status).headers(error.headers).send(error.body);
      return;
    }
    // Body parsing and framework errors: GitLab answers these from Rack/Grape with 4xx.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      reply.code(413).send({ message: '413 Request Entity Too Large' });
      return;
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      reply.code(400).send({ error: error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'The provided content-type is not supported' : 'message body does not match declared format' });
      return;
    }
    reply.code(500).send({ message: '500 Internal Server Error' });
  });
}

/** Marks an answer to a route the server does not model. */
export const NOT_MODELLED_HEADER = 'x-reference-server';

export async function startReferenceServer(options: ReferenceServerOptions & { port?: number; host?: string } = {}): Promise<ReferenceServer> {
  const { app, store, adminToken, faults, inFlight, journal, stubs, fixtures, reset, saveState: saveWhole, loadState: loadWhole } = buildApp(options, options.suiteFixtures ?? true);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { app, store, adminToken, url: `http://${host}:${port}`, fixtures: fixtures ?? {}, faults, inFlight, requests: (filter) => journal.entries(filter), stub: (added) => stubs.add(checkStubs(added)), reset, saveState: saveWhole, loadState: loadWhole, close: () => app.close() };
}

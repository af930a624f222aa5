// `npm run reference-server -- --port 3000 [--host 127.0.0.1] [--admin-token glpat-...] [--spec-only] [--vary SEED] [--without NAME]`
// Starts the reference server alone and prints its URL and administrator token.
import { parseArgs } from 'node:util';
import { startReferenceServer } from './server.js';
import { FAULTS, FAULT_NAMES } from './faults/index.js';
import { validSeed } from './vary/index.js';
import { EXTRA_SETUP_ENDPOINTS, unknownWithout } from './without.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '127.0.0.1' },
    'admin-token': { type: 'string' },
    'header-prefix': { type: 'string' },
    fault: { type: 'string', multiple: true },
    latency: { type: 'string', default: '0' },
    'spec-only': { type: 'boolean', default: false },
    'delayed-deletion': { type: 'boolean', default: false },
    vary: { type: 'string' },
    without: { type: 'string', multiple: true },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run reference-server -- [--port 3000] [--host 127.0.0.1] [--admin-token TOKEN] [--header-prefix X-Gitlab-]
                                   [--latency MS] [--fault NAME ...] [--spec-only] [--delayed-deletion]
                                   [--vary SEED] [--without NAME ...]
  --spec-only         do what the spec says and nothing more of GitLab's (other error texts, check order, optional fields)
  --delayed-deletion  delete groups and projects as GitLab 17 and 18 do: marked first, removed by permanently_remove
                      (subgroups and projects only: a top-level group stays pending deletion)
  --vary SEED         take every freedom GitLab leaves open, as the seed (0 to 4294967295) chooses: colliding group and
                      project ids, ids with gaps, open list orders shuffled, unknown fields on every object, other
                      timestamp precision, other key and header order, extra headers (reference-server/vary/)
  --without NAME      lack one of the set-up endpoints the suite uses beyond the target contract (repeatable):${EXTRA_SETUP_ENDPOINTS.map((e) => `\n    ${e.name}: ${e.description}`).join('')}
  --latency MS        wait MS milliseconds before answering each request, to play a slow target
GET /-/reference/in-flight (outside the API, no token) answers {"current":n,"highest":m}: the requests
  received and not yet answered, and the most there have been at once
Faults: ${FAULTS.map((f) => `\n  ${f.name}: ${f.description}`).join('')}`);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`reference-server: --port must be a number from 0 to 65535, got "${values.port}"`);
  process.exit(2);
}

const latencyMs = Number(values.latency);
if (!Number.isInteger(latencyMs) || latencyMs < 0) {
  console.error(`reference-server: --latency must be a whole number of milliseconds, got "${values.latency}"`);
  process.exit(2);
}
const unknownFault = (values.fault ?? []).find((name) => !FAULT_NAMES.includes(name));
if (unknownFault) {
  console.error(`reference-server: unknown fault "${unknownFault}" (known: ${FAULT_NAMES.join(', ')})`);
  process.exit(2);
}

const vary = values.vary === undefined ? undefined : Number(values.vary);
if (values.vary !== undefined && (!/^\d+$/.test(values.vary) || !validSeed(vary))) {
  console.error(`reference-server: --vary must be a whole number from 0 to 4294967295, got "${values.vary}"`);
  process.exit(2);
}
const unknownSwitch = unknownWithout(values.without ?? [])[0];
if (unknownSwitch !== undefined) {
  console.error(`reference-server: unknown --without "${unknownSwitch}" (known: ${EXTRA_SETUP_ENDPOINTS.map((e) => e.name).join(', ')})`);
  process.exit(2);
}

const server = await startReferenceServer({
  port,
  host: values.host,
  adminToken: values['admin-token'],
  headerPrefix: values['header-prefix'],
  latencyMs,
  faults: values.fault,
  specOnly: values['spec-only'],
  delayedDeletion: values['delayed-deletion'],
  vary,
  without: values.without,
});
// The operator asked for this server: printing its admin token here is the point of the command.
console.log(`GitLab reference server listening on ${server.url} (API at ${server.url}/api/v4)${values['spec-only'] ? ', spec-only mode' : ''}${vary === undefined ? '' : `, vary seed ${vary}`}`);
console.log(`Administrator token: ${server.adminToken}`);
console.log(`Run the suite against it:  CONFORMANCE_TARGET_URL=${server.url} CONFORMANCE_ADMIN_TOKEN=<token above> npm run conformance`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

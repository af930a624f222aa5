// The library entry `gitlab-api-conformance/reference-server`: the reference server as a fake GitLab
// in another project's tests, compiled to dist/ when the package is packed (tsconfig.build.json), so
// plain Node imports it. docs/reference-server.md shows it in use.
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './server.js';
export { checkSeed, loadSeedFile, SeedError, type Seed } from './seed/seed.js';
export { OFFERED_CAPABILITIES } from './cli.js';
export { checkState, loadStateFile, StateError, STATE_VERSION, type ServerState } from './state/state.js';
export { HEALTH_PATH, RESET_PATH, STATE_PATH } from './reference-endpoints.js';
export { checkStubs, loadStubsFile, StubError, type Stub } from './stubs/stubs.js';
export type { JournalEntry, JournalFilter } from './http/journal.js';

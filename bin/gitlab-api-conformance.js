#!/usr/bin/env node
// The package's command: its TypeScript compiled once and kept (compiled-cli.js), or, where that copy
// cannot be used, run as it is through tsx.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the command prints shows escape sequences escaped (runner/core/output.ts): the libraries it
// loads (vitest's messages) must not colour theirs, or their colours would show as text.
process.env.NO_COLOR ??= '1';
const args = process.argv.slice(2);
// A run (not another command) takes a signal from its first moment to its last: one that comes while
// the command loads is kept, and the run, once it can, stops as interrupted (cli/cli.ts) instead of
// dying unreported. These listeners stay to the end, and the process ends by process.exit() once its
// event loop is empty, which keeps them working while it ends (cli/own-signals.ts, which does the same
// when the command is started otherwise).
const SIGNAL_ROUTE = Symbol.for('gitlab-api-conformance:signal-route');
const isRun = !['list', 'diff', 'sweep', 'serve', '--version', '-v', '--help', '-h'].includes(args[0]) && !args.includes('--help') && !args.includes('-h');
if (isRun) {
  const route = (globalThis[SIGNAL_ROUTE] = { early: undefined, handler: undefined });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, (s) => (route.handler ? route.handler(s) : (route.early ??= s)));
  process.prependListener('beforeExit', () => {
    const active = process.getActiveResourcesInfo().length;
    queueMicrotask(() => {
      if (process.getActiveResourcesInfo().length <= active) process.exit();
    });
  });
}
const { compiledCommand } = await import('./compiled-cli.js');
const compiled = await compiledCommand(dirname(dirname(fileURLToPath(import.meta.url))));
let main;
if (compiled) {
  // vitest loads the compiled configuration too (cli/vitest-config-file.ts): one copy of each module.
  globalThis[Symbol.for('gitlab-api-conformance:vitest-config')] = compiled.vitestConfig;
  try {
    ({ main } = await import(compiled.cli));
  } catch (error) {
    // A module the copy cannot resolve (one the sources import from outside what is copied): the
    // sources then run through tsx, as below. Any other error is the command's own, and stands.
    if (!/^ERR_(MODULE_NOT_FOUND|IMPORT_ATTRIBUTE|IMPORT_ASSERTION|UNKNOWN_FILE_EXTENSION)/.test(error?.code ?? '')) throw error;
    process.stderr.write(`gitlab-api-conformance: its compiled copy could not be loaded (${error.message.split('\n')[0]}); running its sources through tsx\n`);
    delete globalThis[Symbol.for('gitlab-api-conformance:vitest-config')];
  }
}
if (!main) {
  // Plain JavaScript modules load several times faster before tsx's hooks are in place (vitest's
  // hundreds: 0.3 s against 1.5 s on the machine of README's figures; with the server's and the
  // runner's libraries after them, about 0.35 s of CPU less for a small run); the CLI's own imports
  // then find them loaded. Only the commands that run the suite need them.
  const runsTheSuite = !['diff', 'sweep', 'serve', 'merge', '--version', '-v'].includes(args[0]) && !args.includes('--help') && !args.includes('-h');
  if (runsTheSuite) {
    await import('vitest/node');
    await Promise.all(['fastify', 'ajv/dist/2020.js', 'ajv-formats', 'yaml', '@faker-js/faker/locale/en', 'dotenv', 'diff'].map((name) => import(name)));
  }
  (await import('tsx/esm/api')).register();
  ({ main } = await import('../cli/cli.ts'));
}
process.exitCode = await main(args);

#!/usr/bin/env node
// The package's command: loads tsx so the TypeScript sources run as they are, then the CLI.
import { register } from 'tsx/esm/api';

// Plain JavaScript modules load several times faster before tsx's hooks are in place (vitest's
// hundreds: 0.3 s against 1.5 s on the machine of README's figures; with the server's and the
// runner's libraries after them, about 0.35 s of CPU less for a small run); the CLI's own imports
// then find them loaded. Only the commands that run the suite need them.
const args = process.argv.slice(2);
const runsTheSuite = !['diff', 'sweep', 'serve', '--version', '-v'].includes(args[0]) && !args.includes('--help') && !args.includes('-h');
if (runsTheSuite) {
  await import('vitest/node');
  await Promise.all(['fastify', 'ajv/dist/2020.js', 'ajv-formats', 'yaml', '@faker-js/faker/locale/en', 'dotenv', 'diff'].map((name) => import(name)));
}
register();
const { main } = await import('../cli/cli.ts');
process.exitCode = await main(args);

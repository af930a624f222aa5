#!/usr/bin/env node
// The package's command: loads tsx so the TypeScript sources run as they are, then the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../suites/harness/cli/cli.ts');
process.exitCode = await main(process.argv.slice(2));

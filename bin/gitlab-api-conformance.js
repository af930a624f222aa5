#!/usr/bin/env node
// The package's command: loads tsx so the TypeScript sources run as they are, then the CLI.
import { register } from 'tsx/esm/api';

// vitest's hundreds of plain JavaScript modules load about four times faster before tsx's hooks are
// in place (0.3 s against 1.5 s on the machine of README's figures); the CLI's own import of
// vitest/node then finds them loaded. Only the commands that run the suite need vitest.
const args = process.argv.slice(2);
if (!['diff', 'sweep', 'serve', '--version', '-v'].includes(args[0]) && !args.includes('--help') && !args.includes('-h')) await import('vitest/node');
register();
const { main } = await import('../cli/cli.ts');
process.exitCode = await main(args);

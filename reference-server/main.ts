#!/usr/bin/env node
// `gitlab-reference-server [options]` (the package's bin, compiled to dist/) and `npm run
// reference-server -- [options]`: the reference server alone (cli.ts; --help lists the options).
import { serve } from './cli.js';

process.exitCode = await serve(process.argv.slice(2));

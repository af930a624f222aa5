#!/usr/bin/env node
// `gitlab-reference-server [options]`. Installed, the compiled server (dist/, built when the package is
// packed: plain Node, the fastest start); in a clone (a .git beside), where dist/ may be missing or
// older than the sources, `gitlab-api-conformance serve [options]` from the sources, before any build.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/reference-server/main.js', import.meta.url);
if (!existsSync(new URL('../.git', import.meta.url)) && existsSync(compiled)) {
  await import(compiled.href);
} else {
  process.argv.splice(2, 0, 'serve');
  await import('./gitlab-api-conformance.js');
}

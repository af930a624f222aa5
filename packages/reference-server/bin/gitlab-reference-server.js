#!/usr/bin/env node
// `gitlab-reference-server [options]`: the reference server alone (--help lists the options),
// bundled from the suite's reference-server/ when this package is packed.
await import('../dist/main.js');

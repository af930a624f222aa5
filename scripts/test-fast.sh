#!/usr/bin/env bash
# npm run test:fast: the loop before every commit (CONTRIBUTING.md). The type check and the linter
# side by side, then the specs that start no whole run, then one area against the bundled server.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/static-checks.sh || exit 1
npx vitest run --project unit || exit 1
node bin/gitlab-api-conformance.js --area repository-files --report-dir reports/fast

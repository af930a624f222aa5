#!/usr/bin/env bash
# npm run test:fast: the loop before every commit (CONTRIBUTING.md). The type check and the linter
# side by side, then the specs that start no whole run, then one area against the bundled server.
set -uo pipefail
cd "$(dirname "$0")/.."
npx tsc --noEmit & typecheck=$!
npx eslint . & lint=$!
wait "$typecheck"; typecheck_status=$?
wait "$lint"; lint_status=$?
if [ "$typecheck_status" -ne 0 ] || [ "$lint_status" -ne 0 ]; then exit 1; fi
npx vitest run --project unit || exit 1
node bin/gitlab-api-conformance.js --area repository-files --report-dir reports/fast

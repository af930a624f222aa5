// `gitlab-api-conformance list`: the tests a selection holds, without running any (pytest's
// --collect-only): id, endpoint form, clauses, and what each needs of a target (capabilities, a
// version, set-up endpoints beyond the contract, fixtures). Text by default, one JSON object per
// line with --json. The test files are loaded (that is how their tests are declared); no request
// is sent to any target.
import { parseArgs } from 'node:util';
import { CATALOG } from '../suites/areas.js';
import type { TestMeta } from '../runner/run/conformance.js';
import { loadConfig } from '../runner/run/config.js';
import type { Home } from './home.js';
import { collectingVitest } from './selection.js';

export const LIST_HELP = `Usage: gitlab-api-conformance list [--area LIST] [--endpoint FORM ...] [--grep PATTERN] [--json]

Lists the tests a selection holds, without running any and without a target: id, endpoint form,
clauses, and what each needs (capabilities, a minimum version, set-up endpoints beyond the target
contract, fixtures). --json prints one JSON object per line.

Example:
  gitlab-api-conformance list --area remote-mirrors --grep host-keys`;

export async function list(args: string[], home: Home): Promise<number> {
  const { values } = parseArgs({ args, options: { area: { type: 'string' }, endpoint: { type: 'string', multiple: true }, grep: { type: 'string' }, json: { type: 'boolean' } } });
  const flags = {
    ...(values.area !== undefined ? { CONFORMANCE_AREAS: { value: values.area, flag: '--area' } } : {}),
    ...(values.endpoint !== undefined ? { CONFORMANCE_ENDPOINTS: { value: values.endpoint.join(';'), flag: '--endpoint' } } : {}),
  };
  // No target: listing sends nothing.
  const config = loadConfig({ ...process.env, CONFORMANCE_TARGET_URL: undefined }, '.env', CATALOG, flags);
  const selected = config.areas.length > 0 ? config.areas : CATALOG.areaNames;
  const filters = selected.length === CATALOG.areaNames.length ? [] : selected.map((a) => `suites/${a}/`);
  const vitest = await collectingVitest(home, config);
  const pattern = values.grep === undefined ? undefined : new RegExp(values.grep);
  const metas: TestMeta[] = [];
  try {
    const { testModules } = await vitest.collect(filters);
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance as TestMeta | undefined;
        if (!meta) continue;
        if (config.endpoints.length > 0 && !config.endpoints.includes(meta.endpoint)) continue;
        if (pattern && !pattern.test(`${meta.id}: ${meta.title}`)) continue;
        metas.push(meta);
      }
    }
  } finally {
    await vitest.close();
  }
  metas.sort((a, b) => a.id.localeCompare(b.id));
  for (const m of metas) {
    if (values.json) console.log(JSON.stringify(m));
    else {
      const { setting } = m.requires;
      const needs = [
        ...(m.requires.capabilities ?? []),
        ...(m.requires.minVersion ? [`GitLab ${m.requires.minVersion}`] : []),
        ...(setting ? [`${setting.name}=${JSON.stringify(setting.value)}`] : []),
        ...m.needs.map((n) => `set-up ${n}`),
      ];
      console.log(`${m.id}  ${m.endpoint}  [${m.clauses.join(', ')}]${m.level === 'parity' ? '  (parity level)' : ''}${needs.length ? `  needs: ${needs.join(', ')}` : ''}`);
    }
  }
  if (!values.json) console.error(`${metas.length} test(s)`);
  return metas.length > 0 ? 0 : 5;
}

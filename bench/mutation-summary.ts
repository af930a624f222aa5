// After `stryker run`: the mutation score per file of the reference server, from Stryker's JSON
// report, into reports/mutation/scores.json, a printed table, and README.md between the mutation
// markers. Score = killed (and timed out) over all mutants that compiled and ran, as Stryker counts it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Report {
  files: Record<string, { mutants: { status: string; mutatorName: string; replacement?: string; location: { start: { line: number } } }[] }>;
}

const report = JSON.parse(readFileSync(join(ROOT, 'reports', 'mutation', 'mutation.json'), 'utf8')) as Report;
const rows = Object.entries(report.files)
  .map(([file, { mutants }]) => {
    const count = (...states: string[]) => mutants.filter((m) => states.includes(m.status)).length;
    const killed = count('Killed', 'Timeout');
    const valid = killed + count('Survived', 'NoCoverage');
    return { file, mutants: mutants.length, killed, survived: count('Survived'), noCoverage: count('NoCoverage'), score: valid === 0 ? 100 : Math.round((1000 * killed) / valid) / 10 };
  })
  .sort((a, b) => a.file.localeCompare(b.file));
const total = rows.reduce((t, r) => ({ killed: t.killed + r.killed, valid: t.valid + r.killed + r.survived + r.noCoverage }), { killed: 0, valid: 0 });
const overall = Math.round((1000 * total.killed) / Math.max(total.valid, 1)) / 10;

writeFileSync(join(ROOT, 'reports', 'mutation', 'scores.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), overall, files: rows }, null, 2)}\n`);
const table = [
  `Mutation score ${overall}% (${total.killed} of ${total.valid} mutants killed), ${new Date().toISOString().slice(0, 10)}; \`npm run mutation\`.`,
  '',
  '| file | mutants | killed | survived | no coverage | score |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| \`${r.file}\` | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.score}% |`),
].join('\n');
console.log(`\n${table}\n`);
const readmePath = join(ROOT, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const marked = /<!-- mutation:start -->[\s\S]*<!-- mutation:end -->/;
if (marked.test(readme)) writeFileSync(readmePath, readme.replace(marked, `<!-- mutation:start -->\n${table}\n<!-- mutation:end -->`));

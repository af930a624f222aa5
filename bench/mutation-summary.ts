// After `stryker run`: the mutation score per file of the reference server, from Stryker's JSON
// report, into reports/mutation/scores.json, a printed table, and README.md between the mutation
// markers. Score = killed (and timed out) over all mutants that compiled and ran, as Stryker counts it.
// Ignored mutants are counted apart: static ones (ignoreStatic) and those marked in place with a reason.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Report {
  files: Record<string, { mutants: { status: string; statusReason?: string; mutatorName: string; replacement?: string; location: { start: { line: number } } }[] }>;
}

const report = JSON.parse(readFileSync(join(ROOT, 'reports', 'mutation', 'mutation.json'), 'utf8')) as Report;
const rows = Object.entries(report.files)
  .map(([file, { mutants }]) => {
    const count = (...states: string[]) => mutants.filter((m) => states.includes(m.status)).length;
    const killed = count('Killed', 'Timeout');
    const valid = killed + count('Survived', 'NoCoverage');
    const ignored = mutants.filter((m) => m.status === 'Ignored');
    const isStatic = (m: { statusReason?: string }) => (m.statusReason ?? '').startsWith('Static');
    return {
      file,
      mutants: mutants.length,
      killed,
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      marked: ignored.filter((m) => !isStatic(m)).length,
      static: ignored.filter(isStatic).length,
      score: valid === 0 ? 100 : Math.round((1000 * killed) / valid) / 10,
    };
  })
  .sort((a, b) => a.file.localeCompare(b.file));
const total = rows.reduce(
  (t, r) => ({ killed: t.killed + r.killed, valid: t.valid + r.killed + r.survived + r.noCoverage, marked: t.marked + r.marked, static: t.static + r.static }),
  { killed: 0, valid: 0, marked: 0, static: 0 },
);
const overall = Math.round((1000 * total.killed) / Math.max(total.valid, 1)) / 10;

writeFileSync(join(ROOT, 'reports', 'mutation', 'scores.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), overall, files: rows }, null, 2)}\n`);
const table = [
  `Mutation score ${overall}% (${total.killed} of ${total.valid} mutants killed), ${new Date().toISOString().slice(0, 10)}; \`npm run mutation\`. ` +
    `Left out of the score: ${total.marked} mutants marked equivalent or unconfirmed (each with its reason in the code) and ${total.static} static ones.`,
  '',
  '| file | mutants | killed | survived | no coverage | marked | static | score |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| \`${r.file}\` | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.marked} | ${r.static} | ${r.score}% |`),
].join('\n');
console.log(`\n${table}\n`);
const readmePath = join(ROOT, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const marked = /<!-- mutation:start -->[\s\S]*<!-- mutation:end -->/;
if (marked.test(readme)) writeFileSync(readmePath, readme.replace(marked, `<!-- mutation:start -->\n${table}\n<!-- mutation:end -->`));

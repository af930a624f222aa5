// After `stryker run`: the mutation score per file of the reference server, from Stryker's JSON
// report, into reports/mutation/scores.json, a printed table, and docs/proof-of-power.md between the mutation
// markers. Score = killed (and timed out) over all mutants that compiled and ran, as Stryker counts it.
// Ignored mutants are counted apart: static ones (ignoreStatic) and those marked in place with a reason.
// Every survivor must have its reason in bench/mutation-survivors.json (matched by file, line of code,
// mutator and replacement); the ones without are listed as not reviewed, in
// reports/mutation/survivors.md and in the line above the table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Reviewed {
  file: string;
  code: string;
  mutator: string;
  replacement?: string;
  reason: string;
}

interface Report {
  files: Record<string, { source: string; mutants: { status: string; statusReason?: string; mutatorName: string; replacement?: string; location: { start: { line: number } } }[] }>;
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

// The survivors, each with the reason it is left, from the reviewed list.
const reviewed = JSON.parse(readFileSync(join(ROOT, 'bench', 'mutation-survivors.json'), 'utf8')) as Reviewed[];
const used = new Set<Reviewed>();
const survivors = Object.entries(report.files).flatMap(([file, { source, mutants }]) => {
  const lines = source.split('\n');
  return mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .map((m) => {
      const code = lines[m.location.start.line - 1].trim();
      const entry = reviewed.find((r) => r.file === file && r.code === code && r.mutator === m.mutatorName && r.replacement === m.replacement);
      if (entry) used.add(entry);
      return { file, line: m.location.start.line, status: m.status, mutator: m.mutatorName, replacement: m.replacement ?? '', reason: entry?.reason };
    });
});
const unreviewed = survivors.filter((s) => s.reason === undefined);
const stale = reviewed.filter((r) => !used.has(r));
writeFileSync(
  join(ROOT, 'reports', 'mutation', 'survivors.md'),
  [
    `# Surviving mutants (${survivors.length}; ${unreviewed.length} not reviewed)`,
    '',
    '| file:line | mutator | replacement | why it is left |',
    '|---|---|---|---|',
    ...survivors.map((s) => `| \`${s.file}:${s.line}\` | ${s.mutator} | \`${s.replacement.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 60)}\` | ${s.reason ?? '**not reviewed**'} |`),
    '',
  ].join('\n'),
);
if (unreviewed.length > 0) console.log(`${unreviewed.length} surviving mutants are not reviewed yet: add them to bench/mutation-survivors.json (see reports/mutation/survivors.md)`);
if (stale.length > 0) console.log(`${stale.length} entries of bench/mutation-survivors.json match no survivor any more (killed, or the code moved): remove them`);

writeFileSync(join(ROOT, 'reports', 'mutation', 'scores.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), overall, files: rows }, null, 2)}\n`);
const table = [
  `Mutation score ${overall}% (${total.killed} of ${total.valid} mutants killed), ${new Date().toISOString().slice(0, 10)}; \`npm run mutation\`. ` +
    `Left out of the score: ${total.marked} mutants marked equivalent or unconfirmed (each with its reason in the code) and ${total.static} static ones. ` +
    `${survivors.length} survivors, ${unreviewed.length === 0 ? 'each' : `${survivors.length - unreviewed.length}`} with the reason it is left in \`bench/mutation-survivors.json\`${unreviewed.length === 0 ? '' : ` (${unreviewed.length} not reviewed yet)`}.`,
  '',
  '| file | mutants | killed | survived | no coverage | marked | static | score |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| \`${r.file}\` | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.marked} | ${r.static} | ${r.score}% |`),
].join('\n');
console.log(`\n${table}\n`);
const readmePath = join(ROOT, 'docs', 'proof-of-power.md');
const readme = readFileSync(readmePath, 'utf8');
const marked = /<!-- mutation:start -->[\s\S]*<!-- mutation:end -->/;
if (marked.test(readme)) writeFileSync(readmePath, readme.replace(marked, `<!-- mutation:start -->\n${table}\n<!-- mutation:end -->`));

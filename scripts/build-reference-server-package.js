// The package gitlab-reference-server (packages/reference-server/) made ready to pack, its `prepack`:
// the suite's reference-server/ (library entry index.ts, command main.ts) bundled by esbuild into
// packages/reference-server/dist/ with Fastify, Ajv, yaml and diff inside, so that the package has no
// dependency to install (52 packages, 19 MB on disk as plain dependencies; docs/performance.md); the
// types (.d.ts) by tsc; the seed, state and stubs schemas; the licences of what the bundle holds; and
// the repository's LICENSE. The sources stay the suite's: only this output is the package's own.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = join(root, 'packages', 'reference-server');
const dist = join(pkg, 'dist');
rmSync(dist, { recursive: true, force: true });

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ['reference-server/index.ts', 'reference-server/main.ts'],
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: dist,
  metafile: true,
  logLevel: 'warning',
  // The bundled CommonJS packages (Fastify's) call require for Node's own modules.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
});

// The types, from the same sources (they name Fastify's types for `server.app`).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const types = spawnSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
if (types.status !== 0) process.exit(types.status ?? 1);

for (const schema of ['seed/seed', 'state/state', 'stubs/stubs']) {
  copyFileSync(join(root, 'reference-server', `${schema}.schema.json`), join(dist, `${schema.split('/')[1]}.schema.json`));
}

// Every bundled package's name, version and licence text (MIT and alike ask for their notice to travel with the code).
const packages = [...new Set(Object.keys(metafile.inputs).flatMap((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []))].sort();
const notices = packages.map((dir) => {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const licenceFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE', 'license.md'].map((name) => join(root, dir, name)).find(existsSync);
  return `## ${manifest.name} ${manifest.version} (${manifest.license})\n\n${licenceFile ? readFileSync(licenceFile, 'utf8').trim() : `No licence file; package.json says ${manifest.license}.`}\n`;
});
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, 'THIRD-PARTY-LICENSES.md'), `# Packages bundled into gitlab-reference-server's dist/\n\n${notices.join('\n')}`);
copyFileSync(join(root, 'LICENSE'), join(pkg, 'LICENSE'));
console.log(`gitlab-reference-server: bundled into ${relative(root, dist)} with ${packages.length} packages`);

// A setup file of the mutation runs (vitest.mutation.config.ts).
//
// It makes the file's run, with a reference server of its own, before the file's first test. Code
// that runs once per server (module constants, the routes' registration) then runs outside every
// test, where Stryker's perTest coverage finds it static, as it is: a mutant there cannot be switched
// on for one test. Made lazily by the first test instead, that code would count as that test's and its
// mutants as survivors. The thread outlives the file (vitest.mutation.config.ts), the server and the
// run do not: a file never meets the state another file or another mutant left.
//
// And it makes a test's parity verdict its vitest verdict. Stryker reads only whether a test failed,
// and a conformance test never fails for its parity notes alone (the reporter decides both levels);
// the reference server is GitLab-shaped down to its texts and the order of its checks, so a mutant
// that only a parity note catches is caught.
import { afterAll, afterEach } from 'vitest';
import { endInWorkerRun, freshInWorkerRun } from '../runner/run/current-run.js';
import { CATALOG } from '../suites/areas.js';

await freshInWorkerRun(CATALOG);
// The run ends with the file: the thread's last file leaves no server running and no ledger behind.
afterAll(endInWorkerRun);

afterEach(({ task }) => {
  const notes = task.meta.outcome?.parity ?? [];
  if (notes.length > 0) throw new Error(`parity: ${notes.map((note) => note.text).join('\n')}`);
});

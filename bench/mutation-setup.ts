// A setup file of the mutation runs (vitest.mutation.config.ts): makes the worker's run, with its
// reference server, before the file's first test. Code that runs once per server (module constants,
// the routes' registration) then runs outside every test, where Stryker's perTest coverage finds it
// static, as it is: a mutant there cannot be switched on for one test. Made lazily by the first test
// instead, that code would count as that test's and its mutants as survivors.
import { currentRun } from '../runner/run/current-run.js';
import { CATALOG } from '../suites/areas.js';

await currentRun(CATALOG);

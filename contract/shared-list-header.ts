// The suite's race check (runner/run/shared-lists.ts, reference-server/neighbours.ts): the header a
// test's request about a source other tests of its file share carries, naming the test. Both sides
// import this one module; it imports nothing.
export const SHARED_LIST_HEADER = 'X-Conformance-Shared-List';

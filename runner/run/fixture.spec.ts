// Declared fixtures (fixture.ts) without a target: built lazily once per scope, a failure contained
// to the fixtures and tests built from it (unsupported when a set-up endpoint beyond the contract is
// what failed), declarations enforced, kept instances reset for reuse, per-kind instances; and the
// run's coordinator reached through its channel, with its bound on requests in flight.
import { describe, expect, test } from 'vitest';
import { giveSlot, takeSlot } from '../core/in-flight.js';
import { HarnessError } from '../core/errors.js';
import type { RunContext } from './context.js';
import { connect, local, reach, serve } from './coordinator-channel.js';
import { Coordinator } from './coordinator.js';
import { closure, fixture, FixtureUnavailable, needsOf, resolve, valueIn, type Fixture } from './fixture.js';
import { Frame, type Run } from './frame.js';
import { SetupError } from './maker.js';

function newRun(): Run & { tally: Coordinator } {
  const context = { targetUrl: 'http://127.0.0.1:9', adminToken: 'x', settings: { requestTimeoutMs: 1000 }, prefix: 'cnf-test', ledgerPath: '/tmp/unused.jsonl', runId: 'test' } as RunContext;
  const tally = new Coordinator(0);
  return { context, coordinator: local(tally), tally };
}

/** A test's frame, and the values of `fixtures` resolved for it (or the error). */
async function testWith(run: Run, file: string, fixtures: Fixture<unknown>[], kind: 'group' | 'project' = 'group') {
  const frame = new Frame(run, { holder: `test:${Math.random()}`, owner: 'owner', scope: 'scope' });
  const ended = await resolve(fixtures, frame, file, kind);
  return { read: <T>(f: Fixture<T>) => valueIn(frame, f), end: () => Promise.all(ended.map((e) => e.end())) };
}

function counting<T>(name: string, scope: 'run' | 'file' | 'test', value: () => T, extra: Partial<Parameters<typeof fixture<T>>[0]> = {}) {
  let builds = 0;
  const f = fixture<T>({
    name,
    scope,
    ...extra,
    build: async () => {
      builds++;
      return value();
    },
  });
  return { f, builds: () => builds };
}

describe('fixtures', () => {
  test('each is built when a test first asks for it, once per scope: run, file, test', async () => {
    const run = newRun();
    const r = counting('r', 'run', () => 'run value');
    const fl = counting('f', 'file', () => 'file value');
    const t = counting('t', 'test', () => 'test value');
    expect([r.builds(), fl.builds(), t.builds()]).toEqual([0, 0, 0]);
    for (const file of ['a.test.ts', 'a.test.ts', 'b.test.ts']) {
      const one = await testWith(run, file, [r.f, fl.f, t.f]);
      expect([one.read(r.f), one.read(fl.f), one.read(t.f)]).toEqual(['run value', 'file value', 'test value']);
    }
    expect([r.builds(), fl.builds(), t.builds()]).toEqual([1, 2, 3]);
  });

  test('a fixture read without being declared is the harness\'s error', async () => {
    const run = newRun();
    const declared = counting('declared', 'file', () => 1);
    const other = counting('other', 'file', () => 2);
    const one = await testWith(run, 'a.test.ts', [declared.f]);
    expect(() => one.read(other.f)).toThrow(/uses fixture "other" without declaring it/);
    expect(other.builds()).toBe(0);
  });

  test('a failing build fails its dependents alone, reported once; a set-up endpoint beyond the contract makes it a lack', async () => {
    const run = newRun();
    const lacking = fixture({
      name: 'requester',
      scope: 'run',
      requires: { setup: ['access-requests'] },
      build: async () => {
        throw new SetupError('request access', { actor: 'x', method: 'POST', url: '/api/v4/groups/1/access_requests', status: 404, headers: {}, body: { error: '404 Not Found' }, bytes: Buffer.alloc(0), durationMs: 0, retries: 0 }, [201], 'access-requests');
      },
    });
    const broken = fixture({ name: 'broken', scope: 'file', build: async () => Promise.reject(new HarnessError('setup failed: no')) });
    const above = fixture({ name: 'above', scope: 'file', fixtures: { lacking }, build: async ({ lacking }) => lacking });
    const fine = counting('fine', 'file', () => 'ok');
    const failure = await testWith(run, 'a.test.ts', [above]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FixtureUnavailable);
    expect((failure as FixtureUnavailable).failure.lacking).toEqual({ need: 'access-requests', endpoint: 'POST /groups/:id/access_requests, POST /projects/:id/access_requests' });
    expect((failure as Error).message).toMatch(/^the target lacks POST \/groups\/:id\/access_requests.*\(set-up "access-requests"\), which fixture "requester" needs/);
    const plain = await testWith(run, 'a.test.ts', [broken]).catch((e: unknown) => e);
    expect((plain as FixtureUnavailable).failure.lacking).toBeUndefined();
    expect((plain as Error).message).toBe('fixture "broken" could not be built: setup failed: no');
    expect((await testWith(run, 'a.test.ts', [fine.f])).read(fine.f)).toBe('ok');
    // The run's tally holds each failure once, however many tests and files asked.
    await testWith(run, 'b.test.ts', [above]).catch(() => undefined);
    await testWith(run, 'b.test.ts', [broken]).catch(() => undefined);
    expect(run.tally.tallies.tally().failures.map((f) => f.fixture)).toEqual(['requester', 'broken']);
  });

  test('what a test depends on: every fixture it is built from, and their set-up endpoints beyond the contract', () => {
    const a = fixture({ name: 'a', scope: 'run', requires: { setup: ['access-requests'] }, build: async () => 1 });
    const b = fixture({ name: 'b', scope: 'file', fixtures: { a }, requires: { setup: ['secondary-emails'] }, build: async () => 2 });
    const c = fixture({ name: 'c', scope: 'file', build: async () => 3 });
    expect(closure([b, c]).map((f) => f.spec.name)).toEqual(['b', 'a', 'c']);
    expect(needsOf([b, c]).sort()).toEqual(['access-requests', 'secondary-emails']);
    expect(() => fixture({ name: 'd', scope: 'run', fixtures: { b }, build: async () => 4 })).toThrow(/narrower scope/);
  });

  test('a test-scoped fixture with a reset is handed to a later test once reset; one that cannot be reset is replaced', async () => {
    const run = newRun();
    let made = 0;
    let resettable = true;
    const fresh = fixture({ name: 'fresh', scope: 'test', build: async () => ({ n: ++made }), reset: async () => resettable });
    const first = await testWith(run, 'a.test.ts', [fresh]);
    expect(first.read(fresh)).toEqual({ n: 1 });
    await first.end();
    const second = await testWith(run, 'b.test.ts', [fresh]);
    expect(second.read(fresh)).toEqual({ n: 1 });
    // Held by the second test: a third gets another.
    const third = await testWith(run, 'b.test.ts', [fresh]);
    expect(third.read(fresh)).toEqual({ n: 2 });
    await second.end();
    resettable = false;
    const fourth = await testWith(run, 'a.test.ts', [fresh]);
    expect(fourth.read(fresh)).toEqual({ n: 3 });
  });

  test('a fixture built per kind has an instance for each kind, the kind in its context', async () => {
    const run = newRun();
    const kinds: string[] = [];
    const world = fixture({ name: 'world', scope: 'file', perKind: true, build: async ({ kind }) => (kinds.push(kind!), kind) });
    expect((await testWith(run, 'a.test.ts', [world], 'group')).read(world)).toBe('group');
    expect((await testWith(run, 'a.test.ts', [world], 'project')).read(world)).toBe('project');
    expect((await testWith(run, 'a.test.ts', [world], 'group')).read(world)).toBe('group');
    expect(kinds).toEqual(['group', 'project']);
  });

  test('a set-up endpoint beyond the contract is used only where declared', () => {
    const frame = new Frame(newRun(), { holder: 'test:x', needs: ['access-requests'], scope: 'x' });
    expect(() => frame.mayUse('access-requests')).not.toThrow();
    expect(() => frame.mayUse('secondary-emails')).toThrow(/uses POST \/users\/:id\/emails .*without declaring it/);
  });
});

describe('the run\'s coordinator', () => {
  test('answers over its channel, errors included', async () => {
    const coordinator = new Coordinator(0);
    const stop = serve(coordinator, 'spec-channel');
    try {
      const client = connect('spec-channel');
      coordinator.lending.adopt({ id: 5, username: 'u5', name: 'U', email: 'u5@example.com', tokens: { api: 'x' } });
      expect(await client.lending.lease('h', [])).toEqual({ user: { id: 5, username: 'u5', name: 'U', email: 'u5@example.com', tokens: { api: 'x' } } });
      await client.tallies.count('f.test.ts', { checked: 2 });
      expect(coordinator.tallies.tally().requests.get('f.test.ts')?.checked).toBe(2);
      await expect((client.lending as unknown as { nope(): Promise<void> }).nope()).rejects.toThrow(/the run's coordinator: no such call: lending.nope/);
      await expect((client.shelves as unknown as Record<string, () => Promise<void>>).constructor()).rejects.toThrow(/no such call: shelves.constructor/);
      // The reporter's way, on a channel of its own beside the workers': the run's tally, whole.
      const { coordinator: reporter, close } = reach('spec-channel');
      expect((await reporter.tallies.tally()).requests.get('f.test.ts')?.checked).toBe(2);
      close();
    } finally {
      stop();
    }
  });

  test('a run fixture is built by the first to ask; the others wait for its value', async () => {
    const coordinator = new Coordinator(0);
    expect(coordinator.fixtures.state('x')).toEqual({ build: true });
    const waiting = coordinator.fixtures.state('x');
    coordinator.fixtures.publish('x', { value: 42 });
    expect(await waiting).toEqual({ value: 42 });
    expect(coordinator.fixtures.state('x')).toEqual({ value: 42 });
  });

  test('requests in flight never pass the bound, and the highest count is kept', async () => {
    const coordinator = new Coordinator(3);
    const { bindInFlight } = await import('../core/in-flight.js');
    bindInFlight(coordinator.tallies.inFlight());
    let now = 0;
    let highest = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        await takeSlot();
        highest = Math.max(highest, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
        giveSlot();
      }),
    );
    expect(highest).toBe(3);
    expect(coordinator.tallies.tally().highestInFlight).toBe(3);
    bindInFlight(new Coordinator(0).tallies.inFlight());
  });
});

describe('leases', () => {
  test('users a test asks for at once are numbered in the order asked, not in the order their leases end', async () => {
    const run = newRun();
    for (const id of [5, 6]) run.tally.lending.adopt({ id, username: `u${id}`, name: `U${id}`, email: `u${id}@example.com`, tokens: { api: `token-${id}` } });
    // The first lease reaches the coordinator 50 ms late: the second gets user 5 and ends first.
    let calls = 0;
    const lending = new Proxy(run.coordinator.lending, {
      get: (target, method: string) =>
        method === 'lease' && calls++ === 0
          ? async (...args: Parameters<typeof target.lease>) => (await new Promise((done) => setTimeout(done, 50)), target.lease(...args))
          : target[method as keyof typeof target],
    });
    const slowFirst = { ...run.coordinator, lending };
    const frame = new Frame({ ...run, coordinator: slowFirst }, { holder: 'test:order', owner: 'owner', scope: 'scope' });
    const [first, second] = await Promise.all([frame.lease(), frame.lease()]);
    expect([first.id, second.id]).toEqual([6, 5]);
    expect(frame.symbols.list().map((e) => `${e.symbol}=${e.id}`)).toEqual(['user#1=6', 'user#2=5']);
  });
});

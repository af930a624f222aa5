// The coordinator's phases of instance settings (coordination/setting-phases.ts, through the facade's
// names the workers call): the first test of a phase sets its value, the others wait for it; the
// ledger lists the setting while it may differ from its value before the run. Also its bounded shelves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Coordinator } from './coordinator.js';
import { Ledger } from './ledger.js';

const tmp = mkdtempSync(join(tmpdir(), 'conformance-coordinator-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let ledgers = 0;

/** A coordinator with a ledger of its own, and what that ledger lists to put back now. */
function withLedger(): { c: Coordinator; toPutBack: () => unknown[] } {
  const path = join(tmp, `ledger-${++ledgers}.jsonl`);
  const c = new Coordinator(0, new Ledger(path, 'r'));
  return { c, toPutBack: () => Ledger.outstanding(path).map((e) => (e.kind === 'setting' ? e.restore : e)) };
}

/** Whether a promise has settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const SET = { turn: 'set', lease: true };
const READY = { turn: 'ready' };

/** What puts the setting of these tests back to false. */
const RESTORE = { path: '/application/settings', body: { s: false } };

describe('setting phases', () => {
  test('the first test of a phase sets the value; the others wait until it is set, then run with it', async () => {
    const c = new Coordinator(0);
    expect(await c.settings.enter('s', 'true')).toEqual(SET);
    const second = c.settings.enter('s', 'true');
    expect(await settled(second)).toBe(false);
    c.settings.found('s', 'false', RESTORE);
    c.settings.set('s', true);
    expect(await second).toEqual(READY);
    expect(await c.settings.enter('s', 'true')).toEqual(READY);
  });

  test('the ledger lists what puts the value before the run back from before the first write until a phase of that value has set it again', async () => {
    const { c, toPutBack } = withLedger();
    expect(await c.settings.enter('s', 'true')).toEqual(SET);
    // Listed before the write: a run killed in between leaves it to sweep.
    c.settings.found('s', 'false', RESTORE);
    expect(toPutBack()).toEqual([RESTORE]);
    c.settings.set('s', true);
    expect(toPutBack()).toEqual([RESTORE]);
    // The next phase needs the value from before the run: once set, nothing is left to put back.
    expect(await c.settings.enter('s', 'false')).toEqual(SET);
    c.settings.found('s', 'true', { path: '/application/settings', body: { s: true } });
    expect(toPutBack()).toEqual([RESTORE]);
    c.settings.set('s', true);
    expect(toPutBack()).toEqual([]);
  });

  test('a phase whose value was there before the run lists nothing', async () => {
    const { c, toPutBack } = withLedger();
    expect(await c.settings.enter('s', 'false')).toEqual(SET);
    c.settings.found('s', 'false', RESTORE);
    c.settings.set('s', true);
    expect(toPutBack()).toEqual([]);
  });

  test('when the setter cannot set it, the next test of the phase tries; a failed write stays in the ledger', async () => {
    const { c, toPutBack } = withLedger();
    expect(await c.settings.enter('s', 'true')).toEqual(SET);
    const second = c.settings.enter('s', 'true');
    c.settings.found('s', 'false', RESTORE);
    c.settings.set('s', false);
    expect(await second).toEqual(SET);
    expect(toPutBack()).toEqual([RESTORE]);
    const third = c.settings.enter('s', 'true');
    c.settings.set('s', true);
    expect(await third).toEqual(READY);
  });
});

describe("the setting's lease on the target", () => {
  test('the first setter takes the lease; the ledger lists it, and no later setter of the run takes it again', async () => {
    const { c, toPutBack } = withLedger();
    expect(await c.settings.enter('s', 'false')).toEqual(SET);
    const lease = { path: 'cnf-lease-s', id: 7, holder: 'r', until: '2026-12-07T21:00:00.000Z' };
    c.settings.leaseTaken('s', lease);
    expect(toPutBack()).toMatchObject([{ kind: 'lease', name: 'cnf-lease-s', id: 7, until: lease.until }]);
    c.settings.found('s', 'false', RESTORE);
    c.settings.set('s', true);
    expect(await c.settings.enter('s', 'true')).toEqual({ turn: 'set', lease: false });
  });

  test('a lease another run holds refuses the waiting tests and those to come, with its reason', async () => {
    const c = new Coordinator(0);
    expect(await c.settings.enter('s', 'true')).toEqual(SET);
    const waiting = c.settings.enter('s', 'true');
    const refused = { turn: 'refused', reason: 'instance setting s is held by run other until 2026-12-07T21:00:00.000Z' };
    c.settings.leaseRefused('s', refused.reason);
    expect(await waiting).toEqual(refused);
    expect(await c.settings.enter('s', 'false')).toEqual(refused);
  });
});

describe('bounded shelves', () => {
  test('with all `most` sources in use, a turn waits until one is kept, then takes it', async () => {
    const c = new Coordinator(0);
    expect(await c.shelves.turn('fresh:group', 1)).toEqual({ build: true });
    const next = c.shelves.turn('fresh:group', 1);
    expect(await settled(next)).toBe(false);
    c.shelves.keep('fresh:group', { id: 5 });
    expect(await next).toEqual({ kept: { id: 5 } });
  });

  test('a source gone for good lets a waiting turn build another', async () => {
    const c = new Coordinator(0);
    await c.shelves.turn('fresh:project', 1);
    const next = c.shelves.turn('fresh:project', 1);
    c.shelves.gone('fresh:project');
    expect(await next).toEqual({ build: true });
  });
});

// The coordinator's holds of instance settings (coordination/setting-holds.ts, through the facade's
// names the workers call): tests that need one value hold it together; another value waits until
// they are done and the old value is back.
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

/** What puts the setting of these tests back to false. */
const RESTORE = { path: '/application/settings', body: { s: false } };

describe('setting holds', () => {
  test('the first holder sets the value; others of that value wait until it is set, then hold it with it', async () => {
    const c = new Coordinator(0);
    expect(await c.holdSetting('s', 'true')).toBe('set');
    const second = c.holdSetting('s', 'true');
    expect(await settled(second)).toBe(false);
    c.settingFound('s', 'false', RESTORE);
    c.settingSet('s', true);
    expect(await second).toBe('held');
    expect(c.leaveSetting('s')).toEqual({ last: false });
    expect(c.leaveSetting('s')).toEqual({ last: false });
  });

  test('with nobody waiting the value lingers: the next holder of it holds it at once, one of another value sets it, and the ledger lists what puts the first value back while it differs', async () => {
    const { c, toPutBack } = withLedger();
    expect(await c.holdSetting('s', 'true')).toBe('set');
    // Listed before the holder writes its value: a run killed in between leaves it to sweep.
    c.settingFound('s', 'false', RESTORE);
    expect(toPutBack()).toEqual([RESTORE]);
    c.settingSet('s', true);
    expect(c.leaveSetting('s')).toEqual({ last: false });
    expect(toPutBack()).toEqual([RESTORE]);
    expect(await c.holdSetting('s', 'true')).toBe('held');
    expect(c.leaveSetting('s')).toEqual({ last: false });
    // Another value over the lingering one: it sets its own, found at "true"; the value before the run, "false", is back.
    expect(await c.holdSetting('s', 'false')).toBe('set');
    c.settingFound('s', 'true', { path: '/application/settings', body: { s: true } });
    expect(toPutBack()).toEqual([]);
    c.settingSet('s', true);
    expect(c.leaveSetting('s')).toEqual({ last: false });
    expect(await c.holdSetting('s', 'true')).toBe('set');
    c.settingFound('s', 'false', { path: '/application/settings', body: { s: false } });
    expect(toPutBack()).toEqual([RESTORE]);
    c.settingSet('s', false);
    // It could not: the lingering value, the one before the run, stays.
    expect(toPutBack()).toEqual([]);
    expect(await c.holdSetting('s', 'false')).toBe('held');
    expect(c.leaveSetting('s')).toEqual({ last: false });
  });

  test('another value waits until the last holder has put the old value back; newcomers of the held value queue behind it', async () => {
    const c = new Coordinator(0);
    const { c: ledgered, toPutBack } = withLedger();
    for (const coordinator of [c, ledgered]) {
      expect(await coordinator.holdSetting('s', 'true')).toBe('set');
      coordinator.settingFound('s', 'false', RESTORE);
      coordinator.settingSet('s', true);
    }
    const other = c.holdSetting('s', 'false');
    const late = c.holdSetting('s', 'true');
    expect(await settled(other)).toBe(false);
    expect(await settled(late)).toBe(false);
    expect(c.leaveSetting('s')).toEqual({ last: true, restore: RESTORE });
    expect(await settled(other)).toBe(false);
    // Nobody takes the hold while the old value is put back.
    const meanwhile = c.holdSetting('s', 'true');
    expect(await settled(meanwhile)).toBe(false);
    c.settingRestored('s');
    expect(await other).toBe('set');
    expect(await settled(late)).toBe(false);
    expect(await settled(meanwhile)).toBe(false);
    // The ledger lists the setting until the old value is back; a failed put-back leaves it listed.
    void ledgered.holdSetting('s', 'false');
    expect(ledgered.leaveSetting('s')).toEqual({ last: true, restore: RESTORE });
    ledgered.settingRestored('s', false);
    expect(toPutBack()).toEqual([RESTORE]);
  });

  test('a last holder whose value was there before is handed nothing to put back', async () => {
    const c = new Coordinator(0);
    expect(await c.holdSetting('s', 'false')).toBe('set');
    c.settingFound('s', 'false', RESTORE);
    c.settingSet('s', true);
    const other = c.holdSetting('s', 'true');
    expect(await settled(other)).toBe(false);
    expect(c.leaveSetting('s')).toEqual({ last: true, restore: undefined });
    c.settingRestored('s');
    expect(await other).toBe('set');
  });

  test('when the first holder cannot set it, those waiting for it are told to try again', async () => {
    const c = new Coordinator(0);
    expect(await c.holdSetting('s', 'true')).toBe('set');
    const second = c.holdSetting('s', 'true');
    c.settingSet('s', false);
    expect(await second).toBe('retry');
    expect(await c.holdSetting('s', 'true')).toBe('set');
  });
});

describe('bounded shelves', () => {
  test('with all `most` sources in use, a turn waits until one is kept, then takes it', async () => {
    const c = new Coordinator(0);
    expect(await c.shelfTurn('fresh:group', 1)).toEqual({ build: true });
    const next = c.shelfTurn('fresh:group', 1);
    expect(await settled(next)).toBe(false);
    c.keep('fresh:group', { id: 5 });
    expect(await next).toEqual({ kept: { id: 5 } });
  });

  test('a source gone for good lets a waiting turn build another', async () => {
    const c = new Coordinator(0);
    await c.shelfTurn('fresh:project', 1);
    const next = c.shelfTurn('fresh:project', 1);
    c.unmade('fresh:project');
    expect(await next).toEqual({ build: true });
  });
});

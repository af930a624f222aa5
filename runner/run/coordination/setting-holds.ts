// Holds of instance settings: tests that need a setting at one value hold it together, a test that
// needs another value waits until they are done (hold); a value nobody waits to change lingers until
// the run's teardown puts the old one back: the run's ledger says what to put back while a setting
// differs from its value before the run, so `sweep` can after a killed run too.
import type { Ledger, SettingRestore } from '../ledger.js';
import { WaitList } from './wait-list.js';

interface SettingHold {
  value: string;
  holders: number;
  /** The value it had before the first holder set it (JSON), to put back when the holds are over. */
  previous?: string;
  /** The administrator's request that puts `previous` back. */
  restore?: SettingRestore;
  /** The ledger lists it: its value differs from `previous`, or may. */
  inLedger?: boolean;
  /** The value in place while a holder of another value, come after the last one left, sets its own. */
  lingered?: string;
  ready: boolean;
  /** The last holder is putting the old value back. */
  leaving?: boolean;
  /** Holders of its value waiting for it to be set: woken with whether it was. */
  onReady: WaitList<boolean>;
  /** Holders of another value (and those queued behind them). */
  waiting: WaitList;
}

export class SettingHolds {
  private readonly holds = new Map<string, SettingHold>();

  /** `ledger`: the run's, where settings the run changes are listed until they are put back. */
  constructor(private readonly ledger?: Ledger) {}

  /**
   * Joins the holders of instance setting `name` at `value` (a JSON text). `set`: the caller sets it
   * and reports with set; `held`: it is at that value; `retry`: the one who was setting it failed. A
   * holder of another value waits, and so does everyone who comes after it. With no holder left and
   * nobody waiting, the value lingers: the next holder of it holds it without a request, and the run's
   * teardown puts the old value back (the ledger lists it). Holders lease their users before they hold
   * a setting: one that waited for a user while holding it could wait on a test that waits for the setting.
   */
  async hold(name: string, value: string): Promise<'set' | 'held' | 'retry'> {
    for (;;) {
      const hold = this.holds.get(name);
      if (!hold) {
        this.holds.set(name, { value, holders: 1, ready: false, onReady: new WaitList<boolean>(), waiting: new WaitList() });
        return 'set';
      }
      if (hold.holders === 0 && hold.ready && !hold.leaving) {
        hold.holders = 1;
        if (hold.value === value) return 'held';
        Object.assign(hold, { lingered: hold.value, value, ready: false });
        return 'set';
      }
      if (hold.value === value && hold.waiting.size === 0 && !hold.leaving) {
        hold.holders++;
        if (hold.ready) return 'held';
        return (await hold.onReady.wait()) ? 'held' : 'retry';
      }
      await hold.waiting.wait();
    }
  }

  /**
   * The holder told to set the setting found it at `previous`, which `restore` puts back. Called before
   * it writes its own value: from then until the value before the run is back, the ledger lists it.
   */
  found(name: string, previous: string, restore: SettingRestore): void {
    const hold = this.holds.get(name)!;
    // A hold that took over a lingering value keeps the value from before the run.
    if (hold.previous === undefined) Object.assign(hold, { previous, restore });
    this.note(hold, name);
  }

  /** The holder told to set the setting did (`ok`), or could not: it lets go, and a value that lingered before stays in place. */
  set(name: string, ok: boolean): void {
    const hold = this.holds.get(name)!;
    if (ok) {
      Object.assign(hold, { ready: true, lingered: undefined });
    } else if (hold.lingered !== undefined) {
      Object.assign(hold, { value: hold.lingered, lingered: undefined, holders: 0, ready: true });
      this.note(hold, name);
    } else {
      // The value is unknown now: the ledger keeps what puts the old one back.
      this.holds.delete(name);
    }
    hold.onReady.wakeAll(ok);
    if (!ok) hold.waiting.wakeAll();
  }

  /**
   * A holder is done. When it was the last and a holder of another value waits, it is handed the
   * request that puts the old value back (none when the value is that already), and calls restored
   * when it has sent it; with nobody waiting the value lingers.
   */
  leave(name: string): { last: true; restore?: SettingRestore } | { last: false } {
    const hold = this.holds.get(name)!;
    if (--hold.holders > 0 || hold.waiting.size === 0) return { last: false };
    hold.leaving = true;
    return { last: true, restore: this.restoreOf(hold) };
  }

  /** The last holder has put the old value back (`ok`), or tried: the ledger still lists it then, for the teardown. */
  restored(name: string, ok = true): void {
    const hold = this.holds.get(name)!;
    if (ok && hold.inLedger) this.ledger?.markRestored(name, hold.restore!);
    this.holds.delete(name);
    hold.waiting.wakeAll();
  }

  /** The request that puts a hold's setting back to its value before the run, when it has another now. */
  private restoreOf(hold: SettingHold): SettingRestore | undefined {
    return hold.previous !== hold.value ? hold.restore : undefined;
  }

  /** Keeps the ledger in step with a hold: it lists the setting while the value differs from the one before the run. */
  private note(hold: SettingHold, name: string): void {
    const differs = this.restoreOf(hold) !== undefined;
    if (differs && !hold.inLedger) this.ledger?.recordSetting(name, hold.restore!);
    else if (!differs && hold.inLedger) this.ledger?.markRestored(name, hold.restore!);
    hold.inLedger = differs;
  }
}

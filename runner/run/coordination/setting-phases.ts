// Instance settings, one phase per value (core/instance-setting.ts): the run's phases never overlap
// (vitest.config.ts runs them one after another), so within a phase every test needs the same value.
// The first test of a phase sets it (`set`), the others wait until it has (`ready`); a setter that
// failed hands the task to the next one. The run's ledger lists a setting while its value may differ
// from the one before the run: the run's teardown, or `sweep` after a killed run, puts it back.
// Other runs of the instance (other shards, other pipelines) change the setting too: before its first
// write the run takes the setting's lease on the target (target-lease.ts), and holds it until its
// teardown has put the setting back; a run that cannot get it in time has its phases' tests
// `unsupported`, with the holder named.
import type { Ledger, SettingRestore } from '../ledger.js';
import type { TargetLease } from '../target-lease.js';
import { WaitList } from './wait-list.js';

interface SettingState {
  /** The value set by the run (JSON); undefined before the first phase, and after a write that failed. */
  value?: string;
  /** The value being set, while a test sets it. */
  setting?: string;
  /** Its value before the run (JSON) and the request that puts it back, from the first setter. */
  previous?: string;
  restore?: SettingRestore;
  /** The ledger lists it. */
  inLedger: boolean;
  /** Tests waiting for the value being set: woken with whether it was. */
  onSet: WaitList<boolean>;
  /** The run holds the setting's lease on the target. */
  leased: boolean;
  /** Why the run could not get the lease (another run holds it): every test of the setting's phases is unsupported. */
  refused?: string;
}

/** What a test of a phase does: waits for nothing (`ready`), sets the value (taking the lease first when `lease`), or is refused. */
export type PhaseTurn = { turn: 'ready' } | { turn: 'set'; lease: boolean } | { turn: 'refused'; reason: string };

export class SettingPhases {
  private readonly settings = new Map<string, SettingState>();

  /** `ledger`: the run's, where settings the run changes are listed until they are put back. */
  constructor(private readonly ledger?: Ledger) {}

  /**
   * A test of the phase of `name` at `value` (JSON) starts: `set` tells it to set the value (after
   * taking the lease, reported with leaseTaken or leaseRefused) and report with found and set.
   */
  async enter(name: string, value: string): Promise<PhaseTurn> {
    for (;;) {
      const state = this.settings.get(name) ?? this.add(name);
      if (state.refused !== undefined) return { turn: 'refused', reason: state.refused };
      if (state.setting === undefined) {
        if (state.value === value) return { turn: 'ready' };
        state.setting = value;
        return { turn: 'set', lease: !state.leased };
      }
      if ((await state.onSet.wait()) && state.value === value) return { turn: 'ready' };
    }
  }

  /** The setter holds the lease of `name` on the target: the ledger lists it until it is released. */
  leaseTaken(name: string, lease: TargetLease): void {
    this.settings.get(name)!.leased = true;
    this.ledger?.recordLease(lease);
  }

  /** The setter could not get the lease (`reason` names its holder): the tests of the setting, waiting or to come, are refused. */
  leaseRefused(name: string, reason: string): void {
    const state = this.settings.get(name)!;
    state.refused = reason;
    state.setting = undefined;
    state.onSet.wakeAll(false);
  }

  /** The setter found the setting at `previous` (JSON), which `restore` puts back; called before it writes. */
  found(name: string, previous: string, restore: SettingRestore): void {
    const state = this.settings.get(name)!;
    if (state.previous === undefined) Object.assign(state, { previous, restore });
    if (state.setting !== state.previous && !state.inLedger) {
      this.ledger?.recordSetting(name, state.restore!);
      state.inLedger = true;
    }
  }

  /** The setter wrote the value (`ok`), or could not: the value is then unknown, and the next test of the phase tries. */
  set(name: string, ok: boolean): void {
    const state = this.settings.get(name)!;
    state.value = ok ? state.setting : undefined;
    state.setting = undefined;
    if (ok && state.value === state.previous && state.inLedger) {
      this.ledger?.markRestored(name, state.restore!);
      state.inLedger = false;
    }
    state.onSet.wakeAll(ok);
  }

  private add(name: string): SettingState {
    const state: SettingState = { inLedger: false, onSet: new WaitList<boolean>(), leased: false };
    this.settings.set(name, state);
    return state;
  }
}

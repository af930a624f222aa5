// The run-scoped fixtures (fixture.ts): the first file to ask builds one, the others wait for its
// value or its failure; and every fixture that could not be built, once, for the run's report.
import { WaitList } from './wait-list.js';

/** Why a fixture could not be built: for its dependents (FixtureUnavailable) and, once, for the run's report. */
export interface FixtureFailure {
  fixture: string;
  scope: string;
  /** The set-up endpoint beyond the target contract that failed (its dependents are unsupported), if that was the cause. */
  lacking?: { need: string; endpoint: string };
  message: string;
}

export type RunFixtureState = { build: true } | { value: unknown } | { failure: FixtureFailure };

export class RunFixtures {
  private readonly fixtures = new Map<string, { state: RunFixtureState; built: WaitList<RunFixtureState> }>();
  readonly failures: FixtureFailure[] = [];

  /** The state of a run-scoped fixture: the first caller is told to build it, later ones wait for its end. */
  state(name: string): Promise<RunFixtureState> | RunFixtureState {
    const entry = this.fixtures.get(name);
    if (!entry) {
      this.fixtures.set(name, { state: { build: true }, built: new WaitList() });
      return { build: true };
    }
    if (!('build' in entry.state)) return entry.state;
    return entry.built.wait();
  }

  publish(name: string, state: { value: unknown } | { failure: FixtureFailure }): void {
    const entry = this.fixtures.get(name)!;
    entry.state = state;
    entry.built.wakeAll(state);
    if ('failure' in state) this.failures.push(state.failure);
  }

  /** A fixture of a narrower scope could not be built: reported once for its name and message. */
  failed(failure: FixtureFailure): void {
    if (!this.failures.some((f) => f.fixture === failure.fixture && f.message === failure.message)) this.failures.push(failure);
  }
}

// A test of a setting's phase (core/instance-setting.ts) starts here, before its fixtures: the first
// of the phase reads the setting as the administrator, has the run's ledger list the value to put
// back, and writes the value the phase needs; the others wait for that (coordination/setting-phases.ts).
// Reading needs "application-settings-read": the settings are read with GET (lib/api/settings.rb
// `get "application/settings"`), beyond the target contract; a PUT needs at least one setting there
// (`at_least_one_of`), so it cannot read them. Before the run first changes a setting, it takes the
// setting's lease on the target (target-lease.ts), so that no other run changes it meanwhile.
import { Client } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import type { SettingValue } from '../core/instance-setting.js';
import type { Frame } from './frame.js';
import { SetupError } from './maker.js';
import { acquireLease, LeaseRefused } from './target-lease.js';

const SETTINGS_PATH = '/application/settings';

export async function enterPhase(frame: Frame, setting: SettingValue): Promise<void> {
  const { coordinator, context } = frame.run;
  const value = JSON.stringify(setting.value);
  for (;;) {
    const next = await coordinator.settings.enter(setting.name, value);
    if (next.turn === 'ready') return;
    if (next.turn === 'refused') throw new LeaseRefused(next.reason);
    try {
      if (next.lease) {
        // Not in the test's log: the lease is the run's business, not the exchange the test checks.
        const admin = new Client(context.targetUrl, context.adminToken, 'admin (lease)', { timeoutMs: context.settings.requestTimeoutMs, maxBytes: context.settings.maxAnswerBytes });
        const answer = await acquireLease(admin, setting.name, context.runId, { waitMs: context.settings.leaseWaitMs });
        if ('refused' in answer) {
          await coordinator.settings.leaseRefused(setting.name, answer.refused);
          throw new LeaseRefused(answer.refused);
        }
        await coordinator.settings.leaseTaken(setting.name, answer.lease);
      }
      const before = await frame.make.setup('read the application settings', frame.admin.get(SETTINGS_PATH), [200], 'application-settings-read');
      if (!Object.hasOwn(before, setting.name)) throw new HarnessError(`set-up: GET /api/v4${SETTINGS_PATH} shows no ${setting.name}, which the test needs at ${value}`);
      const previous = before[setting.name];
      await coordinator.settings.found(setting.name, JSON.stringify(previous), { path: SETTINGS_PATH, body: { [setting.name]: previous } });
      if (JSON.stringify(previous) !== value) {
        const res = await frame.admin.put(SETTINGS_PATH, { body: { [setting.name]: setting.value } });
        if (res.status !== 200 || (res.body as Record<string, unknown>)[setting.name] !== setting.value) throw new SetupError(`set ${setting.name} to ${value}`, res, [200]);
      }
      await coordinator.settings.set(setting.name, true);
      return;
    } catch (error) {
      if (!(error instanceof LeaseRefused)) await coordinator.settings.set(setting.name, false);
      throw error;
    }
  }
}

// A test of a setting's phase (core/instance-setting.ts) starts here, before its fixtures: the first
// of the phase reads the setting as the administrator, has the run's ledger list the value to put
// back, and writes the value the phase needs; the others wait for that (coordination/setting-phases.ts).
// Reading needs "application-settings-read": the settings are read with GET (lib/api/settings.rb
// `get "application/settings"`), beyond the target contract; a PUT needs at least one setting there
// (`at_least_one_of`), so it cannot read them.
import { HarnessError } from '../core/errors.js';
import type { SettingValue } from '../core/instance-setting.js';
import type { Frame } from './frame.js';
import { SetupError } from './maker.js';

const SETTINGS_PATH = '/application/settings';

export async function enterPhase(frame: Frame, setting: SettingValue): Promise<void> {
  const { coordinator } = frame.run;
  const value = JSON.stringify(setting.value);
  while ((await coordinator.enterPhase(setting.name, value)) === 'set') {
    try {
      const before = await frame.make.setup('read the application settings', frame.admin.get(SETTINGS_PATH), [200], 'application-settings-read');
      if (!Object.hasOwn(before, setting.name)) throw new HarnessError(`set-up: GET /api/v4${SETTINGS_PATH} shows no ${setting.name}, which the test needs at ${value}`);
      const previous = before[setting.name];
      await coordinator.settingFound(setting.name, JSON.stringify(previous), { path: SETTINGS_PATH, body: { [setting.name]: previous } });
      if (JSON.stringify(previous) !== value) {
        const res = await frame.admin.put(SETTINGS_PATH, { body: { [setting.name]: setting.value } });
        if (res.status !== 200 || (res.body as Record<string, unknown>)[setting.name] !== setting.value) throw new SetupError(`set ${setting.name} to ${value}`, res, [200]);
      }
      await coordinator.settingSet(setting.name, true);
      return;
    } catch (error) {
      await coordinator.settingSet(setting.name, false);
      throw error;
    }
  }
}

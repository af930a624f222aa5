// The instance setting enable_member_promotion_management, which the members and invitations areas
// both test: with it on, a non-administrator's request that gives a billable role to a user who holds
// no seat yet is queued for an administrator's approval instead of carried out.
import type { SetupContext } from '../../runner/run/fixture.js';
import { SetupError } from '../../runner/run/maker.js';

/** The text put against each queued user: the spec quotes it (Endpoints/Invitations, POST), so it is checked at the spec level. */
export const QUEUED = 'Request queued for administrator approval.';

/**
 * Sets the setting (a set-up step, as the administrator); no write when it has that value already.
 * The value it had goes to the coordinator first, and with it to the run's ledger: a killed run's
 * `sweep` puts it back. The test needs "application-settings-read": the settings are read with GET
 * (lib/api/settings.rb `get "application/settings"`), beyond the target contract; a PUT needs at
 * least one setting there (`at_least_one_of`), so it cannot read them.
 */
async function setPromotionManagement(ctx: SetupContext, value: boolean): Promise<void> {
  const { make, admin, coordinator } = ctx;
  const before = await make.setup('read the application settings', admin.get('/application/settings'), [200], 'application-settings-read');
  const previous = before.enable_member_promotion_management === true;
  await coordinator.settingFound(SETTING, JSON.stringify(previous), { path: '/application/settings', body: { [SETTING]: previous } });
  if (previous !== value) await putPromotionManagement(ctx, value);
}

/** Writes the setting and checks the answer shows it. */
async function putPromotionManagement({ admin }: SetupContext, value: boolean): Promise<void> {
  const res = await admin.put('/application/settings', { body: { enable_member_promotion_management: value } });
  if (res.status !== 200 || (res.body as { enable_member_promotion_management?: unknown }).enable_member_promotion_management !== value) {
    throw new SetupError(`set enable_member_promotion_management to ${value}`, res, [200]);
  }
}

/**
 * Runs `body` of the test of `ctx` with the setting at `value`. Tests that need the same value run at
 * once; one that needs the other value waits until they are done (the coordinator's setting holds).
 * The value the first holder found is put back by the last holder when a test waits for the other
 * value, else by the run's teardown: tests that need it on one after another (they wait for seatless
 * users) set it once. Lease the users `body` needs before: a test that waits for a user inside `body`
 * may wait on a test that waits for the setting.
 */
export async function withPromotionManagement(ctx: SetupContext, value: boolean, body: () => Promise<void>): Promise<void> {
  const { coordinator } = ctx;
  for (;;) {
    const turn = await coordinator.holdSetting(SETTING, JSON.stringify(value));
    if (turn === 'held') break;
    if (turn === 'retry') continue;
    try {
      await setPromotionManagement(ctx, value);
      await coordinator.settingSet(SETTING, true);
      break;
    } catch (error) {
      await coordinator.settingSet(SETTING, false);
      throw error;
    }
  }
  try {
    await body();
  } finally {
    const leave = await coordinator.leaveSetting(SETTING);
    if (leave.last) {
      let restored = false;
      try {
        if (leave.restore) await putPromotionManagement(ctx, leave.restore.body[SETTING] as boolean);
        restored = true;
      } finally {
        await coordinator.settingRestored(SETTING, restored);
      }
    }
  }
}

const SETTING = 'enable_member_promotion_management';

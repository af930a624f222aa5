// The instance setting enable_member_promotion_management, which the members and invitations areas
// both test: with it on, a non-administrator's request that gives a billable role to a user who holds
// no seat yet is queued for an administrator's approval instead of carried out.
import { currentFrame } from '../harness/run/frame.js';
import { SetupError } from '../harness/run/maker.js';

/** The text put against each queued user: the spec quotes it (Endpoints/Invitations, POST), so it is checked at the spec level. */
export const QUEUED = 'Request queued for administrator approval.';

/**
 * Sets the setting (a set-up step, as the administrator) and returns the value it had. The test
 * needs "application-settings-read": the settings are read with GET (lib/api/settings.rb `get
 * "application/settings"`), beyond the target contract; a PUT needs at least one setting there
 * (`at_least_one_of`), so it cannot read them.
 */
export async function setPromotionManagement(value: boolean): Promise<boolean> {
  const { make, admin } = currentFrame();
  const before = await make.setup('read the application settings', admin.get('/application/settings'), [200], 'application-settings-read');
  const previous = before.enable_member_promotion_management === true;
  const res = await admin.put('/application/settings', { body: { enable_member_promotion_management: value } });
  if (res.status !== 200 || (res.body as { enable_member_promotion_management?: unknown }).enable_member_promotion_management !== value) {
    throw new SetupError(`set enable_member_promotion_management to ${value}`, res, [200]);
  }
  return previous;
}

/** Runs `body` with the setting at `value`, then puts back the value it found. */
export async function withPromotionManagement(value: boolean, body: () => Promise<void>): Promise<void> {
  const previous = await setPromotionManagement(value);
  try {
    await body();
  } finally {
    await setPromotionManagement(previous);
  }
}

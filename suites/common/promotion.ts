// The instance setting enable_member_promotion_management, which the members and invitations areas
// both test: with it on, a non-administrator's request that gives a billable role to a user who holds
// no seat yet is queued for an administrator's approval instead of carried out.
import { expectEqual, expectStatus } from '../harness/core/checks.js';
import type { Client } from '../harness/core/client.js';

/** The text put against each queued user: the spec quotes it (Endpoints/Invitations, POST), so it is checked at the spec level. */
export const QUEUED = 'Request queued for administrator approval.';

/** Sets the setting (as the administrator) and returns the value it had. */
export async function setPromotionManagement(admin: Client, value: boolean): Promise<boolean> {
  // The settings are read with GET (lib/api/settings.rb `get "application/settings"`); a PUT needs at
  // least one setting there (`at_least_one_of`), so it cannot read them.
  const before = await admin.get('/application/settings');
  expectStatus(before, 200, 'reading the application settings');
  const previous = (before.body as { enable_member_promotion_management?: boolean }).enable_member_promotion_management === true;
  const res = await admin.put('/application/settings', { body: { enable_member_promotion_management: value } });
  expectStatus(res, 200, 'changing enable_member_promotion_management');
  expectEqual((res.body as { enable_member_promotion_management?: boolean }).enable_member_promotion_management, value, 'the setting to take the new value', res);
  return previous;
}

/** Runs `body` with the setting at `value`, then puts back the value it found. */
export async function withPromotionManagement(admin: Client, value: boolean, body: () => Promise<void>): Promise<void> {
  const previous = await setPromotionManagement(admin, value);
  try {
    await body();
  } finally {
    await setPromotionManagement(admin, previous);
  }
}

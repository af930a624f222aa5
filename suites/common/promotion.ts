// The instance setting enable_member_promotion_management, which the members and invitations areas
// both test: with it on, a non-administrator's request that gives a billable role to a user who holds
// no seat yet is queued for an administrator's approval instead of carried out. Tests declare the
// value they need (`requires: { setting: at(PROMOTION_MANAGEMENT, true) }`); the run gives each value
// a phase of its own (runner/core/instance-setting.ts).
import type { InstanceSetting } from '../../runner/core/instance-setting.js';
import { fixture } from '../../runner/run/fixture.js';

/** Off first: on a GitLab where it is off, the first phase changes nothing. */
export const PROMOTION_MANAGEMENT: InstanceSetting<boolean> = { name: 'enable_member_promotion_management', values: [false, true] };

/** The text put against each queued user: the spec quotes it (Endpoints/Invitations, POST), so it is checked at the spec level. */
export const QUEUED = 'Request queued for administrator approval.';

/**
 * For a test of the main phase that reads the setting twice and compares: other runs of the instance
 * change it in their phases, so the test holds the setting's lease on the target while it reads
 * (runner/run/target-lease.ts; a run's phases, after its main phase, take the same lease).
 */
export const promotionSettingRead = fixture({
  name: 'promotion-setting-unchanged',
  scope: 'run',
  alone: 'it reads the instance setting twice and compares',
  leaseOnTarget: PROMOTION_MANAGEMENT.name,
  build: () => Promise.resolve({}),
});

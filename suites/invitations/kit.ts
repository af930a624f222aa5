// The invitations area's kit, extended once: what every invitations test makes and leases besides
// the base kit (addresses, users of its own, seatless users, secondary addresses, access requesters),
// and its `endpoint`.
import type { SourceInfo } from '../../runner/core/vocabulary.js';
import { areaKit } from '../../runner/run/conformance.js';
import type { ActorInfo } from '../../runner/run/context.js';
import type { BuildContext } from '../../runner/run/fixture.js';
import { invitations } from './area.js';

export interface InvitationsKit {
  /** A new address on example.com that belongs to nobody. */
  email(hint?: string): string;
  /** A new user of the test's own, a member of nothing: for a test that changes the user itself (its addresses). */
  newcomer(): Promise<ActorInfo>;
  /** A user who holds no seat (Frame.leaseSeatless): for the promotion-approval tests; taken out of what it was given after the test. */
  seatless(): Promise<ActorInfo>;
  /** Gives `user` a new secondary address, confirmed or not, and returns it (the test needs "secondary-emails"). */
  secondaryEmail(user: ActorInfo, confirmed: boolean): Promise<string>;
  /** A user lent to the test whose access request to `source` (a public one) is pending (the test needs "access-requests"). */
  requester(source: SourceInfo): Promise<ActorInfo>;
}

function invitationsKit(ctx: BuildContext): InvitationsKit {
  return {
    email: (hint) => ctx.names.email(hint),
    newcomer: () => ctx.make.user(),
    seatless: () => ctx.leaseSeatless(),
    async secondaryEmail(user, confirmed) {
      const address = ctx.names.email('secondary');
      await ctx.make.addEmail(user, address, confirmed);
      return address;
    },
    async requester(source) {
      const user = await ctx.lease();
      await ctx.make.requestAccess(source, user);
      return user;
    },
  };
}

export const { endpoint } = areaKit(invitations, { extend: invitationsKit });

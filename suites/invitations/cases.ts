// Cases more than one invitations endpoint runs, each added to an endpoint's suite by a factory.
import type { Client, Exchange } from '../../runner/core/client.js';
import { ACCESS, type SourceRef } from '../../runner/core/vocabulary.js';
import type { Endpoint } from '../../runner/run/conformance.js';
import type { Fixtures } from '../../runner/run/fixture.js';
import { publicSources } from '../common/public-sources.js';
import { expectInvited, expectNonMembersRefused, inviteOk } from './helpers.js';
import type { InvitationsKit } from './kit.js';

/** What a case factory adds its test to: an endpoint's suite (kit.ts endpoint). */
type Suite = Endpoint<InvitationsKit, Fixtures>;

/**
 * The `public-source-writes-forbidden` case of a write to one invitation
 * (invitations.auth.public-non-member): on a public group or project a stranger and an access
 * requester are refused `send` (403, not 404) and the invitation, a Guest's, stays as it was.
 * `done`: what the title says they may not do ("update"); `stays`: the title's end.
 */
export function publicWritesRefusedCase(suite: Suite, c: { done: string; stays: string; send: (client: Client, target: SourceRef, address: string) => Promise<Exchange> }): void {
  suite.test(
    {
      case: 'public-source-writes-forbidden',
      title: `on a public group or project a stranger and an access requester may not ${c.done} an invitation (403, not 404); ${c.stays}`,
      clauses: ['invitations.auth.public-non-member'],
      fixtures: { publicSources },
    },
    async ({ publicSources: sources, ...kit }) => {
      const target = sources[kit.kind];
      const address = kit.email();
      await inviteOk(kit.as('owner'), target, address, ACCESS.GUEST);
      await expectNonMembersRefused(kit, sources.requester, (client) => c.send(client, target, address));
      await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    },
  );
}

// What real clients send to the invitations endpoints (suites/common/client-forms.ts): email and
// user_id as arrays (Rack's bracket form, a JSON array), user_id as a JSON number, and sudo on a write
// and on a read.
import { expectEqual, expectError, expectOk } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint } from './kit.js';
import { asSudoQuery, bracketQuery, sudoHeader, withSudoToken } from '../common/client-forms.js';
import {
  expectInvited,
  expectInviteSuccess,
  expectMember,
  expectNotMember,
  GITLAB,
  invitationsUrl,
  invite,
  manager,
  MUST_PROVIDE,
  sharedSources,
  type Invitation,
} from './helpers.js';
const create = endpoint('create', { fixtures: { sources: sharedSources } });

create.test(
  {
    case: 'array-forms',
    title: 'email and user_id as arrays, in the bracket form (email[]=…) and as JSON arrays, invite every recipient',
    clauses: ['invitations.http.array-forms', 'invitations.create.several'],
    level: 'parity',
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email, lease } = kit;
    const target = sources[kind];
    const owner = as(manager(kind));
    const [a, b, c, d] = [email('bracket-a'), email('bracket-b'), email('json-c'), email('json-d')];
    expectInviteSuccess(await owner.post(`${invitationsUrl(target)}${bracketQuery('email', [a, b], { access_level: ACCESS.REPORTER })}`));
    expectInviteSuccess(await invite(owner, target, { email: [c, d], access_level: ACCESS.REPORTER }));
    for (const address of [a, b, c, d]) await expectInvited(as('admin'), target, address, ACCESS.REPORTER);
    const [u1, u2, u3] = [await lease(), await lease(), await lease()];
    expectInviteSuccess(await owner.post(`${invitationsUrl(target)}${bracketQuery('user_id', [u1.id, u2.id], { access_level: ACCESS.GUEST })}`));
    expectInviteSuccess(await invite(owner, target, { user_id: [String(u3.id)], access_level: ACCESS.GUEST }));
    for (const member of [u1, u2, u3]) await expectMember(kit, target, member, ACCESS.GUEST);
  },
);

create.test(
  {
    case: 'user-id-number',
    title: 'user_id as a JSON number is no list: 400 "Must provide either email or user_id", and no one is added',
    clauses: ['invitations.create.user-id-number'],
    level: 'parity',
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const target = sources[kind];
    const person = await kit.lease();
    expectError(await invite(as(manager(kind)), target, { user_id: person.id, access_level: ACCESS.GUEST }), 400, { message: MUST_PROVIDE, gitlab: 'lib/api/validations/types/comma_separated_to_array.rb; lib/api/invitations.rb (bad_request!)' });
    await expectNotMember(kit, target, person);
  },
);

create.test(
  {
    case: 'sudo',
    title: 'with sudo the administrator invites as the named user: refused as a Developer, made by the manager (created_by_name)',
    clauses: ['invitations.http.sudo', 'invitations.create.by-email'],
  },
  async ({ sources, ...kit }) => {
    const { kind, run } = kit;
    const { email } = kit;
    const target = sources[kind];
    const address = email('sudo');
    const body = { email: address, access_level: ACCESS.GUEST };
    const managerActor = run.actors[manager(kind)];
    await withSudoToken(kit, async (admin) => {
      const asDeveloper = await admin.post(asSudoQuery(invitationsUrl(target), run.actors.developer.username), { body });
      expectError(asDeveloper, 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
      expectInviteSuccess(await admin.post(invitationsUrl(target), { body, headers: sudoHeader(managerActor.id) }));
    });
    const invitation: Invitation & { created_by_name?: string | null } = await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    expectEqual(invitation.created_by_name, managerActor.name, 'created_by_name: the user sudo named, not the administrator');
  },
);

endpoint('list', { fixtures: { sources: sharedSources } }).test(
  {
    case: 'sudo',
    title: 'with sudo the administrator lists as the named user: the manager reads the list, an outsider gets 404',
    clauses: ['invitations.http.sudo'],
  },
  async ({ sources, ...kit }) => {
    const { kind, run } = kit;
    const target = sources[kind];
    await withSudoToken(kit, async (admin) => {
      expectOk(await admin.get(`${invitationsUrl(target)}?per_page=1`, { headers: sudoHeader(run.actors[manager(kind)].username) }), 200, 'invitation', { list: true });
      const asOutsider = await admin.get(asSudoQuery(invitationsUrl(target), run.actors.outsider.username));
      expectEqual(asOutsider.status, 404, 'an outsider does not see the private source: sudo=<outsider> acts as the outsider', asOutsider);
    });
  },
);

// PUT /groups/:id/invitations/:email and PUT /projects/:id/invitations/:email
// Every case runs for both kinds.
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectStatus, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Exchange } from '../../runner/core/client.js';
import { ACCESS, dateIn, sourceNotFound } from '../../runner/core/vocabulary.js';
import { expectInvited, expectRefused, expectUpdated, GITLAB, invitationsUrl, invitationUrl, inviteOk, manager, MANAGERS, otherCase, UNKNOWN_ID, update, sharedSources } from './helpers.js';
import { publicWritesRefusedCase } from './cases.js';

const suite = endpoint('update', { fixtures: { sources: sharedSources } });

/** Where GitLab keeps the Owner level of a project's invitations to those who may manage owners. */
const OWNER_ONLY = 'app/services/members/update_service.rb (has_update_permissions?: prevent_upgrade_to_owner?, prevent_downgrade_from_owner?); app/services/members/base_service.rb (manage_owners); lib/api/api.rb (rescue_from Gitlab::Access::AccessDeniedError)';

/** Where GitLab takes only the parameters sent. */
const ONLY_GIVEN = 'lib/api/invitations.rb (declared_params(include_missing: false))';

/**
 * The level after a PUT without access_level: the spec's table gives it a default of 30, GitLab
 * keeps the level the invitation had (parity). Returns the level the answer shows.
 */
function levelKeptOrDefault(res: Exchange, kept: number): number {
  const level = (res.body as { access_level?: number } | undefined)?.access_level;
  expectTrue(level === kept || level === ACCESS.DEVELOPER, `access_level to stay ${kept} (GitLab) or become the spec's default 30`, `it is ${String(level)}`, res);
  parity(res, ONLY_GIVEN, () => expectEqual(level, kept, `access_level kept at ${kept}`, res));
  return level!;
}

suite.test(
  {
    case: 'level-and-expiry',
    title: 'PUT changes the access level and expiry date of a pending invitation: 200 with the new values, and the list shows them',
    clauses: ['invitations.update.fields'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as(manager(kind)), sources[kind], address, ACCESS.GUEST);
    const expires = dateIn(60);
    expectUpdated(await update(as(manager(kind)), sources[kind], address, { access_level: ACCESS.MAINTAINER, expires_at: expires }), ACCESS.MAINTAINER, expires);
    await expectInvited(as('admin'), sources[kind], address, ACCESS.MAINTAINER, expires);
  },
);

suite.test(
  {
    case: 'timestamp-expiry',
    title: 'PUT takes expires_at as an ISO 8601 timestamp, alone or with access_level; the invitation expires on that date',
    clauses: ['invitations.update.timestamp', 'invitations.update.fields', 'invitations.list.expires-at-date'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as(manager(kind)), sources[kind], address, ACCESS.REPORTER);
    // Noon UTC: the date is the same in every time zone a target may store dates in.
    const day = dateIn(40);
    const alone = await update(as(manager(kind)), sources[kind], address, { expires_at: `${day}T12:00:00Z` });
    const level = levelKeptOrDefault(alone, ACCESS.REPORTER);
    expectUpdated(alone, level, day);
    await expectInvited(as('admin'), sources[kind], address, level, day);
    const later = dateIn(33);
    expectUpdated(await update(as(manager(kind)), sources[kind], address, { access_level: ACCESS.MAINTAINER, expires_at: `${later}T12:00:00Z` }), ACCESS.MAINTAINER, later);
    await expectInvited(as('admin'), sources[kind], address, ACCESS.MAINTAINER, later);
  },
);

suite.test(
  {
    case: 'one-field',
    title: 'PUT with only access_level keeps the expiry; with only expires_at keeps the level (or, per the spec, sets 30)',
    clauses: ['invitations.update.partial'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    const expires = dateIn(25);
    await inviteOk(as('owner'), sources[kind], address, ACCESS.GUEST, { expires_at: expires });
    expectUpdated(await update(as('owner'), sources[kind], address, { access_level: ACCESS.REPORTER }), ACCESS.REPORTER, expires);
    await expectInvited(as('admin'), sources[kind], address, ACCESS.REPORTER, expires);

    const later = dateIn(50);
    const res = await update(as('owner'), sources[kind], address, { expires_at: later });
    const level = levelKeptOrDefault(res, ACCESS.REPORTER);
    expectUpdated(res, level, later);
    await expectInvited(as('admin'), sources[kind], address, level, later);
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'PUT for an unknown address, the address in other letter case, a member\'s address or an invitation of a neighbouring source gives 404 Not Found; nothing changes',
    clauses: ['invitations.update.not-found'],
  },
  async ({ sources, kind, as, email, lease }) => {
    const [address, elsewhere] = [email(), email()];
    await inviteOk(as('owner'), sources[kind], address, ACCESS.GUEST);
    const member = await lease();
    await inviteOk(as('owner'), sources[kind], member.email, ACCESS.GUEST);
    // An invitation of the project's group, or of the group's project, is not one of this source's.
    await inviteOk(as('owner'), sources[kind === 'group' ? 'project' : 'group'], elsewhere, ACCESS.REPORTER);
    for (const missing of [email(), otherCase(address), member.email, elsewhere]) {
      expectError(await update(as('owner'), sources[kind], missing, { access_level: ACCESS.REPORTER }), 404, { message: '404 Not Found', gitlab: GITLAB.inviteNotFound });
    }
    await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST, null);
    await expectInvited(as('admin'), sources[kind === 'group' ? 'project' : 'group'], elsewhere, ACCESS.REPORTER, null);
  },
);

suite.test(
  {
    case: 'no-parameters',
    title: 'PUT without access_level and expires_at: GitLab refuses it (400) and changes nothing; the spec\'s default sets the level to 30',
    clauses: ['invitations.update.no-params'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    const expires = dateIn(12);
    await inviteOk(as('owner'), sources[kind], address, ACCESS.REPORTER, { expires_at: expires });
    const res = await update(as('owner'), sources[kind], address, {});
    // GitLab refuses an update without parameters; the spec's table gives access_level a default of
    // 30, so a target may set 30 instead. Either way the expiry stays.
    const refusal = 'lib/api/invitations.rb (bad_request! unless update_params.any?); spec/requests/api/invitations_spec.rb (returns 400 when access_level is not given and there are no other params)';
    if (res.status === 400) {
      expectError(res, 400, { message: '400 Bad request', gitlab: refusal });
      await expectInvited(as('admin'), sources[kind], address, ACCESS.REPORTER, expires);
    } else {
      expectUpdated(res, ACCESS.DEVELOPER, expires);
      await expectInvited(as('admin'), sources[kind], address, ACCESS.DEVELOPER, expires);
    }
    parity(res, refusal, () => expectStatus(res, 400, 'GitLab refuses an update without parameters'));
  },
);

suite.test(
  {
    case: 'validation',
    title: 'an unlisted access_level, a malformed or a past expires_at is refused with 400 and the invitation is unchanged',
    clauses: ['invitations.update.validation'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    const expires = dateIn(10);
    await inviteOk(as('owner'), sources[kind], address, ACCESS.REPORTER, { expires_at: expires });
    expectError(await update(as('owner'), sources[kind], address, { access_level: 60 }), 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.grape });
    expectError(await update(as('owner'), sources[kind], address, { expires_at: 'someday' }), 400, { error: 'expires_at is invalid', gitlab: GITLAB.grape });
    // The 400 is settled (spec/requests/api/invitations_spec.rb "when set to a date in the past"), and
    // so is the body keyed by field (Errors: "error body shape … not shown"; lib/api/invitations.rb
    // render_validation_error!); the text is parity.
    const past = await update(as('owner'), sources[kind], address, { expires_at: dateIn(-5) });
    expectValidationError(past, 'expires_at');
    parity(past, 'lib/api/invitations.rb (render_validation_error!); app/models/member.rb (future_date)', () => {
      expectEqual((past.body as { message?: unknown }).message, { expires_at: ['cannot be a date in the past'] }, 'the validation message', past);
    });
    await expectInvited(as('admin'), sources[kind], address, ACCESS.REPORTER, expires);
  },
);

suite.test(
  {
    case: 'no-role-level',
    title: 'access_level 5 (Minimal access) or 0 (No access) is refused with 400 and the invitation keeps its level',
    clauses: ['invitations.update.role-level'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as('owner'), sources[kind], address, ACCESS.REPORTER);
    // GitLab's parameter check refuses both (lib/api/invitations.rb values: Gitlab::Access.all_values,
    // {"error": …}, parity); a target may refuse them in its model ({"message": {"access_level": […]}}).
    for (const level of [ACCESS.MINIMAL, ACCESS.NO_ACCESS]) {
      expectError(await update(as('owner'), sources[kind], address, { access_level: level }), 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.grape });
    }
    await expectInvited(as('admin'), sources[kind], address, ACCESS.REPORTER, null);
  },
);

suite.test(
  {
    case: 'owner-level',
    title: 'the lowest role that manages invitations (group: Owner; project: Maintainer) raises one to Owner and changes one at Owner in a group; in a project only an Owner does (GitLab: 403 to a Maintainer, nothing changes)',
    clauses: ['invitations.update.owner-level', 'invitations.update.fields'],
  },
  async ({ sources, kind, as, email }) => {
    const target = sources[kind];
    const [raised, atOwner] = [email(), email()];
    await inviteOk(as('owner'), target, raised, ACCESS.REPORTER);
    await inviteOk(as('owner'), target, atOwner, ACCESS.OWNER);
    // [address, level before, level asked for]: one raised to Owner, one taken down from it.
    const changes = [[raised, ACCESS.REPORTER, ACCESS.OWNER], [atOwner, ACCESS.OWNER, ACCESS.MAINTAINER]] as const;
    for (const [address, before, after] of changes) {
      const res = await update(as(manager(kind)), target, address, { access_level: after });
      // The spec shows no minimum role (Authentication 7): in a project GitLab's code lets only an Owner
      // give or take the Owner level (OWNER_ONLY, every version from 15.0), as it does for members; in a
      // group the Owner manages every invitation.
      if (kind === 'project') {
        expectError(res, 403, { message: '403 Forbidden', gitlab: OWNER_ONLY });
        await expectInvited(as('admin'), target, address, before);
      } else {
        expectUpdated(res, after, null);
        await expectInvited(as('admin'), target, address, after);
      }
    }
    if (kind === 'project') {
      // The project's Owner may.
      for (const [address, , after] of changes) {
        expectUpdated(await update(as('owner'), target, address, { access_level: after }), after, null);
        await expectInvited(as('admin'), target, address, after);
      }
    }
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only those who administer members may update an invitation (group: Owner; project: Maintainer, Owner): the roles below 403, an outsider 404, no token 401, a read_api token 403',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.auth.scopes'],
  },
  async ({ sources, email, ...kit }) => {
    const target = sources[kit.kind];
    const address = email();
    await inviteOk(kit.as('owner'), target, address, ACCESS.GUEST);
    await expectRefused(kit, target, (client) => update(client, target, address, { access_level: ACCESS.MAINTAINER }));
    for (const role of MANAGERS[kit.kind]) {
      expectError(await update(kit.as(role, 'read_api'), target, address, { access_level: ACCESS.MAINTAINER }), 403, { error: 'insufficient_scope', gitlab: GITLAB.scope });
    }
    await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    // Each role that may, in turn, to a level of its own.
    const levels = [ACCESS.REPORTER, ACCESS.DEVELOPER];
    for (const [i, role] of MANAGERS[kit.kind].entries()) {
      expectUpdated(await update(kit.as(role), target, address, { access_level: levels[i] }), levels[i], null);
      await expectInvited(kit.as('admin'), target, address, levels[i]);
    }
    expectError(await update(kit.as('owner'), { kind: kit.kind, id: UNKNOWN_ID }, address, { access_level: ACCESS.REPORTER }), 404, { message: sourceNotFound(kit.kind), gitlab: GITLAB.sourceNotFound });
  },
);

suite.test(
  {
    case: 'email-path',
    title: 'the address is one path segment, with @ sent as is or URL-encoded; the group or project may be named by its full path',
    clauses: ['invitations.path.email', 'invitations.path.id'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as('owner'), sources[kind], address, ACCESS.GUEST);
    const raw = await as('owner').put(`${invitationsUrl(sources[kind])}/${address}`, { body: { access_level: ACCESS.REPORTER } });
    expectUpdated(raw, ACCESS.REPORTER, null);
    const byPath = await as('owner').put(invitationUrl({ kind, id: sources[kind].fullPath }, address), { body: { access_level: ACCESS.DEVELOPER } });
    expectUpdated(byPath, ACCESS.DEVELOPER, null);
    await expectInvited(as('admin'), sources[kind], address, ACCESS.DEVELOPER);
  },
);

suite.test(
  {
    case: 'no-5xx',
    title: 'malformed parameters and addresses never make the server fail: every answer is 4xx',
    clauses: ['invitations.errors.no-5xx'],
  },
  async ({ sources, kind, as, email }) => {
    const target = sources[kind];
    const address = email();
    await inviteOk(as('owner'), target, address, ACCESS.GUEST);
    const attempts = [
      update(as('owner'), target, address, { access_level: {} }),
      update(as('owner'), target, address, { access_level: [] }),
      update(as('owner'), target, address, { expires_at: { day: 1 } }),
      update(as('owner'), target, address, { expires_at: '2031-13-45' }),
      update(as('owner'), target, 'x'.repeat(4000), { access_level: ACCESS.REPORTER }),
      as('owner').put(`${invitationsUrl(target)}/%E0%A4%A`, { body: { access_level: ACCESS.REPORTER } }),
    ];
    // Malformed percent-encoding: lib/gitlab/middleware/handle_malformed_strings.rb answers 400.
    for (const res of await Promise.all(attempts)) {
      expectTrue(res.status >= 400 && res.status < 500, 'a 4xx answer to malformed input', `got HTTP ${res.status}`, res);
    }
    await expectInvited(as('admin'), target, address, ACCESS.GUEST);
  },
);

publicWritesRefusedCase(suite, { done: 'update', stays: 'it is unchanged', send: (client, target, address) => update(client, target, address, { access_level: ACCESS.MAINTAINER }) });

suite.test(
  {
    case: 'group-maintainer-owner',
    title: 'a group Maintainer may neither raise an invitation to Owner nor change one at Owner (403); the levels stay',
    clauses: ['invitations.auth.admin-members', 'invitations.update.owner-level'],
    only: { kind: 'group', why: 'a project Maintainer\'s Owner-level changes are case owner-level' },
  },
  async ({ sources, kind, as, email }) => {
    const target = sources[kind];
    const [raised, atOwner] = [email(), email()];
    await inviteOk(as('owner'), target, raised, ACCESS.REPORTER);
    await inviteOk(as('owner'), target, atOwner, ACCESS.OWNER);
    expectError(await update(as('maintainer'), target, raised, { access_level: ACCESS.OWNER }), 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
    expectError(await update(as('maintainer'), target, atOwner, { access_level: ACCESS.DEVELOPER }), 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
    await expectInvited(as('admin'), target, raised, ACCESS.REPORTER);
    await expectInvited(as('admin'), target, atOwner, ACCESS.OWNER);
  },
);

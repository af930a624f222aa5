// POST /projects/:id/members: what an addition gives at once (spec/models/members/project_member_spec.rb).
import { expectEqual, expectOk, expectStatus } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { expectNotMember, membersPath, readMember } from './helpers.js';

/** A private project with the shared actors in their roles, in a group of its own (no member but the administrator). */
const below = fixture({
  name: 'members-add-rules',
  scope: 'file',
  build: async (t) => {
    const group = await t.group();
    return { group, project: await t.roleProject({ group }) };
  },
});

const add = endpoint('add', { fixtures: { below } });

add.test(
  {
    case: 'guest-reads-at-once',
    title: 'a user added to a private project as Guest reads the project in the next request (GET /projects/:id 200; 404 before)',
    clauses: ['members.access.at-once'],
    only: { kind: 'project', why: 'project_member_spec\'s authorization refresh; a group\'s is read through the group' },
    requires: { setup: ['group-project-read'] },
    // GitLab refreshes the user's authorized projects when the membership is saved: its model's rule, a parity check.
    level: 'parity',
  },
  async ({ as, withToken, below, make, admin, ...kit }) => {
    const { project } = below;
    // The administrator's read first: a target without GET /projects/:id makes the test unsupported, not a 404 read as "hidden".
    await make.setup(`read ${project.fullPath}`, admin.get(apiPath`/projects/${project.id}`), [200], 'group-project-read');
    const user = await kit.lease();
    const read = () => withToken(user.tokens.api, 'the added user').get(apiPath`/projects/${project.id}`);
    expectStatus(await read(), 404, 'the private project hidden before the user is added');
    expectOk(await as('maintainer').post(membersPath(project), { body: { user_id: user.id, access_level: ACCESS.GUEST } }), 201, 'member');
    try {
      const res = await read();
      expectOk(res, 200);
      expectEqual((res.body as { id?: number }).id, project.id, 'the project read by its new Guest', res);
    } finally {
      await kit.remove(project, user);
    }
  },
);

add.test(
  {
    case: 'several-one-inherited-higher',
    title: 'two users at Guest, one a Developer of the project\'s group: 201, status "error" naming that user with the inherited-membership text; the other is added. Both Developers of the group: nobody is added',
    clauses: ['members.add.several-partial', 'members.add.several-errors'],
    only: { kind: 'project', why: 'create_service_spec adds to a project below a group' },
    // Which users are saved when some fail is GitLab's service's rule: a parity check.
    level: 'parity',
  },
  async ({ as, below, ...kit }) => {
    const { group, project } = below;
    const [inherited, plain, other] = [await kit.lease(), await kit.lease(), await kit.lease()];
    await kit.add(group, inherited, ACCESS.DEVELOPER);
    await kit.add(group, other, ACCESS.DEVELOPER);
    const text = (username: string) => `${username}: Access level should be greater than or equal to Developer inherited membership from group ${group.name}`;
    const gitlab = 'app/services/members/create_service.rb (add_error_for_member); app/models/member.rb (higher_access_level_than_group); spec/services/members/create_service_spec.rb';
    const res = await as('maintainer').post(membersPath(project), { body: { user_id: `${inherited.id},${plain.id}`, access_level: ACCESS.GUEST } });
    expectOk(res, 201, 'member-add-result');
    // The fields it names: an answer may carry others (GitLab adds fields over time).
    const { status, message } = res.body as { status?: unknown; message?: unknown };
    expectEqual({ status, message }, { status: 'error', message: text(inherited.username) }, `status "error" naming the user with the higher inherited level (${gitlab})`, res);
    expectEqual((await readMember(as('owner'), project, plain.id)).access_level, ACCESS.GUEST, 'the other user, added at Guest');
    await expectNotMember(as('owner'), project, inherited.id);
    // Both fail: status "error", and nobody added.
    const both = await as('maintainer').post(membersPath(project), { body: { user_id: `${inherited.id},${other.id}`, access_level: ACCESS.GUEST } });
    expectOk(both, 201, 'member-add-result');
    expectEqual((both.body as { status?: string }).status, 'error', 'the status when every user fails', both);
    for (const user of [inherited, other]) await expectNotMember(as('owner'), project, user.id);
  },
);

// POST /projects/:id/members: what an addition gives at once (spec/models/members/project_member_spec.rb).
import { expectEqual, expectOk, expectStatus } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { membersPath } from './helpers.js';

/** A private project (in a group of its own) with the shared actors in their roles. */
const project = fixture({ name: 'members-add-rules', scope: 'file', build: async (t) => t.roleProject({ group: await t.group() }) });

const add = endpoint('add', { fixtures: { project } });

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
  async ({ as, withToken, project, ...kit }) => {
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

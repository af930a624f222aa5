// GET /projects/:id/members/:user_id
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectStatus } from '../harness/checks.js';
import { apiPath } from '../harness/client.js';
import { conformance } from '../harness/conformance.js';
import {
  dateInDays,
  exclusively,
  expectNotMember,
  expectParamError,
  expectReadMatrix,
  LEVEL,
  memberPath,
  membersPath,
  readMember,
  useMembersWorld,
} from './helpers.js';

const endpoint = 'GET /projects/:id/members/:user_id';
const expiry = dateInDays(8);

const world = useMembersWorld('get-project-member', async (t) => {
  const group = await t.group();
  const inherited = await t.user();
  await t.add(group, inherited, LEVEL.MAINTAINER);
  const project = await t.roleProject({ group });
  const a = await t.user();
  const added = await t.world.admin.post(membersPath(project), { body: { user_id: a.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  return { project, inherited, a };
});

conformance(
  {
    id: 'project-member-get.direct',
    title: 'a direct member of the project reads back with its level, expiry and creator',
    endpoint,
    clauses: ['members.get.direct', 'members.entity.shape', 'members.entity.created-by'],
  },
  async ({ as, run }) => {
    const { project, a } = world();
    const member = await readMember(as('reporter'), project, a.id);
    expectEqual([member.id, member.username, member.access_level, member.expires_at], [a.id, a.username, LEVEL.DEVELOPER, expiry], 'id, username, access_level and expires_at');
    expectEqual(member.created_by?.id, run.adminId, 'created_by to be the administrator who added the member');
  },
);

conformance(
  {
    id: 'project-member-get.group-member-is-not-direct',
    title: 'a member of the project\'s group is not a direct member of the project: 404',
    endpoint,
    clauses: ['members.get.direct'],
  },
  async ({ as }) => {
    const { project, inherited } = world();
    await expectNotMember(as('maintainer'), project, inherited.id);
  },
);

conformance(
  {
    id: 'project-member-get.unknown-and-invalid',
    title: 'an unknown user gives 404 "404 Not found"; a user_id that is not a number gives 400',
    endpoint,
    clauses: ['members.get.direct', 'members.get.user-id-integer'],
  },
  async ({ as }) => {
    const { project } = world();
    await expectNotMember(as('developer'), project, 2147483000);
    expectParamError(await as('developer').get(memberPath(project, '1x')), 'user_id');
  },
);

conformance(
  {
    id: 'project-member-get.role-matrix',
    title: 'every member of a private project may read a member; an outsider gets 404, nobody 401',
    endpoint,
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
  },
  async ({ as }) => {
    const { project, a } = world();
    await expectReadMatrix(as, memberPath(project, a.id), '404 Project Not Found', 'member', false);
  },
);

conformance(
  {
    id: 'project-member-get.by-path',
    title: 'the project may be named by its URL-encoded full path; an unknown one gives 404 "404 Project Not Found"',
    endpoint,
    clauses: ['members.id.path-or-number', 'members.read.visibility'],
  },
  async ({ as }) => {
    const { project, a } = world();
    expectEqual((await readMember(as('guest'), { kind: 'project', id: project.fullPath }, a.id)).id, a.id, 'the member read through the project\'s path');
    expectError(await as('guest').get(memberPath({ kind: 'project', id: 2147483000 }, a.id)), 404, { message: '404 Project Not Found' });
  },
);

conformance(
  {
    id: 'project-member-get.email',
    title: 'an administrator sees the member\'s email; the project\'s owner does not',
    endpoint,
    clauses: ['members.entity.email-admin', 'members.entity.email-hidden'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { project, a } = world();
    expectEqual((await readMember(as('admin'), project, a.id)).email, a.email, 'the email, for the administrator');
    expectEqual((await readMember(as('owner'), project, a.id)).email, undefined, 'no email for the project\'s owner');
  },
);

conformance(
  {
    id: 'project-member-get.no-saml-identity',
    title: 'a project membership shows no group_saml_identity, even to the owner of the SSO group holding the project',
    endpoint,
    clauses: ['members.entity.saml-identity'],
    requires: { capabilities: ['saml'], fixtures: ['saml'] },
  },
  async ({ as, withToken, run }) => {
    const fx = fixture(run.fixtures, 'saml')!;
    const { t } = world();
    await exclusively(run, 'saml', async () => {
      // A temporary project in the SSO group, with the identified user as a direct member of it.
      const project = await t.world.project({ group: { kind: 'group', id: fx.group_id, name: String(fx.group_id), fullPath: String(fx.group_id) }, hint: 'saml-project' });
      try {
        await t.add(project, { id: fx.user_id }, LEVEL.MAINTAINER);
        const member = await readMember(withToken(fx.ownerToken, 'SAML group owner'), project, fx.user_id);
        expectEqual(member.group_saml_identity, undefined, 'no group_saml_identity on a project membership');
      } finally {
        expectStatus(await as('admin').delete(apiPath`/projects/${project.id}`), [202, 204], 'deleting the temporary project');
      }
    });
  },
);

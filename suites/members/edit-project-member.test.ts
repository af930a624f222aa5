// PUT /projects/:id/members/:user_id
import { expectEqual, expectError, expectOk, expectValidationError } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  dateInDays,
  expectForbidden,
  expectParamError,
  expectWriteRefused,
  LEVEL,
  memberPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'edit');


const world = useMembersWorld('edit-project-member', async (t) => ({ project: await t.roleProject({ group: await t.group() }) }));

async function newMember(level: number) {
  const { project, t } = world();
  const user = await t.user();
  await t.add(project, user, level);
  return user;
}

suite.test(
  {
    case: 'level-and-expiry',
    title: 'a Maintainer changes a member\'s level and expiry; the member is returned (200) with the new values and reads back so',
    clauses: ['members.edit.level'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.GUEST);
    const expiry = dateInDays(14);
    const res = await as('maintainer').put(memberPath(project, user.id), { body: { access_level: LEVEL.DEVELOPER, expires_at: expiry } });
    expectOk(res, 200, 'member');
    expectEqual([(res.body as MemberBody).access_level, (res.body as MemberBody).expires_at], [LEVEL.DEVELOPER, expiry], 'access_level and expires_at returned', res);
    const back = await readMember(as('reporter'), project, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.DEVELOPER, expiry], 'the member read back');
  },
);

suite.test(
  {
    case: 'not-a-member-and-params',
    title: 'a user who is not a direct member gives 404; access_level is required and must be a level',
    clauses: ['members.edit.not-member', 'members.edit.params'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project } = world();
    expectError(await as('maintainer').put(memberPath(project, run.actors.outsider.id), { body: { access_level: LEVEL.GUEST } }), 404, { message: '404 Not found' });
    expectError(await as('guest').put(memberPath(project, run.actors.outsider.id), { body: { access_level: LEVEL.GUEST } }), 404, { message: '404 Not found' });
    const user = await newMember(LEVEL.REPORTER);
    expectParamError(await as('maintainer').put(memberPath(project, user.id), { body: {} }), 'access_level');
    expectValidationError(await as('maintainer').put(memberPath(project, user.id), { body: { access_level: 1 } }), 'access_level');
    expectEqual((await readMember(as('maintainer'), project, user.id)).access_level, LEVEL.REPORTER, 'the level, unchanged');
  },
);

suite.test(
  {
    case: 'owner-role',
    title: 'a Maintainer may neither make a member Owner nor change an Owner (403); an Owner may do both',
    clauses: ['members.edit.project-owner'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.DEVELOPER);
    expectForbidden(await as('maintainer').put(memberPath(project, user.id), { body: { access_level: LEVEL.OWNER } }));
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.DEVELOPER, 'the level after the refused promotion');
    expectOk(await as('owner').put(memberPath(project, user.id), { body: { access_level: LEVEL.OWNER } }), 200, 'member');
    expectForbidden(await as('maintainer').put(memberPath(project, user.id), { body: { access_level: LEVEL.GUEST } }));
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.OWNER, 'the Owner, unchanged by the Maintainer');
    expectOk(await as('owner').put(memberPath(project, user.id), { body: { access_level: LEVEL.MAINTAINER } }), 200, 'member');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Owners and Maintainers edit project members; Developers, Reporters and Guests get 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.GUEST);
    await expectWriteRefused(as, project, (client) => client.put(memberPath(project, user.id), { body: { access_level: LEVEL.MAINTAINER } }));
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.GUEST, 'the level after the refused edits');
    expectOk(await as('owner').put(memberPath(project, user.id), { body: { access_level: LEVEL.REPORTER } }), 200, 'member');
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.REPORTER, 'the level after the owner\'s edit');
    expectOk(await as('maintainer').put(memberPath(project, user.id), { body: { access_level: LEVEL.DEVELOPER } }), 200, 'member');
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.DEVELOPER, 'the level after the Maintainer\'s edit');
  },
);

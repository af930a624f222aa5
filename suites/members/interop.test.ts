// What clients rely on at the HTTP level, on the members endpoints of groups and projects
// (suites/common/interop.ts): the JSON media type, a bodiless DELETE that declares JSON, form-encoded
// writes, a token in the query, and the list walked through the Link header.
import { expectEqual, expectOk, expectStatus } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint } from '../../runner/run/conformance.js';
import { expectJsonAnswers, expectPrivateTokenQuery, sendEmptyJson, walkByLink } from '../common/interop.js';
import {
  expectNotMember,
  listAll,
  manager,
  memberPath,
  membersPath,
  readMember,
  membersWorld,
  type MemberBody,
  toolkit,
} from './helpers.js';
import { members } from './area.js';

// A group and a project (in a group of its own), each with the shared actors in their roles. Its
// tests run one at a time: the Link walk compares two reads of the whole list, which the others change.
const world = membersWorld('members-interop', { alone: 'the Link walk compares two reads of the whole list, which the other tests change' }, (t) => t.roleSources());
const list = endpoint(members, 'list', { uses: [world] });

list.test(
  {
    case: 'json-media-type',
    title: 'the member list and a 404 for a non-member are answered as application/json (exactly, at the parity level)',
    clauses: ['members.http.json-media-type'],
  },
  async ({ kind, as, run, use }) => {
    const source = use(world)[kind];
    expectJsonAnswers(await as('developer').get(membersPath(source)), await as('developer').get(memberPath(source, run.actors.outsider.id)), 'member', { list: true });
  },
);

endpoint(members, 'remove', { uses: [world] }).test(
  {
    case: 'empty-json-body',
    title: 'a DELETE that declares Content-Type application/json and sends no body removes the member',
    clauses: ['members.http.empty-json-body', 'members.remove.direct'],
  },
  async (kit) => {
    const { kind, as, use } = kit;
    const { [kind]: source } = use(world);
    const t = toolkit(kit);
    const user = await t.member(source, ACCESS.DEVELOPER);
    const res = await sendEmptyJson(as(manager(kind)), 'DELETE', memberPath(source, user.id));
    // The spec shows no response for DELETE member; GitLab answers 204 (lib/api/members.rb).
    expectStatus(res, [200, 204], 'the spec shows no response for DELETE member');
    await expectNotMember(as('admin'), source, user.id);
  },
);

endpoint(members, 'add', { uses: [world] }).test(
  {
    case: 'form-body',
    title: 'a member added with form fields (application/x-www-form-urlencoded) is made as with JSON',
    clauses: ['members.http.form-body', 'members.add.single'],
  },
  async (kit) => {
    const { kind, as, use } = kit;
    const { [kind]: source } = use(world);
    const t = toolkit(kit);
    const user = await t.lease();
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.REPORTER }, form: true });
    expectOk(res, 201, 'member');
    expectEqual((await readMember(as('admin'), source, user.id)).access_level, ACCESS.REPORTER, 'the access level read back');
  },
);

list.test(
  {
    case: 'private-token-query',
    title: 'a token in the private_token query parameter lists the members; a wrong one is refused with 401',
    clauses: ['members.http.private-token-query'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
  },
  async ({ kind, as, run, use }) => {
    await expectPrivateTokenQuery(as('anonymous'), membersPath(use(world)[kind]), run.actors.guest.tokens.api, 'member', { list: true });
  },
);

list.test(
  {
    case: 'link-pagination',
    title: 'following rel="next" of the Link header from page 1 (two a page) reaches every member exactly once',
    clauses: ['members.http.link-pagination'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
  },
  async ({ kind, as, use }) => {
    const source = use(world)[kind];
    const walked = await walkByLink<MemberBody>(as('developer'), membersPath(source), 'member', 2);
    const all = await listAll(as('developer'), membersPath(source), 'member');
    expectEqual(walked.map((m) => m.id).sort((a, b) => a - b), all.map((m) => m.id).sort((a, b) => a - b), 'the pages walked through Link to hold every member exactly once');
  },
);

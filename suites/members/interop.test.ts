// What clients rely on at the HTTP level, on the members endpoints of groups and projects
// (suites/common/interop.ts): the JSON media type, a bodiless DELETE that declares JSON, form-encoded
// writes, a token in the query, and the list walked through the Link header.
import { expectEqual, expectOk, expectStatus } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { expectJsonAnswers, expectPrivateTokenQuery, sendEmptyJson, walkByLink } from '../common/interop.js';
import { expectNotMember, listAll, manager, memberPath, membersPath, readMember, type MemberBody } from './helpers.js';

// A group and a project (in a group of its own), each with the shared actors in their roles. Its
// tests run one at a time: the Link walk compares two reads of the whole list, which the others change.
const sources = fixture({ name: 'members-members-interop', scope: 'file', alone: 'the Link walk compares two reads of the whole list, which the other tests change', build: (t) => t.roleSources() });
const list = endpoint('list', { fixtures: { sources } });

list.test(
  {
    case: 'json-media-type',
    title: 'the member list and a 404 for a non-member are answered as application/json (exactly, at the parity level)',
    clauses: ['members.http.json-media-type'],
  },
  async ({ kind, as, run, sources }) => {
    const source = sources[kind];
    expectJsonAnswers(await as('developer').get(membersPath(source)), await as('developer').get(memberPath(source, run.actors.outsider.id)), 'member', { list: true });
  },
);

endpoint('remove', { fixtures: { sources } }).test(
  {
    case: 'empty-json-body',
    title: 'a DELETE that declares Content-Type application/json and sends no body removes the member',
    clauses: ['members.http.empty-json-body', 'members.remove.direct'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    const res = await sendEmptyJson(as(manager(kind)), 'DELETE', memberPath(source, user.id));
    // The spec shows no response for DELETE member; GitLab answers 204 (lib/api/members.rb).
    expectStatus(res, [200, 204], 'the spec shows no response for DELETE member');
    await expectNotMember(as('admin'), source, user.id);
  },
);

endpoint('add', { fixtures: { sources } }).test(
  {
    case: 'form-body',
    title: 'a member added with form fields (application/x-www-form-urlencoded) is made as with JSON',
    clauses: ['members.http.form-body', 'members.add.single'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
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
  async ({ kind, as, run, sources }) => {
    await expectPrivateTokenQuery(as('anonymous'), membersPath(sources[kind]), run.actors.guest.tokens.api, 'member', { list: true });
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
  async ({ kind, as, sources }) => {
    const source = sources[kind];
    const walked = await walkByLink<MemberBody>(as('developer'), membersPath(source), 'member', 2);
    const all = await listAll(as('developer'), membersPath(source), 'member');
    expectEqual(walked.map((m) => m.id).sort((a, b) => a - b), all.map((m) => m.id).sort((a, b) => a - b), 'the pages walked through Link to hold every member exactly once');
  },
);

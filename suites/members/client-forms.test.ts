// What real clients send to the members endpoints (suites/common/client-forms.ts): user_ids and
// skip_users in Rack's bracket form and as comma lists, a plain repeated key, sudo on a write and on a
// read with its refusals, and the user lookup (GET /users?username=) that precedes adding a member.
import { apiPath } from '../../runner/core/client.js';
import { expectEqual, expectOk, expectTrue } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { asSudoQuery, bracketQuery, expectSudoRefusals, repeatedQuery, sudoHeader, withSudoToken } from '../common/client-forms.js';
import { allMembersPath, idsOf, manager, membersPath, readMember, sorted, type MemberBody } from './helpers.js';

// A group and a project (in a group of its own) with the shared actors in their roles, and a, b, c as
// direct members of each.
const sources = fixture({ name: 'members-client-forms', scope: 'file', build: async (t) => {
  const sources = await t.roleSources();
  const withMembers = async (source: typeof sources.group | typeof sources.project) => {
    const [a, b, c] = [await t.member(source, ACCESS.GUEST), await t.member(source, ACCESS.REPORTER), await t.member(source, ACCESS.DEVELOPER)];
    return { source, a, b, c };
  };
  return { group: await withMembers(sources.group), project: await withMembers(sources.project) };
} });
const list = endpoint('list', { fixtures: { sources } });

list.test(
  {
    case: 'array-forms',
    title: 'user_ids and skip_users take the bracket form (user_ids[]=…) and a comma list alike',
    clauses: ['members.http.array-forms', 'members.list.user-ids', 'members.list.skip-users'],
  },
  async ({ kind, as, sources }) => {
    const { source, a, b, c } = sources[kind];
    const client = as('owner');
    const ids = async (query: string) => {
      const res = await client.get(`${membersPath(source)}${query}`);
      expectOk(res, 200, 'member', { list: true });
      return { res, ids: idsOf(res.body as MemberBody[]) };
    };
    const bracket = await ids(bracketQuery('user_ids', [a.id, c.id]));
    expectEqual(bracket.ids, sorted([a.id, c.id]), 'the members named by user_ids[]=…&user_ids[]=…', bracket.res);
    const comma = await ids(`?user_ids=${a.id},${c.id}`);
    expectEqual(comma.ids, sorted([a.id, c.id]), 'the members named by user_ids=<a>,<c>', comma.res);
    for (const query of [bracketQuery('skip_users', [a.id, b.id], { per_page: 100 }), `?skip_users=${a.id},${b.id}&per_page=100`]) {
      const skipped = await ids(query);
      expectTrue(!skipped.ids.includes(a.id) && !skipped.ids.includes(b.id) && skipped.ids.includes(c.id), `skip_users (${query}) to leave out a and b and keep c`, `ids ${skipped.ids.join(', ')}`, skipped.res);
    }
  },
);

endpoint('list-all', { fixtures: { sources } }).test(
  {
    case: 'array-forms',
    title: 'user_ids of all members takes the bracket form (user_ids[]=…) as a comma list',
    clauses: ['members.http.array-forms', 'members.list.user-ids'],
  },
  async ({ kind, as, sources }) => {
    const { source, a, b } = sources[kind];
    const res = await as('developer').get(`${allMembersPath(source)}${bracketQuery('user_ids', [a.id, b.id])}`);
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), sorted([a.id, b.id]), 'all members named by user_ids[]=…&user_ids[]=…', res);
  },
);

list.test(
  {
    case: 'repeated-key',
    title: 'a plain repeated user_ids key is its last value (Rack): only the last id is kept',
    clauses: ['members.http.repeated-key'],
    level: 'parity',
  },
  async ({ kind, as, sources }) => {
    const { source, a, c } = sources[kind];
    const res = await as('owner').get(`${membersPath(source)}${repeatedQuery('user_ids', [a.id, c.id])}`);
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), [c.id], 'the member of the last user_ids only', res);
  },
);

endpoint('add', { fixtures: { sources } }).test(
  {
    case: 'sudo',
    title: 'with sudo the administrator adds a member as the named user: refused as a Developer, made by the manager as its creator',
    clauses: ['members.http.sudo', 'members.add.single'],
  },
  async ({ sources, ...kit }) => {
    const { kind, run } = kit;
    const { source } = sources[kind];
    const user = await kit.lease();
    await withSudoToken(kit, async (admin) => {
      const asDeveloper = await admin.post(asSudoQuery(membersPath(source), run.actors.developer.username), { body: { user_id: user.id, access_level: ACCESS.GUEST } });
      expectEqual(asDeveloper.status, 403, 'a Developer may not add members: sudo=<developer> acts as the Developer', asDeveloper);
      const asManager = await admin.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST }, headers: sudoHeader(run.actors[manager(kind)].id) });
      expectOk(asManager, 201, 'member');
    });
    const created = (await readMember(kit.as('admin'), source, user.id)) as MemberBody & { created_by?: { id: number } };
    expectEqual(created.created_by?.id, run.actors[manager(kind)].id, 'the member\'s created_by: the user sudo named, not the administrator');
  },
);

list.test(
  {
    case: 'sudo',
    title: 'with sudo the administrator reads as the named user: a member reads the list, an outsider gets 404',
    clauses: ['members.http.sudo'],
  },
  async ({ sources, ...kit }) => {
    const { kind, run } = kit;
    const { source } = sources[kind];
    await withSudoToken(kit, async (admin) => {
      expectOk(await admin.get(membersPath(source), { headers: sudoHeader(run.actors.guest.username) }), 200, 'member', { list: true });
      const asOutsider = await admin.get(asSudoQuery(membersPath(source), run.actors.outsider.id));
      expectEqual(asOutsider.status, 404, 'an outsider does not see the private source: sudo=<outsider id> acts as the outsider', asOutsider);
    });
  },
);

list.test(
  {
    case: 'sudo-refusals',
    title: 'sudo is refused to a token that is no administrator\'s (403), without the sudo scope (403) and for an unknown user (404)',
    clauses: ['members.http.sudo-refusals'],
  },
  async ({ sources, ...kit }) => {
    const { source } = sources[kit.kind];
    await expectSudoRefusals(kit, membersPath(source), kit.run.actors.guest, kit.as('owner'));
  },
);

endpoint('add', { fixtures: { sources } }).test(
  {
    case: 'user-lookup',
    title: 'the user found by GET /users?username= (exact, any case) and ?search= is the one added',
    clauses: ['members.http.user-lookup', 'members.add.single'],
    // GET /users is none of the spec's forms: how it finds users is GitLab's (lib/api/users.rb).
    level: 'parity',
  },
  async ({ kind, as, lease, sources }) => {
    const { source } = sources[kind];
    const user = await lease();
    const admin = as('admin');
    const found = await admin.get(apiPath`/users`, { query: { username: user.username.toUpperCase() } });
    expectOk(found, 200, undefined, { list: true });
    expectEqual((found.body as { id: number }[]).map((u) => u.id), [user.id], `GET /users?username=${user.username.toUpperCase()}: that user alone`, found);
    const searched = await admin.get(apiPath`/users`, { query: { search: user.username, per_page: 100 } });
    expectTrue((searched.body as { id: number }[]).some((u) => u.id === user.id), 'GET /users?search=<username> to list the user', 'it does not', searched);
    expectOk(await as(manager(kind)).post(membersPath(source), { body: { user_id: (found.body as { id: number }[])[0].id, access_level: ACCESS.GUEST } }), 201, 'member');
  },
);

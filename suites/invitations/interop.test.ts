// What clients rely on at the HTTP level, on the invitations endpoints of groups and projects
// (suites/common/interop.ts): the JSON media type, a bodiless DELETE that declares JSON, form-encoded
// writes, a token in the query, and the list walked through the Link header.
import { expectEqual, expectStatus } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint } from './kit.js';
import { expectJsonAnswers, expectPrivateTokenQuery, sendEmptyJson, walkByLink } from '../common/interop.js';
import { expectInvited, expectInviteSuccess, expectNotInvited, invitationsUrl, invitationUrl, inviteOk, manager, type Invitation , freshSource, sharedSources} from './helpers.js';
const list = endpoint('list', { fixtures: { sources: sharedSources } });

list.test(
  {
    case: 'json-media-type',
    title: 'the invitation list and a 404 for an unknown source are answered as application/json (exactly, at the parity level)',
    clauses: ['invitations.http.json-media-type'],
  },
  async ({ kind, as, sources }) => {
    const source = sources[kind];
    expectJsonAnswers(await as(manager(kind)).get(invitationsUrl(source)), await as(manager(kind)).get(invitationsUrl({ kind, id: 2147483000 })), 'invitation', { list: true });
  },
);

endpoint('delete', { fixtures: { sources: sharedSources } }).test(
  {
    case: 'empty-json-body',
    title: 'a DELETE that declares Content-Type application/json and sends no body deletes the invitation: 204',
    clauses: ['invitations.http.empty-json-body', 'invitations.delete.success'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email('interop-delete');
    await inviteOk(as(manager(kind)), sources[kind], address);
    const res = await sendEmptyJson(as(manager(kind)), 'DELETE', invitationUrl(sources[kind], address));
    expectStatus(res, 204);
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);

endpoint('create', { fixtures: { sources: sharedSources } }).test(
  {
    case: 'form-body',
    title: 'an invitation sent with form fields (application/x-www-form-urlencoded) is made as with JSON',
    clauses: ['invitations.http.form-body', 'invitations.create.by-email'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email('interop-form');
    expectInviteSuccess(await as(manager(kind)).post(invitationsUrl(sources[kind]), { body: { email: address, access_level: ACCESS.DEVELOPER }, form: true }));
    await expectInvited(as('admin'), sources[kind], address, ACCESS.DEVELOPER);
  },
);

list.test(
  {
    case: 'private-token-query',
    title: 'a token in the private_token query parameter lists the invitations; a wrong one is refused with 401',
    clauses: ['invitations.http.private-token-query'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
  },
  async ({ kind, as, run, sources }) => {
    const source = sources[kind];
    await expectPrivateTokenQuery(as('anonymous'), invitationsUrl(source), run.actors[manager(kind)].tokens.api, 'invitation', { list: true });
  },
);

list.test(
  {
    case: 'link-pagination',
    title: 'following rel="next" of the Link header from page 1 (two a page) reaches every invitation exactly once',
    clauses: ['invitations.http.link-pagination'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
    fixtures: { freshSource },
  },
  async ({ freshSource, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    // A source of the file's own: other files invite into the shared ones while the pages are walked.
    const source = freshSource;
    const mine = [email('link'), email('link'), email('link')];
    await inviteOk(as(manager(kind)), source, mine);
    const walked = await walkByLink<Invitation>(as(manager(kind)), invitationsUrl(source), 'invitation', 2);
    for (const address of mine) expectEqual(walked.filter((i) => i.invite_email === address).length, 1, `${address} once among the pages`);
  },
);

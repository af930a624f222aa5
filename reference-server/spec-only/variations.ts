// The spec-only variations: where the reference server does what GitLab does beyond the spec, each
// one does something else the spec allows (another error text, another order of checks, an optional
// field left out, a refusal the spec's words allow), or what the spec says where GitLab differs. Where
// the spec says "not shown" and GitLab's code settles it (docs/verdicts/levels.md), no variation
// departs from GitLab. Each names the
// spec sentence (/work/shared/spec/api-spec.md) that allows it. They run in this order, as hooks
// around the routes (index.ts: a preHandler before them, an onSend after them and after any fault);
// the error texts are replaced last, so the answers the other variations make lose GitLab's words too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeParams, mapBody, matches, type When } from '../faults/dsl.js';
import { JSON_CONTENT_TYPE } from '../http/gitlab-http.js';
import { userBasic } from '../http/context.js';
import { apiError } from '../http/errors.js';
import { mergedParams } from '../http/params.js';
import { MAX_PER_PAGE } from '../http/pagination.js';
import { unchangedUpdate } from '../routes/unchanged-update.js';
import {
  callerOf,
  emailVisible,
  inSpec,
  membershipOf,
  otherText,
  otherTexts,
  param,
  pathSource,
  presentsToken,
  samlIdentityVisible,
  seenButNotAdmin,
  type Json,
  type SpecOnlyContext,
} from './views.js';
import { MIRROR_ROUTES } from '../routes/remote-mirrors.js';
import { MEMBER_ROUTES } from '../routes/members/source-members.js';
import { INVITATION_ROUTES } from '../routes/invitations.js';
import { GROUP_MEMBER_EE_ROUTES } from '../routes/members/group-members-ee.js';
import { FILE_ROUTES } from '../routes/repository-files.js';

export interface Variation {
  name: string;
  /** The spec sentence that allows the variation. */
  spec: string;
  /** Changes the parsed request before the route's handler. */
  preHandler?(request: FastifyRequest, ctx: SpecOnlyContext): void;
  /** Rewrites the route's answer: status, body, headers. */
  onSend?(request: FastifyRequest, reply: FastifyReply, payload: string, ctx: SpecOnlyContext): string;
}

const FILE_READS: When = { route: [FILE_ROUTES.get, FILE_ROUTES.blame, FILE_ROUTES.raw], method: ['GET', 'HEAD'] };

/** faults/dsl.ts `mapBody` (success answers only), with the spec-only context. */
const body = (when: When, fn: (b: Json & Json[], ctx: SpecOnlyContext, request: FastifyRequest) => unknown) =>
  mapBody(when, (b, ctx, request) => fn(b, ctx as SpecOnlyContext, request)).onSend as Variation['onSend'];

/** Another status and JSON body where the route answered `from` and `when` holds; the text variation then rewords it. */
function restatus(on: When, from: number, to: number, answer: unknown, when: (request: FastifyRequest, ctx: SpecOnlyContext) => boolean = () => true): Variation['onSend'] {
  return (request, reply, payload, ctx) => {
    if (!matches(request, on) || reply.statusCode !== from || !when(request, ctx)) return payload;
    reply.code(to).header('content-type', JSON_CONTENT_TYPE);
    return JSON.stringify(answer);
  };
}

const parse = (payload: string): unknown => {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
};
const omit = (row: Json, ...keys: string[]): Json => Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key)));
const eachRow = (b: Json & Json[], fn: (row: Json) => Json) => (Array.isArray(b) ? b.map(fn) : fn(b));
/** The spec's user summary: id, username, name, state, avatar_url, web_url (no `locked`). */
const userSummary = (row: Json) => omit(row, 'locked');
/** A date as the spec's timestamp (`YYYY-MM-DDTHH:MM:SSZ`), the start of that day. */
const timestamp = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
const accessLevelParam = (request: FastifyRequest) => Number(mergedParams(request).access_level);

/** A Member as the spec lists it, with the optional fields only where the spec says they are present. */
function specMember(row: Json, ctx: SpecOnlyContext, request: FastifyRequest): Json {
  if (typeof row.id !== 'number' || typeof row.username !== 'string') return row; // a queued promotion or a status hash
  const id = row.id;
  const out = omit(userSummary(row), 'membership_state', 'is_using_seat', 'email', 'group_saml_identity', 'override', 'created_by');
  const creator = row.created_by !== undefined ? (row.created_by as Json) : createdBy(ctx, request, id);
  if (creator) out.created_by = userSummary(creator);
  if (row.email !== undefined && emailVisible(ctx, request, id)) out.email = row.email;
  if (row.group_saml_identity !== undefined && samlIdentityVisible(ctx, request, id)) out.group_saml_identity = row.group_saml_identity;
  if (row.override !== undefined && matches(request, { route: [GROUP_MEMBER_EE_ROUTES.overrideSet, GROUP_MEMBER_EE_ROUTES.overrideRemove] })) out.override = row.override;
  // show_seat_info "include[s] seat information"; the spec names no field for it.
  if (row.is_using_seat !== undefined) out.seat_in_use = row.is_using_seat;
  return out;
}

/** created_by where GitLab leaves it out (members of an invited private group): the spec lists it without condition. */
function createdBy(ctx: SpecOnlyContext, request: FastifyRequest, userId: number): Json | undefined {
  const member = membershipOf(ctx, request, userId);
  const creator = member?.createdById == null ? undefined : ctx.store.users.get(member.createdById);
  return creator && userBasic(request, creator);
}

/** The recipients of an invitation request, by email or username, for a failure that concerns them all. */
function recipients(ctx: SpecOnlyContext, request: FastifyRequest): string[] {
  const params = mergedParams(request);
  const split = (value: unknown) => (value === undefined || value === null ? [] : String(value).split(',').map((s) => s.trim()).filter((s) => s !== ''));
  const users = split(params.user_id).map((id) => (/^\d+$/.test(id) ? ctx.store.users.get(Number(id))?.username : undefined) ?? id);
  return [...new Set([...split(params.email), ...users])];
}

export const VARIATIONS: Variation[] = [
  // ---- a refusal the spec's words allow, and (c) the order of checks ----
  {
    name: 'files-anonymous-401',
    spec: 'Authentication 3: "GET of a file needs no authentication when the repository is publicly accessible" (so a private one needs it: 401); "status codes for failures on other endpoints: not shown."',
    onSend: restatus(FILE_READS, 404, 401, { message: '401 Unauthorized' }, (request, ctx) => {
      const project = pathSource(ctx, request);
      return !presentsToken(request) && (!project || !ctx.store.canSee(project, undefined));
    }),
  },
  {
    name: 'members-add-permission-first',
    spec: 'Errors: "Error body shape and status codes for failures on other endpoints: not shown" (no order of checks for POST …/members): 403 for a caller who may not add members, before 409 for an existing member.',
    onSend: restatus({ route: MEMBER_ROUTES.add }, 409, 403, { message: '403 Forbidden' }, (request, ctx) => seenButNotAdmin(ctx, request, accessLevelParam(request))),
  },
  {
    name: 'members-edit-permission-first',
    spec: 'Errors: "Error body shape and status codes for failures on other endpoints: not shown" (no order of checks for PUT and DELETE …/members/:user_id): 403 for a caller who may not manage members, before 404 for a user who is no member (their own removal excepted).',
    onSend: restatus({ route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove] }, 404, 403, { message: '403 Forbidden' }, (request, ctx) =>
      seenButNotAdmin(ctx, request) && (request.method === 'PUT' || param(request, 'user_id') !== String(callerOf(ctx, request)?.id)),
    ),
  },
  {
    name: 'invitations-permission-first',
    spec: 'POST …/invitations: "The caller must have access to the group or project"; the order against the parameter checks is not given: 403 before 400 (no email nor user_id, or a bad parameter).',
    onSend: restatus({ route: INVITATION_ROUTES.create }, 400, 403, { message: '403 Forbidden' }, (request, ctx) => seenButNotAdmin(ctx, request, accessLevelParam(request))),
  },
  // ---- (d) where GitLab differs from the spec ----
  {
    name: 'files-empty-commit-refused',
    spec: 'Errors: a commit fails with 400 when "the commit is empty because new content equals current content" (GitLab makes the empty commit and answers 200).',
    preHandler(request, ctx) {
      if (matches(request, { route: FILE_ROUTES.update }) && unchangedUpdate(ctx.store, request)) {
        throw apiError(400, 'Spec-only: the commit is empty, the new content equals the current content');
      }
    },
  },
  {
    name: 'invitations-update-default-level',
    spec: 'PUT …/invitations/:email, parameter access_level: "integer | no | default 30" (GitLab keeps the level, and refuses an update without parameters).',
    preHandler: changeParams({ route: INVITATION_ROUTES.update }, (p, request) => {
      if (p.access_level === undefined && (request.query as Json).access_level === undefined) p.access_level = 30;
    }).preHandler,
  },
  {
    name: 'mirrors-mask-every-user',
    spec: 'Remote mirror url: "username and password parts are always replaced by ***** in responses" (GitLab shows the user git).',
    onSend: body({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b) =>
      eachRow(b, (row) => (typeof row.url === 'string' ? { ...row, url: row.url.replace(/^([a-z][a-z0-9+.-]*:\/\/)git((?::[^@/?#]*)?@)/i, '$1*****$2') } : row)),
    ),
  },
  {
    name: 'invitations-failure-map',
    spec: 'Invitations, Responses: "any failure: object with status = error and message, an object mapping each failing email or username to a message text" (GitLab sends a string when there are too many recipients).',
    onSend: body({ route: INVITATION_ROUTES.create }, (b, ctx, request) =>
      b.status === 'error' && typeof b.message === 'string' ? { status: 'error', message: Object.fromEntries(recipients(ctx, request).map((r) => [r, b.message])) } : undefined,
    ),
  },
  {
    name: 'invitations-spec-fields',
    spec: 'Invitation (list item): id, invite_email, created_at, access_level, "expires_at | timestamp", user_name, created_by_name (GitLab: no id, a date); PUT: "Returns an object with expires_at and access_level".',
    onSend: body({ route: [INVITATION_ROUTES.list, INVITATION_ROUTES.update] }, (b, ctx, request) => {
      if (request.method === 'PUT') return { expires_at: timestamp(b.expires_at), access_level: b.access_level };
      const source = pathSource(ctx, request);
      const pending = source ? ctx.store.directMembers(source).filter((m) => m.inviteToken !== null) : [];
      return eachRow(b, (row) => ({ id: pending.find((m) => m.inviteEmail === row.invite_email)?.id, ...omit(row, 'invite_token'), expires_at: timestamp(row.expires_at) }));
    }),
  },
  // ---- (b) fields the spec does not list, or lists as present only sometimes ----
  {
    name: 'mirrors-spec-fields',
    spec: 'Remote mirror: auth_method "absent from the single-mirror read response"; "mirror_branch_regex … is not present in the response shapes"; host_keys is not listed.',
    onSend: body({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b, _ctx, request) =>
      eachRow(b, (row) => omit(row, 'host_keys', 'mirror_branch_regex', ...(matches(request, { route: MIRROR_ROUTES.get }) ? ['auth_method'] : []))),
    ),
  },
  {
    name: 'members-spec-fields',
    spec: 'Member: email "present only when visible (see rules)"; "group_saml_identity is visible only to group owners, for groups with SSO enabled"; override "present in responses of the override operations"; membership_state and locked are not listed; created_by is listed without condition (GitLab hides it for invited private groups).',
    onSend: body({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll, MEMBER_ROUTES.get, MEMBER_ROUTES.getAll, MEMBER_ROUTES.add, GROUP_MEMBER_EE_ROUTES.overrideSet, MEMBER_ROUTES.edit, MEMBER_ROUTES.remove, GROUP_MEMBER_EE_ROUTES.overrideRemove] }, (b, ctx, request) =>
      eachRow(b, (row) => specMember(row, ctx, request)),
    ),
  },
  {
    name: 'billable-spec-fields',
    spec: 'Billable member: email "present only for some members" (here: those whose email the Member visibility rules show); is_last_owner and locked are not listed.',
    onSend: body({ route: GROUP_MEMBER_EE_ROUTES.billable }, (b, ctx, request) =>
      eachRow(b, (row) => omit(row, 'is_last_owner', 'locked', ...(typeof row.email === 'string' && emailVisible(ctx, request, Number(row.id)) ? [] : ['email']))),
    ),
  },
  {
    name: 'pending-member-email-without-account-only',
    spec: 'Pending member: email is "the invited address when the person has no account" (for a person with an account it is not said: left out).',
    onSend: body({ route: GROUP_MEMBER_EE_ROUTES.pending }, (b) => eachRow(b, (row) => (row.username === undefined ? row : omit(row, 'email')))),
  },
  {
    name: 'mirrors-list-unpaginated',
    spec: 'GET /projects/:id/remote_mirrors "Returns an array of Remote mirror", not marked as paginated (Conventions: "Lists that take page and per_page … are marked as paginated"): the whole list (page and per_page ignored; up to the 100 rows of the largest page, which no project of a run comes near).',
    preHandler: changeParams({ route: MIRROR_ROUTES.list }, (params, request) => {
      delete (request.query as Json).page;
      delete (request.query as Json).per_page;
      delete params.page;
      params.per_page = String(MAX_PER_PAGE);
    }).preHandler,
  },
  {
    name: 'per-page-zero-as-default',
    spec: 'Limits 2: "Paginated lists accept page and per_page; default and maximum per_page: not shown" (GitLab refuses per_page=0 with 400): per_page=0 reads as absent.',
    preHandler(request) {
      if (request.method !== 'GET' || !inSpec(request)) return;
      for (const bag of [request.query, request.body]) if (bag && typeof bag === 'object' && String((bag as Json).per_page).trim() === '0') delete (bag as Json).per_page;
    },
  },
  {
    name: 'pagination-headers-omitted',
    spec: 'Conventions: "Lists that take page (integer, page to retrieve) and per_page (integer, items per page) are marked as paginated"; no response header is named (X-Total, X-Next-Page, Link … are GitLab\'s).',
    onSend(request, reply, payload) {
      if (inSpec(request)) for (const name of ['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'link']) reply.removeHeader(name);
      return payload;
    },
  },
  {
    name: 'files-metadata-headers-on-head-only',
    spec: 'File: "The same data is carried in HTTP response headers by the HEAD operations" (the GET answers are not said to carry them).',
    onSend(request, reply, payload, ctx) {
      if (request.method !== 'GET' || !matches(request, FILE_READS)) return payload;
      const prefix = ctx.options.headerPrefix.toLowerCase();
      for (const name of Object.keys(reply.getHeaders())) if (name.toLowerCase().startsWith(prefix)) reply.removeHeader(name);
      return payload;
    },
  },
  // ---- (a) error texts: last, so that the answers above lose GitLab's words too ----
  {
    name: 'other-error-texts',
    spec: 'Errors: "Error body shape and status codes for failures on other endpoints: not shown"; file writes: "the message is non-specific"; invitation failures: "Sample texts".',
    onSend(request, reply, payload) {
      if (!inSpec(request)) return payload;
      const answer = parse(payload);
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return payload;
      const b = answer as Json;
      if (reply.statusCode >= 400) {
        const text = otherText(reply.statusCode);
        return JSON.stringify(Object.fromEntries(Object.entries(b).map(([key, value]) => [key, ['message', 'error', 'error_description'].includes(key) ? otherTexts(value, text) : value])));
      }
      // 201 answers that report failures (invitations per recipient, several members at once): same keys, other texts.
      if (request.method === 'POST' && b.status === 'error') return JSON.stringify({ ...b, message: otherTexts(b.message, 'Spec-only: this recipient was not added') });
      return payload;
    },
  },
];

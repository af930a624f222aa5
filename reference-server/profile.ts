// `--gitlab <version>-<edition>[-<tier>]` (option `gitlab`): the reference server answers as that
// GitLab release and licence tier where the four areas and the set-up endpoints differ between
// releases. Without it the server plays the newest release with every feature (19.0.0-ee, Ultimate).
// What differs, each read from GitLab's source (gitlabhq/gitlabhq, the releases named):
// - deletion of groups and projects (routes/deletion.ts):
//   - before 18.0, Free (CE, or EE without a licence) deletes at once; Premium and Ultimate mark first
//     (licence feature `adjourned_deletion_for_projects_and_groups`): a project is renamed
//     `<path>-deleted-<id>` / `<name>-deleted-<id>` (ee/app/services/projects/mark_for_deletion_service.rb,
//     17.x), a group is marked and keeps its name (ee/app/services/groups/mark_for_deletion_service.rb, 17.x);
//   - from 18.0 every tier marks (app/services/projects/mark_for_deletion_service.rb moved to CE), the
//     project still renamed `-deleted-<id>`, the group not renamed;
//   - from 18.3 groups and projects are renamed `-deletion_scheduled-<id>`
//     (app/services/{groups,projects}/mark_for_deletion_service.rb `suffixed_identifier`).
// - the Planner role (access level 15) from 17.7 (lib/gitlab/access.rb PLANNER); before, Grape refuses
//   the value (`values: ::Gitlab::Access.all_values`, lib/api/members.rb, lib/api/invitations.rb).
// - GET …/remote_mirrors/:mirror_id/public_key from 17.9 (lib/api/remote_mirrors.rb; doc/api/remote_mirrors.md history).
// - member promotion management from 17.5, Ultimate (ee/app/models/ee/application_setting.rb
//   enable_member_promotion_management; ee/lib/ee/api/settings.rb): a capability, declared or not.
// - EE-only routes (billable and pending members, override, state, approve: ee/lib/ee/api/members.rb):
//   a CE instance has no such route, 404 as Grape's catch-all (lib/api/api.rb `route :any, '*path'`).
import type { FastifyInstance } from 'fastify';
import { mergedParams } from './http/params.js';
import type { Deletion } from './state/model.js';

export type Edition = 'ce' | 'ee';
export type Tier = 'free' | 'premium' | 'ultimate';

/** How DELETE /groups/:id and /projects/:id behave (state/model.ts, where the store reads it). */
export type { Deletion } from './state/model.js';

export interface GitlabProfile {
  /** As given: `17.10-ee-premium`. */
  name: string;
  /** What GET /version reports. */
  version: string;
  edition: Edition;
  tier: Tier;
  deletion: Deletion;
  planner: boolean;
  mirrorPublicKey: boolean;
  /** The capabilities (runner/run/config.ts) such a target declares. */
  capabilities: string[];
}

const at = (major: number, minor: number, since: [number, number]) => major > since[0] || (major === since[0] && minor >= since[1]);

/** The profile a name stands for; an Error saying what is wrong otherwise. */
export function parseProfile(name: string): GitlabProfile {
  const match = /^(\d+)\.(\d+)-(ce|ee)(?:-(free|premium|ultimate))?$/.exec(name);
  if (!match) throw new Error(`--gitlab must be <major>.<minor>-<ce|ee>[-<free|premium|ultimate>] (as 16.11-ce, 17.10-ee-premium), got "${name}"`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const edition = match[3] as Edition;
  if (edition === 'ce' && match[4] !== undefined && match[4] !== 'free') throw new Error(`--gitlab ${name}: a CE instance has no ${match[4]} tier`);
  if (!at(major, minor, [16, 0]) || at(major, minor, [20, 0])) throw new Error(`--gitlab ${name}: the profiles cover GitLab 16.0 to 19.x`);
  const tier = (match[4] ?? (edition === 'ce' ? 'free' : 'ultimate')) as Tier;
  const paid = edition === 'ee' && tier !== 'free';
  const deletion: Deletion = at(major, minor, [18, 3])
    ? { kind: 'marked', projectSuffix: 'deletion_scheduled', groupSuffix: 'deletion_scheduled' }
    : at(major, minor, [18, 0]) || paid
      ? { kind: 'marked', projectSuffix: 'deleted', groupSuffix: null }
      : { kind: 'immediate' };
  const capabilities = !paid
    ? []
    : [
        'premium',
        ...(tier === 'ultimate' ? ['ultimate'] : []),
        'ldap',
        'saml',
        ...(tier === 'ultimate' && at(major, minor, [17, 5]) ? ['promotion_management'] : []),
        'enterprise_users',
        'member_removal_rate_limit',
      ];
  return { name, version: `${major}.${minor}.0-${edition}`, edition, tier, deletion, planner: at(major, minor, [17, 7]), mirrorPublicKey: at(major, minor, [17, 9]), capabilities };
}

const GROUP = '/api/v4/groups/[^/]+';
/** Routes only EE has (ee/lib/ee/api/members.rb); also the mirror's public key before 17.9. */
function missingRoutes(profile: GitlabProfile): RegExp[] {
  return [
    ...(profile.edition === 'ce'
      ? [
          new RegExp(`^${GROUP}/billable_members(?:/.*)?$`),
          new RegExp(`^${GROUP}/pending_members/?$`),
          new RegExp(`^${GROUP}/members/[^/]+/(?:override|state|approve)/?$`),
          new RegExp(`^${GROUP}/members/approve_all/?$`),
        ]
      : []),
    ...(profile.mirrorPublicKey ? [] : [/^\/api\/v4\/projects\/[^/]+\/remote_mirrors\/[^/]+\/public_key\/?$/]),
  ];
}

/** Where an access level is given: members, invitations, sharing (Grape's `values:` check of each). */
const LEVEL_ROUTES = /^(?:POST|PUT) \/api\/v4\/(?:groups|projects)\/[^/]+\/(?:members|invitations|share)(?:\/[^/]+)?\/?$/;

/** Hooks that take away what the release or tier lacks (the routes themselves stay the newest GitLab's). */
export function installProfile(app: FastifyInstance, profile: GitlabProfile): void {
  const missing = missingRoutes(profile);
  if (missing.length > 0) {
    app.addHook('onRequest', async (request, reply) => {
      const url = request.url.split('?')[0];
      if (missing.some((path) => path.test(url))) return reply.code(404).send({ error: '404 Not Found' });
    });
  }
  if (!profile.planner) {
    app.addHook('preHandler', async (request, reply) => {
      if (!LEVEL_ROUTES.test(`${request.method} ${request.url.split('?')[0]}`)) return;
      const params = mergedParams(request);
      for (const field of ['access_level', 'group_access']) {
        if (String(params[field]) === '15') return reply.code(400).send({ error: `${field} does not have a valid value` });
      }
    });
  }
}

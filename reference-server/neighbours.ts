// The neighbours mode (`neighbours: true`): the suite's check that no test compares a list another
// test of its file may change at the same time. Tests of a file run at once; with
// CONFORMANCE_MARK_SHARED_LISTS=true the suite marks every request a test (not run `alone`) sends
// about a source it shares with other tests, with the test's id (contract/shared-list-header.ts;
// runner/run/shared-lists.ts). This server notes which tests changed which lists of which sources;
// before it answers a marked read of a list that another test has changed in this run, it makes one
// change of its own to that list, as that test could have made it just then: a new member,
// invitation, access request or mirror. A test that fails then compares what a neighbour changes: it
// must take a source of its own, or run alone. Unmarked requests are answered as always.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SHARED_LIST_HEADER } from '../contract/shared-list-header.js';
import type { Store } from './state/store.js';

/** Node's lower-case name of SHARED_LIST_HEADER, as request.headers holds it. */
const MARK = SHARED_LIST_HEADER.toLowerCase();
/** Set on an answer whose list this mode changed first. */
export const NEIGHBOUR_HEADER = 'X-Reference-Neighbour';

export interface NeighboursOptions {
  /** Change the lists the suite marks as shared and other tests changed, before answering them (the suite's race check). */
  neighbours?: boolean;
}

type Family = 'members' | 'invitations' | 'requests' | 'mirrors';
const FAMILIES: Family[] = ['members', 'invitations', 'requests', 'mirrors'];

interface Write {
  source: string;
  root: string;
  family: Family;
  by: string;
}

interface Place {
  /** `group:<id>` or `project:<id>`, then its groups up to the top: nearest first. */
  chain: string[];
  collection: string;
  rest: string;
}

/** The lists of a source (`group:<id>` or `project:<id>`), each as the set of what it holds. */
function listsOf(store: Store, source: string): Record<Family, string> {
  const [kind, id] = source.split(':');
  const members = [...store.members.values()].filter((m) => m.source.kind === kind && m.source.id === Number(id));
  const ids = (values: unknown[]) => JSON.stringify(values.map(String).sort());
  return {
    members: ids(members.filter((m) => m.inviteToken === null).map((m) => m.userId)),
    invitations: ids(members.filter((m) => m.inviteToken !== null).map((m) => m.id)),
    requests: ids(store.accessRequests.of({ kind, id: Number(id) }).map((r) => r.userId)),
    mirrors: ids(kind === 'project' ? (store.projects.get(Number(id))?.remoteMirrors ?? []).map((m) => m.id) : []),
  };
}

/** The source (and its groups) and the list a request under /groups or /projects names. */
function placeOf(store: Store, request: FastifyRequest): Place | undefined {
  const match = /^\/api\/v4\/(groups|projects)\/([^/?]+)\/([^/?]+)\/?([^?]*)/.exec(request.url);
  if (!match) return undefined;
  const [, kinds, ref, collection, rest] = match;
  const id = decodeURIComponent(ref);
  const groupChain = (group: ReturnType<Store['findGroup']>) => (group ? store.groupChain(group).map((g) => `group:${g.id}`) : []);
  if (kinds === 'groups') {
    const group = store.findGroup(id);
    return group && { chain: groupChain(group), collection, rest };
  }
  const project = store.findProject(id);
  return project && { chain: [`project:${project.id}`, ...groupChain(store.projectGroup(project))], collection, rest };
}

export function installNeighbours(app: FastifyInstance, store: Store, adminToken: string): void {
  const writes: Write[] = [];
  /**
   * The lists of a source before a marked write, as the sets of what they hold (members by user, and
   * invitations, access requests and mirrors): a write that added or removed an entry changed a list.
   * A change of an entry's level or state is not followed.
   */
  const before = new WeakMap<FastifyRequest, Record<Family, string>>();
  let made = 0;

  /** Whether another test than `by` changed what a read of `place` lists. */
  const changedByAnother = (place: Place, by: string): boolean => {
    const [self] = place.chain;
    const root = place.chain[place.chain.length - 1];
    const others = writes.filter((w) => w.by !== by);
    const direct = (family: Family) => others.some((w) => w.family === family && w.source === self);
    switch (place.collection) {
      case 'members':
        if (place.rest === '') return direct('members');
        // members/all: the source's members and its groups' up to the top.
        return place.rest === 'all' && others.some((w) => w.family === 'members' && place.chain.includes(w.source));
      case 'billable_members':
        return place.rest === '' && others.some((w) => w.family === 'members' && w.root === root);
      case 'pending_members':
        return place.rest === '' && (direct('members') || direct('invitations'));
      case 'invitations':
        return place.rest === '' && direct('invitations');
      case 'access_requests':
        return place.rest === '' && direct('requests');
      case 'remote_mirrors':
        return place.rest === '' && direct('mirrors');
      default:
        return false;
    }
  };

  const send = async (url: string, body: unknown, token = adminToken) => {
    const res = await app.inject({ method: 'POST', url, headers: { 'private-token': token, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    return res.statusCode < 300 ? (res.json() as Record<string, unknown>) : undefined;
  };
  const newUser = () => {
    const n = ++made;
    return send('/api/v4/users', { username: `neighbour-${n}`, name: `Neighbour ${n}`, email: `neighbour-${n}@neighbours.example.com`, password: `Neighbour-${n}-password`, skip_confirmation: true });
  };
  /** One change to the list `collection` of `source` (its API path), as another test could make. */
  const neighbour = async (source: string, collection: string) => {
    if (['members', 'billable_members'].includes(collection)) {
      const user = await newUser();
      if (user) await send(`${source}/members`, { user_id: user.id, access_level: 30 });
    } else if (['invitations', 'pending_members'].includes(collection)) {
      await send(`${source}/invitations`, { email: `neighbour-invitation-${++made}@neighbours.example.com`, access_level: 30 });
    } else if (collection === 'access_requests') {
      const user = await newUser();
      const token = user && (await send(`/api/v4/users/${String(user.id)}/personal_access_tokens`, { name: 'neighbour', scopes: ['api'] }))?.token;
      if (typeof token === 'string') await send(`${source}/access_requests`, {}, token);
    } else if (collection === 'remote_mirrors') {
      await send(`${source}/remote_mirrors`, { url: `https://neighbour-${++made}.example.com/mirror.git` });
    }
  };

  app.addHook('preHandler', async (request, reply) => {
    const by = request.headers[MARK];
    if (typeof by !== 'string') return;
    const place = placeOf(store, request);
    if (!place) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      before.set(request, listsOf(store, place.chain[0]));
      return;
    }
    if (!changedByAnother(place, by)) return;
    await neighbour(/^\/api\/v4\/(?:groups|projects)\/[^/?]+/.exec(request.url)![0], place.collection);
    // In the evidence of a test that fails on it: the answer holds a neighbour's change.
    void reply.header(NEIGHBOUR_HEADER, place.collection);
  });
  app.addHook('onResponse', async (request) => {
    const by = request.headers[MARK];
    const was = before.get(request);
    const place = was && placeOf(store, request);
    if (typeof by !== 'string' || !was || !place) return;
    const now = listsOf(store, place.chain[0]);
    for (const family of FAMILIES) if (now[family] !== was[family]) writes.push({ source: place.chain[0], root: place.chain[place.chain.length - 1], family, by });
  });
}

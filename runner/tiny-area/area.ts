// A tiny area of its own, to prove the recipe of docs/CONTRIBUTING-AREAS.md: one endpoint, one
// clause, one test file; registered beside the real areas by cli/area-registration.spec.ts.
import { defineArea } from '../core/area.js';

export const tiny = defineArea({
  name: 'tiny',
  prefix: 'tiny',
  // Not one of the spec's forms (contract/forms.ts): an extension, tested at the parity level.
  extensions: { ping: { group: 'GET /groups/:id/tiny_ping', project: 'GET /projects/:id/tiny_ping' } },
  clauses: [{ id: 'tiny.ping.answers', level: 'must', text: 'GET …/tiny_ping of a group or project answers 200 {"pong": <its id>} to a member.', source: 'the tiny area of the area-registration test' }],
  // What the lists derived from the areas take in (cli/area-registration.spec.ts): a write that gives
  // a user a place, for the lending policy, and a collection whose path segments are ids, for the differential.
  roleGrantingWrites: [{ collection: 'tiny_guests', userParams: ['guest_id'] }],
  collectionIdKinds: { tiny_guests: 'user', tiny_pings: 'ping' },
});

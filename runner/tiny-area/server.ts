// The tiny area on the server side: its routes, declared by id, and its one seeded fault, registered
// as reference-server/areas.ts registers an area (one serverArea line).
import { serverArea } from '../../reference-server/areas.js';
import { mapBody } from '../../reference-server/faults/dsl.js';
import { on, routeTable } from '../../reference-server/http/route-ids.js';

const TINY_ROUTES = routeTable({ ping: { method: 'GET', path: '/:kind/:id/tiny_ping' } });

export const tinyServer = serverArea(
  'tiny',
  (app) => {
    for (const kind of ['group', 'project'] as const) {
      on<{ Params: { id: string } }>(app, TINY_ROUTES.ping, { kind }, async (request) => ({ pong: Number(request.params.id) }));
    }
  },
  [{ name: 'tiny.pong-off-by-one', clauses: ['tiny.ping.answers'], description: 'pong is the id plus one', ...mapBody({ route: TINY_ROUTES.ping }, (b) => ({ pong: Number(b.pong) + 1 })) }],
);

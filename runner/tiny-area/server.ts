// The tiny area on the server side: its routes and its one seeded fault, registered as
// reference-server/areas.ts registers an area (one serverArea line).
import { serverArea } from '../../reference-server/areas.js';
import { mapBody } from '../../reference-server/faults/dsl.js';

export const tinyServer = serverArea(
  'tiny',
  (app) => {
    for (const kind of ['groups', 'projects']) {
      app.get<{ Params: { id: string } }>(`/${kind}/:id/tiny_ping`, async (request) => ({ pong: Number(request.params.id) }));
    }
  },
  [{ name: 'tiny.pong-off-by-one', clauses: ['tiny.ping.answers'], description: 'pong is the id plus one', ...mapBody({ method: 'GET', route: ['/groups/:id/tiny_ping', '/projects/:id/tiny_ping'] }, (b) => ({ pong: Number(b.pong) + 1 })) }],
);

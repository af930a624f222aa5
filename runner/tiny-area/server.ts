// The tiny area on the server side: its routes and (no) faults, as reference-server/areas.ts lists areas.
import type { ServerArea } from '../../reference-server/areas.js';

export const tinyServer: ServerArea = {
  name: 'tiny',
  faults: [],
  routes: (app) => {
    for (const kind of ['groups', 'projects']) {
      app.get<{ Params: { id: string } }>(`/${kind}/:id/tiny_ping`, async (request) => ({ pong: Number(request.params.id) }));
    }
  },
};

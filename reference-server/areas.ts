// The areas the reference server implements, each with its routes and its seeded faults. The suite
// registers the same names in suites/areas.ts (a unit test keeps both lists in step); adding an area
// is a routes module and one line here (docs/CONTRIBUTING-AREAS.md).
import type { RouteModule } from './http/context.js';
import { CATALOGUE } from './faults/catalogue.js';
import type { SeededFault } from './faults/types.js';
import { invitationsRoutes } from './routes/invitations.js';
import { membersRoutes } from './routes/members.js';
import { remoteMirrorsRoutes } from './routes/remote-mirrors.js';
import { repositoryFilesRoutes } from './routes/repository-files.js';

export interface ServerArea {
  /** The area's name, as the suite registers it. */
  name: string;
  routes: RouteModule;
  /** Its seeded faults (the catalogue's, by area). */
  faults: SeededFault[];
}

const area = (name: string, routes: RouteModule): ServerArea => ({ name, routes, faults: CATALOGUE.filter((f) => f.area === name) });

export const SERVER_AREAS: ServerArea[] = [
  area('repository-files', repositoryFilesRoutes),
  area('remote-mirrors', remoteMirrorsRoutes),
  area('invitations', invitationsRoutes),
  area('members', membersRoutes),
];

// The areas the reference server implements, each with its routes and its seeded faults. The suite
// registers the same names in suites/areas.ts (a unit test keeps both lists in step); adding an area
// is a routes module, a faults module (reference-server/faults/<area>.ts) and one line here
// (docs/CONTRIBUTING-AREAS.md). Everything that lists the server's areas or their faults derives
// from SERVER_AREAS: the fault catalogue (CATALOGUE, by faults/catalogue.ts), the faults a server knows
// (FAULTS, by faults/index.ts) and the area each fault carries. The faults import nothing of this file.
import type { RouteModule } from './http/context.js';
import { invitationsFaults } from './faults/invitations.js';
import { membersFaults } from './faults/members.js';
import { remoteMirrorsFaults } from './faults/remote-mirrors.js';
import { repositoryFilesFaults } from './faults/repository-files.js';
import { catalogueOf } from './faults/catalogue.js';
import { faultsOf } from './faults/index.js';
import type { AreaFault, Fault, SeededFault } from './faults/types.js';
import { invitationsRoutes } from './routes/invitations.js';
import { membersRoutes } from './routes/members.js';
import { remoteMirrorsRoutes } from './routes/remote-mirrors.js';
import { repositoryFilesRoutes } from './routes/repository-files.js';

export interface ServerArea<N extends string = string> {
  /** The area's name, as the suite registers it. */
  name: N;
  routes: RouteModule;
  /** Its seeded faults, each carrying the area's name. */
  faults: SeededFault[];
}

/** One area: its name, its routes and the faults it declares (given the area's name here). */
export function serverArea<const N extends string>(name: N, routes: RouteModule, faults: AreaFault[] = []): ServerArea<N> {
  // One a test adds for itself (runner/tiny-area/) carries its own name all the same.
  return { name, routes, faults: faults.map((fault) => ({ ...fault, area: name })) };
}

export const SERVER_AREAS = [
  serverArea('repository-files', repositoryFilesRoutes, repositoryFilesFaults),
  serverArea('remote-mirrors', remoteMirrorsRoutes, remoteMirrorsFaults),
  serverArea('invitations', invitationsRoutes, invitationsFaults),
  serverArea('members', membersRoutes, membersFaults),
];

/** The seeded faults of the registered areas, then the cross-cutting ones (faults/catalogue.ts). */
export const CATALOGUE: SeededFault[] = catalogueOf(SERVER_AREAS);

/** The faults of the server with its registered areas: the robustness faults, then the catalogue. */
export const FAULTS: Fault[] = faultsOf(SERVER_AREAS);
export const FAULT_NAMES = FAULTS.map((f) => f.name);

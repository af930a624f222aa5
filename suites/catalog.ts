// The clause catalog of the whole suite: every area's clauses, by id. Each area adds its list here.
import type { Clause } from './harness/clauses.js';
import { repositoryFilesClauses } from './repository-files/clauses.js';
import { remoteMirrorsClauses } from './remote-mirrors/clauses.js';
import { invitationsClauses } from './invitations/clauses.js';
import { membersClauses } from './members/clauses.js';

export const CATALOG: Clause[] = [...repositoryFilesClauses, ...remoteMirrorsClauses, ...invitationsClauses, ...membersClauses];

export const CATALOG_IDS: ReadonlySet<string> = new Set(CATALOG.map((c) => c.id));

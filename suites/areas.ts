// The registered areas: the one list everything that lists areas derives from (settings, reports,
// the CLI, the fault checker, the endpoint forms). Adding an area is a folder with its area.ts and
// tests, and one line here (docs/CONTRIBUTING-AREAS.md).
import { catalogOf } from '../runner/core/area.js';
import { invitations } from './invitations/area.js';
import { members } from './members/area.js';
import { remoteMirrors } from './remote-mirrors/area.js';
import { repositoryFiles } from './repository-files/area.js';

export const AREAS = [repositoryFiles, remoteMirrors, invitations, members];

export const CATALOG = catalogOf(AREAS);

/** How many endpoint forms the spec has (contract/forms.ts), as the registered areas take them. */
export const ENDPOINT_FORMS = CATALOG.endpointArea.size;

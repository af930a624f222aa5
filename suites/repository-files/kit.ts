// The repository-files area's kit: the base kit, for its `endpoint` (the area adds no methods of its own).
import { areaKit } from '../../runner/run/conformance.js';
import { repositoryFiles } from './area.js';

export const { endpoint } = areaKit(repositoryFiles);

// The remote-mirrors area's kit: the base kit, for its `endpoint` (the area adds no methods of its own).
import { areaKit } from '../../runner/run/conformance.js';
import { remoteMirrors } from './area.js';

export const { endpoint } = areaKit(remoteMirrors);

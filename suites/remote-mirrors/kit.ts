// The remote-mirrors area's kit: the base kit, and `repositories` for every test of it (the run's
// public group with a public and a private project: suites/common/repositories.ts).
import { areaKit } from '../../runner/run/conformance.js';
import { repositories } from '../common/repositories.js';
import { remoteMirrors } from './area.js';

export const { endpoint } = areaKit(remoteMirrors, { fixtures: { repositories } });

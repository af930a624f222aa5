// `npm run docs:endpoints`: writes docs/endpoints.txt from the spec's forms in contract/forms.ts.
// runner/harness.spec.ts fails when the file is not what this writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointsTxt } from '../contract/forms.js';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'endpoints.txt'), endpointsTxt());

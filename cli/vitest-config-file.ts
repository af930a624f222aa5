// The vitest configuration a command hands vitest: when the command runs from its compiled copy
// (bin/compiled-cli.js), the copy's, which vitest then loads as it is (configLoader 'native') with the
// same module instances as the command; else the tree's, through tsx like the command.
import { join } from 'node:path';

export function vitestConfigFile(root: string): string {
  const compiled = (globalThis as Record<symbol, unknown>)[Symbol.for('gitlab-api-conformance:vitest-config')];
  return typeof compiled === 'string' ? compiled : join(root, 'vitest.config.ts');
}

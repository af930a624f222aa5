// Where the command's files are: the package's root, and the vitest configuration it hands vitest.
// When the command runs from its compiled copy (bin/compiled-cli.js), the bin names the copy's
// configuration, which vitest then loads as it is (configLoader 'native') with the same module
// instances as the command; else the tree's, through tsx like the command.
import { join } from 'node:path';

export interface Home {
  root: string;
  vitestConfig: string;
}

export const homeAt = (root: string, compiledVitestConfig?: string): Home => ({ root, vitestConfig: compiledVitestConfig ?? join(root, 'vitest.config.ts') });

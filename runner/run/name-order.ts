// The order of test files in a sequential run: by name, so that a run meets the same objects in the
// same order as the one before (recordings to compare).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class NameOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

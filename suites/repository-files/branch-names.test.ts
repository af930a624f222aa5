// POST /projects/:id/repository/files/:file_path onto a new branch: the names GitLab refuses beyond git's rules.
import { expectError, expectStatus } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { fileUrl, writeBody } from './helpers.js';

const VALIDATE_NEW = 'app/services/commits/create_service.rb (validate_new_branch_name!); app/services/branches/validate_new_service.rb; lib/gitlab/git_ref_validator.rb (EXPANDED_PREFIXES); spec/services/branches/validate_new_service_spec.rb';

const suite = endpoint('create');

suite.test(
  {
    case: 'branch-name-ref-prefix',
    title: 'a new branch named refs/heads/<name> is refused with 400 "Something went wrong when we tried to create \'refs/heads/<name>\' for you: Branch name is invalid"; nothing is written',
    clauses: ['files.write.branch-name-ref-prefix'],
    // git itself takes the name (git check-ref-format --branch): GitLab's own rule, a parity check.
    level: 'parity',
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('branch-name-ref-prefix');
    const short = `${branch}-prefixed`;
    const prefixed = `refs/heads/${short}`;
    const res = await as('developer').post(fileUrl(publicProject, file), { body: writeBody('not written\n', { branch: prefixed, startBranch: branch }) });
    expectError(res, 400, { message: `Something went wrong when we tried to create '${prefixed}' for you: Branch name is invalid`, gitlab: VALIDATE_NEW });
    for (const ref of [short, branch]) expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref } }), 404, `the file absent from ${ref}`);
  },
);

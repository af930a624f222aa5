// GET /projects/:id/members/all of a project shared with a subgroup (spec/finders/members_finder_spec.rb).
import { expectTrue } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { memberIds } from './helpers.js';

/**
 * A private project with the shared actors in their roles (in a group of its own), shared with a
 * subgroup; a user of its own is a Developer of the subgroup's parent, another of the subgroup.
 */
const shared = fixture({
  name: 'members-list-all-shares',
  scope: 'file',
  build: async (t) => {
    const project = await t.roleProject({ group: await t.group() });
    const parent = await t.group();
    const sub = await t.group({ parent });
    const [ofParent, ofSub] = [await t.member(parent, ACCESS.DEVELOPER), await t.member(sub, ACCESS.DEVELOPER)];
    await t.make.share(project, sub, ACCESS.REPORTER);
    return { project, ofParent, ofSub };
  },
});

const suite = endpoint('list-all', { fixtures: { shared } });

suite.test(
  {
    case: 'shared-subgroup-ancestors',
    title: 'all members of a project shared with a subgroup list the members of the subgroup\'s parent as well as the subgroup\'s',
    clauses: ['members.all.invited-ancestors'],
    only: { kind: 'project', why: 'members_finder_spec shares a project with a subgroup' },
    // Which members a share brings is GitLab's finder's rule: a parity check.
    level: 'parity',
  },
  async ({ as, shared }) => {
    const { project, ofParent, ofSub } = shared;
    const ids = await memberIds(as('maintainer'), project, true);
    expectTrue(ids.includes(ofSub.id), 'the Developer of the subgroup the project is shared with to be listed', `got ids ${JSON.stringify(ids)}`);
    expectTrue(ids.includes(ofParent.id), 'the Developer of the subgroup\'s parent to be listed (app/finders/members_finder.rb; spec/finders/members_finder_spec.rb)', `got ids ${JSON.stringify(ids)}`);
  },
);

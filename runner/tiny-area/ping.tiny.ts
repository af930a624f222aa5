// The tiny area's one test file: written once, it runs for groups and projects.
import { expectEqual, expectOk } from '../core/checks.js';
import { sourcePath } from '../core/vocabulary.js';
import { endpoint } from '../run/conformance.js';
import { fixture } from '../run/fixture.js';
import { tiny } from './area.js';

/** A group with the shared actors in their roles, and a project in it: the file's. */
const sources = fixture({
  name: 'tiny-sources',
  scope: 'file',
  async build({ make }) {
    const group = await make.group({ hint: 'tiny', roles: true });
    return { group, project: await make.project({ group, hint: 'tiny', empty: true }) };
  },
});

const suite = endpoint(tiny, 'ping', { uses: [sources] });

suite.test({ case: 'answers', title: 'a member gets pong with the id', clauses: ['tiny.ping.answers'], requires: { minVersion: '15.0' } }, async ({ kind, as, use }) => {
  const source = use(sources)[kind];
  const res = await as('developer').get(`${sourcePath(source)}/tiny_ping`);
  expectOk(res, 200);
  expectEqual(res.body, { pong: source.id }, 'pong with the id', res);
});

// The tiny area's one test file: written once, it runs for groups and projects.
import { expectEqual, expectOk } from '../core/checks.js';
import { sourcePath } from '../core/vocabulary.js';
import { endpoint, useWorld } from '../run/conformance.js';
import { tiny } from './area.js';

const suite = endpoint(tiny, 'ping');
const world = useWorld('tiny-ping', async (w) => {
  const group = await w.group({ hint: 'tiny', roles: true });
  return { group, project: await w.project({ group, hint: 'tiny', empty: true }) };
});

suite.test({ case: 'answers', title: 'a member gets pong with the id', clauses: ['tiny.ping.answers'] }, async ({ kind, as }) => {
  const source = world()[kind];
  const res = await as('developer').get(`${sourcePath(source)}/tiny_ping`);
  expectOk(res, 200);
  expectEqual(res.body, { pong: source.id }, 'pong with the id', res);
});

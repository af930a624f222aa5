// The reference server, seeded in-process for the benches (faster than thousands of API calls),
// plus a probe port that collects garbage and reports the heap, so that bench.ts can watch memory
// over many requests. Run with --expose-gc.
//   --files N     a public project whose main branch holds N files (one commit each, as the API
//                 makes them) in 100 directories: dir<i % 100>/f<i>.txt; README.md among them
//   --members N   groups l1/l2/l3/leaf, N users spread over the leaf and its three ancestors
// Prints "listening <port> heap <probe port> project <id> group <leaf id>" once ready.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../reference-server/server.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '1' }, members: { type: 'string', default: '0' } } });
const server = await startReferenceServer({ adminToken: 'glpat-bench-admin-token-0000' });
const { store } = server;
const admin = store.users.get(1)!;

const project = store.createProject({ name: 'bench', path: 'bench', namespace: { kind: 'user', id: admin.id }, visibility: 'public', creatorId: admin.id, defaultBranch: 'main' });
const signature = { name: admin.name, email: admin.email, time: 1_700_000_000 };
const files = Number(values.files);
for (let i = 0; i < files; i++) {
  const path = i === 0 ? 'README.md' : `dir${i % 100}/f${i}.txt`;
  const content = Buffer.from(i === 0 ? '# bench\n'.repeat(20) : `file ${i}\n`.repeat(10));
  project.repository.commit({ branch: 'main', action: { kind: 'create', path, content }, message: `add ${path}`, author: signature, committer: signature });
}

// Three levels of ancestors above the group whose members are listed; every fourth user on the leaf.
let parentId: number | null = null;
const levels = ['l1', 'l2', 'l3', 'leaf'].map((path) => {
  const group = store.createGroup({ name: path, path, parentId, visibility: 'private' });
  parentId = group.id;
  return group;
});
store.addMember({ kind: 'group', id: levels[0].id }, { userId: admin.id, accessLevel: 50, createdById: admin.id });
const members = Number(values.members);
for (let i = 0; i < members; i++) {
  const user = store.createUser({ username: `u${i}`, name: `User ${i}`, email: `u${i}@example.com` });
  store.addMember({ kind: 'group', id: levels[i % 4 === 3 ? 3 : i % 3].id }, { userId: user.id, accessLevel: 10 + 10 * (i % 4), createdById: admin.id });
}

// The heap is reported on a port of its own, outside the server under measure.
const probe = createServer((_req, res) => {
  (globalThis as { gc?: () => void }).gc?.();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ heapUsedMiB: Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10 }));
});
probe.listen(0, '127.0.0.1', () => {
  const address = probe.address();
  const probePort = typeof address === 'object' && address ? address.port : 0;
  console.log(`listening ${new URL(server.url).port} heap ${probePort} project ${project.id} group ${levels[3].id}`);
});

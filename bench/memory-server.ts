// The reference server with a project and a file, plus a probe port that collects garbage and
// reports the heap, so bench.ts can watch memory over many requests. Run with --expose-gc.
import { createServer } from 'node:http';
import { startReferenceServer } from '../reference-server/server.js';

const server = await startReferenceServer({ adminToken: 'glpat-bench-admin-token-0000' });
const admin = server.store.users.get(1)!;
const project = server.store.createProject({ name: 'mem', path: 'mem', namespace: { kind: 'user', id: admin.id }, visibility: 'public', creatorId: admin.id, defaultBranch: 'main' });
const signature = { name: admin.name, email: admin.email, time: 1_700_000_000 };
project.repository.commit({ branch: 'main', action: { kind: 'create', path: 'README.md', content: Buffer.from('# memory\n'.repeat(20)) }, message: 'init', author: signature, committer: signature });

// The heap is reported on a port of its own, outside the server under measure.
const probe = createServer((_req, res) => {
  (globalThis as { gc?: () => void }).gc?.();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ heapUsedMiB: Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10 }));
});
probe.listen(0, '127.0.0.1', () => {
  const address = probe.address();
  console.log(`listening ${new URL(server.url).port} heap ${typeof address === 'object' && address ? address.port : 0}`);
});

// The transport floor (bench.ts, section suite): as many HTTP requests as a whole run sends, between
// a bare Fastify server in the main thread (as the bundled reference server runs in the command's)
// and two worker threads (as the run's two test threads) with node:http keep-alive clients, 8 in
// flight each; half GET, half POST with a JSON body, every answer parsed. No test logic, no
// reference server logic, no vitest: what moving the run's requests costs on this machine.
// Prints one line: {"requests":N,"seconds":S,"cpuSeconds":C}, C the whole process's CPU.
//   node --import tsx bench/transport-floor.ts REQUESTS
import { Worker } from 'node:worker_threads';

const THREADS = 2;
const IN_FLIGHT = 8;

/**
 * A test thread's share of the requests, as the source text of a worker (eval): plain JavaScript, so
 * the worker loads no TypeScript loader, as a run's test threads load none.
 */
const CLIENT = `
const { request, Agent } = require('node:http');
const { workerData } = require('node:worker_threads');
const { port, share, inFlight } = workerData;
const agent = new Agent({ keepAlive: true });
let left = share;
const one = (post, id) => new Promise((done, fail) => {
  const req = request({ host: '127.0.0.1', port, path: '/api/v4/projects/' + id + '/members', method: post ? 'POST' : 'GET', agent,
    headers: { 'private-token': 'floor', 'content-type': 'application/json' } }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => (body += chunk));
    res.on('end', () => { JSON.parse(body); done(); });
  });
  req.on('error', fail);
  req.end(post ? JSON.stringify({ user_id: id, access_level: 30 }) : undefined);
});
Promise.all(Array.from({ length: inFlight }, async () => {
  while (left > 0) { const id = left--; await one(id % 2 === 0, id); }
})).then(() => agent.destroy());
`;

const requests = Number(process.argv[2]);
if (!Number.isInteger(requests) || requests < 1) throw new Error('usage: transport-floor.ts REQUESTS');
const { default: Fastify } = await import('fastify');
const app = Fastify({ logger: false });
app.get('/api/v4/projects/:id/members', async () => [{ id: 1, username: 'member', name: 'Member', state: 'active', access_level: 30 }]);
app.post('/api/v4/projects/:id/members', async (_request, reply) => reply.code(201).send({ id: 2, username: 'added', name: 'Added', state: 'active', access_level: 30 }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const started = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(
  Array.from({ length: THREADS }, (_, i) => {
    const share = Math.floor(requests / THREADS) + (i < requests % THREADS ? 1 : 0);
    return new Promise((done, fail) => new Worker(CLIENT, { eval: true, workerData: { port, share, inFlight: IN_FLIGHT } }).on('exit', done).on('error', fail));
  }),
);
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ requests, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
await app.close();

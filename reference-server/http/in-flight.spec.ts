// The count of requests in flight: concurrent requests held by --latency raise `highest`, `current`
// falls back to 0 once they are answered (or their client is gone), and GET /-/reference/in-flight
// tells the same to another process without counting itself.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { IN_FLIGHT_PATH } from './in-flight.js';

const LATENCY_MS = 1000;
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ latencyMs: LATENCY_MS });
});

afterAll(async () => {
  await server?.close();
});

const version = () => fetch(`${server.url}/api/v4/version`, { headers: { 'private-token': server.adminToken } });
const probe = async () => {
  const res = await fetch(`${server.url}${IN_FLIGHT_PATH}`);
  return { status: res.status, ...((await res.json()) as object) };
};

/** Waits until `check` holds, for at most five seconds. */
async function until(check: () => boolean): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > 5000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('concurrent requests raise highest; current falls back to 0 when they are answered', async () => {
  server.inFlight.reset();
  expect(server.inFlight).toMatchObject({ current: 0, highest: 0 });
  const answers = Promise.all(Array.from({ length: 5 }, version));
  // All five are held by the latency at once.
  await until(() => server.inFlight.current === 5);
  expect(await probe()).toEqual({ status: 200, current: 5, highest: 5 });
  expect((await answers).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  await until(() => server.inFlight.current === 0);
  expect(server.inFlight).toMatchObject({ current: 0, highest: 5 });
  expect(await probe()).toEqual({ status: 200, current: 0, highest: 5 });
  await version();
  expect(server.inFlight.highest).toBe(5);
  server.inFlight.reset();
  expect(server.inFlight).toMatchObject({ current: 0, highest: 0 });
});

test('a request whose client goes away before the answer is no longer counted', async () => {
  server.inFlight.reset();
  const aborted = request(`${server.url}/api/v4/version`);
  aborted.on('error', () => {});
  aborted.end();
  await until(() => server.inFlight.current === 1);
  aborted.destroy();
  await until(() => server.inFlight.current === 0);
  expect(server.inFlight.highest).toBe(1);
  // The server goes on answering and counting.
  expect((await version()).status).toBe(200);
  expect(server.inFlight).toMatchObject({ current: 0, highest: 1 });
});

test('the probe is outside the API: JSON with nothing but the two counts, other methods and paths go to the API', async () => {
  const res = await fetch(`${server.url}${IN_FLIGHT_PATH}?now=1`);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(await res.text()).toMatch(/^\{"current":0,"highest":\d+\}$/);
  expect((await fetch(`${server.url}${IN_FLIGHT_PATH}`, { method: 'POST' })).status).toBe(404);
  expect((await fetch(`${server.url}${IN_FLIGHT_PATH}/more`)).status).toBe(404);
});

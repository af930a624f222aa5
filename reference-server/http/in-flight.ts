// The number of requests the server holds at once (received and not yet answered) and the highest
// it has been: what a run's concurrency really reached at the server. A request counts from the
// HTTP server's 'request' event to its response's 'close', which comes once the answer is sent or
// the connection is gone, so an aborted request does not stay counted. The count is read on the
// ReferenceServer object or, from another process, at GET /-/reference/in-flight, answered before
// Fastify sees the request: outside the API, its hooks and its faults, and not counted itself.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const IN_FLIGHT_PATH = '/-/reference/in-flight';

export interface InFlight {
  /** Requests received and not yet answered. */
  readonly current: number;
  /** The highest `current` since the start or the last reset. */
  readonly highest: number;
  /** Starts `highest` again from the requests in flight now. */
  reset(): void;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Counts the requests of `server`, whose one 'request' listener (Fastify's) it wraps. */
export function countInFlight(server: Server): InFlight {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`countInFlight: expected the one request listener of Fastify, found ${listeners.length}`);
  const [handle] = listeners;
  let current = 0;
  let highest = 0;
  const answered = () => {
    current--;
  };
  server.removeListener('request', handle);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET' && (request.url === IN_FLIGHT_PATH || request.url?.startsWith(`${IN_FLIGHT_PATH}?`))) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ current, highest }));
      return;
    }
    current++;
    if (current > highest) highest = current;
    response.on('close', answered);
    handle(request, response);
  });
  return {
    get current() {
      return current;
    },
    get highest() {
      return highest;
    },
    reset() {
      highest = current;
    },
  };
}

// GitLab's API stack (Rack, Grape) at the HTTP level, where Fastify's defaults differ: the JSON
// content type, empty request bodies, and the headers of every answer. Real clients depend on
// these: python-gitlab 3.x parses a body only when Content-Type is exactly `application/json`,
// and sends `Content-Type: application/json` with an empty body on DELETE and bodiless POST/PUT.
import { errorCodes, type FastifyInstance } from 'fastify';
import { parseMultipart, parseNestedQuery, RACK_REFUSAL } from './rack-params.js';

/** lib/api/api.rb: `content_type :json, 'application/json'` — no charset parameter. */
export const JSON_CONTENT_TYPE = 'application/json';

/** What Fastify writes for a serialized object (and what a client must not be sent). */
const FASTIFY_JSON = /^application\/json\s*;\s*charset=utf-8$/i;

export function installGitlabHttp(app: FastifyInstance): void {
  // Grape parses a body only when Content-Length > 0 (or chunked) and skips an empty one, whatever
  // its declared type (grape lib/grape/middleware/formatter.rb: read_body_input?, read_rack_input).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  // Form and multipart bodies are read as Rack reads them (rack-params.ts): bracket arrays and hashes,
  // the last of a repeated plain key.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : parseNestedQuery(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, (body as Buffer).length === 0 ? undefined : parseMultipart(body as Buffer, request.headers['content-type'] ?? ''));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Types without a parser: empty is no body; anything else stays refused as before.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if ((body as Buffer).length === 0) done(null, undefined);
    else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
  });

  // The two hooks run on every request: written with callbacks rather than async, they cost no
  // promise and no extra turn of the microtask queue. Header names are given in lowercase, the case
  // Fastify stores and sends them in.
  // lib/api/api.rb sets these two in a `before` block, so every API answer carries them.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-frame-options', 'SAMEORIGIN');
    reply.header('x-content-type-options', 'nosniff');
    const refusal = (request.query as Record<symbol, unknown> | undefined)?.[RACK_REFUSAL];
    if (refusal) done(refusal as Error);
    else done();
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && FASTIFY_JSON.test(type)) reply.header('content-type', JSON_CONTENT_TYPE);
    // Grape's Formatter leaves bodiless statuses unformatted, so no Content-Type (Rack::Lint forbids one on 204/304).
    if (reply.statusCode === 204 || reply.statusCode === 304) reply.removeHeader('content-type');
    done(null, payload);
  });
}

// Parameters as Rack reads them before Grape sees them: the query string and form bodies go through
// Rack::QueryParser#parse_nested_query (rack lib/rack/query_parser.rb, `normalize_params`), multipart
// bodies through Rack::Multipart::Parser with the same name rules. So `a[]=1&a[]=2` is the array
// ["1", "2"], `a[b]=1` the hash {b: "1"}, `a[][b]=1&a[][c]=2` [{b: "1", c: "2"}], and a plain key
// given twice (`a=1&a=2`) keeps its last value. Real clients depend on this: the Ruby gem, go-gitlab
// and GitLab::API::v4 send arrays in the bracket form.
import { ApiError } from './errors.js';

export type RackValue = string | null | RackValue[] | RackHash | UploadedFile;
export interface RackHash {
  [key: string]: RackValue;
}

/** A multipart file part, as Rack hands it on (`filename`, `type`, the content). */
export interface UploadedFile {
  filename: string;
  type: string;
  content: Buffer;
}

/** Rack::QueryParser::DEFAULT_PARAM_DEPTH_LIMIT (Rack 2.2 and 3). */
const DEPTH_LIMIT = 100;

/** Rack answers a malformed parameter name (an array where a hash was built, or the reverse) with 400. */
function badParams(detail: string): ApiError {
  return new ApiError(400, { error: `Invalid query parameters: ${detail}` });
}

const isHash = (value: RackValue | undefined): value is RackHash =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer((value as UploadedFile).content);

/** URI.decode_www_form_component: `+` is a space, bad escapes are left as they are. */
function unescape(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** Rack's normalize_params: puts `value` under the (bracketed) `name` into `params`. */
export function normalizeParams(params: RackHash, name: string, value: RackValue, depth = DEPTH_LIMIT): RackHash | RackValue[] | undefined {
  if (depth <= 0) throw badParams('too deeply nested');
  const match = /^[[\]]*([^[\]]+)\]*/.exec(name);
  const key = match?.[1] ?? '';
  const after = match ? name.slice(match[0].length) : '';
  if (key === '') return value !== null && name === '[]' ? [value] : undefined;

  if (after === '') {
    params[key] = value;
  } else if (after === '[') {
    params[name] = value;
  } else if (after === '[]') {
    const list = (params[key] ??= []);
    if (!Array.isArray(list)) throw badParams(`expected Array for param \`${key}'`);
    list.push(value);
  } else {
    const child = /^\[\]\[([^[\]]+)\]$/.exec(after) ?? /^\[\](.+)$/.exec(after);
    if (child) {
      const list = (params[key] ??= []);
      if (!Array.isArray(list)) throw badParams(`expected Array for param \`${key}'`);
      const last = list.at(-1);
      if (isHash(last) && !(child[1] in last)) normalizeParams(last, child[1], value, depth - 1);
      else list.push((normalizeParams({}, child[1], value, depth - 1) as RackHash | undefined) ?? null);
    } else {
      const hash = (params[key] ??= {});
      if (!isHash(hash)) throw badParams(`expected Hash for param \`${key}'`);
      normalizeParams(hash, after, value, depth - 1);
    }
  }
  return params;
}

/** Set on a parsed query Rack refused; the server answers it with that 400 before the route runs. */
export const RACK_REFUSAL = Symbol('rack refusal');

/**
 * For Fastify's querystringParser, which must not throw (it runs inside routing): a query Rack
 * refuses parses to an empty object that carries the refusal.
 */
export function parseQueryForRoute(text: string): RackHash {
  try {
    return parseNestedQuery(text);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return Object.defineProperty({}, RACK_REFUSAL, { value: error, enumerable: false }) as RackHash;
  }
}

/** Rack::QueryParser#parse_nested_query: `&`-separated pairs, a key without `=` is nil. */
export function parseNestedQuery(text: string): RackHash {
  const params: RackHash = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = unescape(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? null : unescape(pair.slice(at + 1));
    normalizeParams(params, name, value);
  }
  return params;
}

/**
 * A multipart/form-data body (RFC 7578) as Rack::Multipart reads it: each part's `name` goes through
 * normalize_params; a part with a filename is an uploaded file, the others are strings.
 */
export function parseMultipart(body: Buffer, contentType: string): RackHash {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw badParams('multipart boundary missing');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const params: RackHash = {};
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    // The part sits between the CRLF after the delimiter and the CRLF before the next one.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const content = part.subarray(headerEnd + 4);
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      if (name !== undefined) {
        const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
        normalizeParams(params, name, filename !== undefined ? { filename, type, content } : content.toString('utf8'));
      }
    }
    start = next;
  }
  return params;
}

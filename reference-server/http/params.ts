// Parameter reading with Grape's rules and messages: query string and body are merged (body wins),
// values are coerced to the declared type, and failures become 400 `{"error": ...}`.
import type { FastifyRequest } from 'fastify';
import { paramError } from './errors.js';

export type RawParams = Record<string, unknown>;

export function mergedParams(request: FastifyRequest): RawParams {
  const query = (request.query ?? {}) as RawParams;
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as RawParams) : {};
  return { ...query, ...body };
}

/** An ISO 8601 date, or a date-time (its date, and the rest: time and zone). */
const DATE_OR_TIME = /^(\d{4}-\d{2}-\d{2})([T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Reads declared parameters one by one; collects every Grape error and throws them joined. */
export class Params {
  constructor(
    readonly raw: RawParams,
    private readonly errors: string[] = [],
  ) {}

  /** Other parameters (a hash parameter's members) whose errors join these. */
  within(raw: RawParams): Params {
    return new Params(raw, this.errors);
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  /** A scalar parameter: Rack already kept the last of a repeated plain key; an array or hash is invalid for it. */
  private scalar(name: string): unknown {
    return this.raw[name];
  }

  string(name: string, opts: { required?: boolean; allowBlank?: boolean; values?: readonly string[] } = {}): string | undefined {
    const value = this.scalar(name);
    if (value === undefined || value === null) {
      if (opts.required) this.errors.push(`${name} is missing`);
      return undefined;
    }
    if (typeof value === 'object') {
      this.errors.push(`${name} is invalid`);
      return undefined;
    }
    const text = String(value);
    if (opts.allowBlank === false && text.trim() === '') {
      this.errors.push(`${name} is empty`);
      return undefined;
    }
    if (opts.values && !opts.values.includes(text)) {
      this.errors.push(`${name} does not have a valid value`);
      return undefined;
    }
    return text;
  }

  integer(name: string, opts: { required?: boolean; values?: readonly number[]; min?: number; exceptValues?: readonly number[] } = {}): number | undefined {
    const value = this.scalar(name);
    if (value === undefined || value === null || value === '') {
      if (opts.required) this.errors.push(`${name} is missing`);
      return undefined;
    }
    const parsed = typeof value === 'number' ? value : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
    if (!Number.isSafeInteger(parsed)) {
      this.errors.push(`${name} is invalid`);
      return undefined;
    }
    if (opts.exceptValues?.includes(parsed)) {
      this.errors.push(`${name} has a value not allowed`);
      return undefined;
    }
    if ((opts.values && !opts.values.includes(parsed)) || (opts.min !== undefined && parsed < opts.min)) {
      this.errors.push(`${name} does not have a valid value`);
      return undefined;
    }
    return parsed;
  }

  boolean(name: string, opts: { required?: boolean } = {}): boolean | undefined {
    const value = this.scalar(name);
    if (value === undefined || value === null || value === '') {
      if (opts.required) this.errors.push(`${name} is missing`);
      return undefined;
    }
    if (typeof value === 'boolean') return value;
    if (typeof value === 'object') {
      this.errors.push(`${name} is invalid`);
      return undefined;
    }
    const text = String(value).toLowerCase();
    if (['true', '1', 't', 'yes', 'y'].includes(text)) return true;
    if (['false', '0', 'f', 'no', 'n'].includes(text)) return false;
    this.errors.push(`${name} is invalid`);
    return undefined;
  }

  /** A date `YYYY-MM-DD` (or a date-time, whose date part is kept). */
  date(name: string): string | null | undefined {
    const value = this.scalar(name);
    if (value === undefined) return undefined;
    if (value === null || value === '') return null;
    const text = typeof value === 'object' ? '' : String(value);
    const match = DATE_OR_TIME.exec(text);
    // Round-trip the date: Date.parse would roll 2031-02-30 over into March.
    if (!match || Number.isNaN(Date.parse(match[1])) || new Date(`${match[1]}T00:00:00Z`).toISOString().slice(0, 10) !== match[1]) {
      this.errors.push(`${name} is invalid`);
      return undefined;
    }
    return match[1];
  }

  /**
   * A `DateTime` parameter (Grape coerces with DateTime.parse): an ISO 8601 date or date-time, as the
   * epoch milliseconds (a date alone is its midnight UTC); anything else is "<name> is invalid".
   */
  dateTime(name: string): number | undefined {
    const value = this.scalar(name);
    if (value === undefined || value === null || value === '') return undefined;
    const text = typeof value === 'object' ? '' : String(value);
    const match = DATE_OR_TIME.exec(text);
    const time = match ? Date.parse(match[2] === undefined ? `${match[1]}T00:00:00Z` : text) : Number.NaN;
    if (Number.isNaN(time)) {
      this.errors.push(`${name} is invalid`);
      return undefined;
    }
    return time;
  }

  /**
   * An array of integers as GitLab's CommaSeparatedToIntegerArray reads it (lib/api/validations/types/
   * comma_separated_to_integer_array.rb): a string split at commas, an array's items each split, and
   * every piece through Ruby's String#to_i (a leading integer, else 0: "one" is 0); anything else is
   * no list ([]), which filters nothing.
   */
  integerList(name: string): number[] | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null || value === '') return undefined;
    const pieces = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value.flatMap((v) => rubyToS(v).split(',')) : [];
    const items = pieces.map((v) => v.trim());
    // Ruby's split drops trailing empty pieces.
    while (items.length > 0 && items[items.length - 1] === '') items.pop();
    // An empty list is not `present?` in Ruby: the endpoint filters nothing.
    return items.length > 0 ? items.map(rubyToI) : undefined;
  }

  addError(text: string): void {
    this.errors.push(text);
  }

  /** Throws the collected Grape errors, if any. Call once all parameters have been read. */
  done(): void {
    if (this.errors.length > 0) throw paramError(this.errors.join(', '));
  }
}

/** Ruby's String#to_i: the integer at the start (after blanks; digits may be joined by single underscores), else 0. */
function rubyToI(text: string): number {
  const match = /^\s*([+-]?\d+(?:_\d+)*)/.exec(text);
  return match ? Number(match[1].replace(/_/g, '')) : 0;
}

/** Ruby's to_s of a parameter value as Rack gives it: a string as it is, a hash or array as Ruby prints it (never an id). */
function rubyToS(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

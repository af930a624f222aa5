// Rack's parameter reading (rack lib/rack/query_parser.rb, normalize_params): what `name[]`, `name[key]`
// and a repeated plain key become, and multipart bodies read with the same rules.
import { describe, expect, test } from 'vitest';
import { ApiError } from './errors.js';
import { parseMultipart, parseNestedQuery, parseQueryForRoute, RACK_REFUSAL } from './rack-params.js';

describe('parseNestedQuery', () => {
  test('`name[]` is an array, a plain repeated key its last value, `name[key]` a hash', () => {
    expect(parseNestedQuery('user_ids[]=1&user_ids[]=2&skip=3&skip=4&range[start]=2&range[end]=5')).toEqual({
      user_ids: ['1', '2'],
      skip: '4',
      range: { start: '2', end: '5' },
    });
  });

  test('arrays of hashes, `+` and escapes, a key without a value, empty pairs', () => {
    expect(parseNestedQuery('a[][b]=1&a[][c]=2&a[][b]=3&q=a+b%2Cc&flag&&x=')).toEqual({ a: [{ b: '1', c: '2' }, { b: '3' }], q: 'a b,c', flag: null, x: '' });
  });

  test('an array where a hash was built, or the reverse, is refused with 400', () => {
    expect(() => parseNestedQuery('a[]=1&a[b]=2')).toThrow(ApiError);
    expect(() => parseNestedQuery('a[b]=1&a[]=2')).toThrow(/expected Array/);
    const refused = parseQueryForRoute('a[]=1&a[b]=2') as Record<symbol, unknown>;
    expect(refused[RACK_REFUSAL]).toBeInstanceOf(ApiError);
    expect(Object.keys(refused)).toEqual([]);
  });
});

describe('parseMultipart', () => {
  test('fields by Rack\'s name rules, and a file part as an uploaded file', () => {
    const body = Buffer.from(
      [
        '--XyZ',
        'Content-Disposition: form-data; name="email"',
        '',
        'a@example.com',
        '--XyZ',
        'Content-Disposition: form-data; name="user_id[]"',
        '',
        '7',
        '--XyZ',
        'Content-Disposition: form-data; name="user_id[]"',
        '',
        '8',
        '--XyZ',
        'Content-Disposition: form-data; name="avatar"; filename="a.png"',
        'Content-Type: image/png',
        '',
        'PNG',
        '--XyZ--',
        '',
      ].join('\r\n'),
    );
    const parsed = parseMultipart(body, 'multipart/form-data; boundary=XyZ');
    expect(parsed.email).toBe('a@example.com');
    expect(parsed.user_id).toEqual(['7', '8']);
    expect(parsed.avatar).toEqual({ filename: 'a.png', type: 'image/png', content: Buffer.from('PNG') });
  });
});

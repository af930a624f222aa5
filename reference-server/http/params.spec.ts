// Grape-style parameter reading: coercion, the error texts, and dates that do not exist.
import { describe, expect, test } from 'vitest';
import { Params } from './params.js';

describe('Params', () => {
  test('collects every Grape error and throws them joined in {"error": ...}', () => {
    const params = new Params({ page: 'x', enabled: 'maybe', ref: '' });
    params.integer('page');
    params.boolean('enabled');
    params.string('ref', { required: true, allowBlank: false });
    params.string('branch', { required: true });
    expect(() => params.done()).toThrow('page is invalid, enabled is invalid, ref is empty, branch is missing');
  });

  test('dates must exist: 2031-02-30 is refused, date-times keep their date', () => {
    expect(new Params({ d: '2031-02-28T10:00:00Z' }).date('d')).toBe('2031-02-28');
    const bad = new Params({ d: '2031-02-30' });
    bad.date('d');
    expect(() => bad.done()).toThrow('d is invalid');
  });

  test('per_page=0 is a value not allowed; values outside a list are refused', () => {
    const params = new Params({ per_page: '0', state: 'sleeping' });
    params.integer('per_page', { exceptValues: [0] });
    params.string('state', { values: ['active', 'awaiting'] });
    expect(() => params.done()).toThrow('per_page has a value not allowed, state does not have a valid value');
  });
});

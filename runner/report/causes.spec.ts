import { describe, expect, test } from 'vitest';
import { endpointOf } from '../core/cause.js';
import { causeLine, rootCauses } from './causes.js';
import type { TestRecord } from './results.js';

const record = (id: string, verdict: TestRecord['verdict'], cause?: TestRecord['cause']): TestRecord => ({
  id, title: id, area: 'repository-files', endpoint: 'GET /x', kind: 'project', clauses: ['c'], verdict, reason: 'r', parity: verdict, durationMs: 0, file: 'f', fixtures: [], needs: [], ...(cause ? { cause } : {}),
});

describe('root causes', () => {
  test('requests are named by their endpoint form', () => {
    expect(endpointOf('POST', '/api/v4/projects/12/repository/files/a%2Fb.txt?ref=main')).toBe('POST /projects/:id/repository/files/:file_path');
    expect(endpointOf('GET', '/api/v4/projects/cnf%2Fp/repository/files/a.txt/raw')).toBe('GET /projects/:id/repository/files/:file_path/raw');
    expect(endpointOf('PUT', '/api/v4/groups/7/members/41')).toBe('PUT /groups/:id/members/:user_id');
    expect(endpointOf('GET', '/api/v4/groups/7/members/all/41')).toBe('GET /groups/:id/members/all/:user_id');
    expect(endpointOf('POST', '/api/v4/projects/3/remote_mirrors/9/sync')).toBe('POST /projects/:id/remote_mirrors/:mirror_id/sync');
    expect(endpointOf('DELETE', '/api/v4/groups/7/invitations/a%40example.com')).toBe('DELETE /groups/:id/invitations/:email');
    expect(endpointOf('GET', '/api/v4/groups/7/billable_members/41/memberships')).toBe('GET /groups/:id/billable_members/:user_id/memberships');
  });

  test('set-up errors and failures on one answer are one cause; tests with no answer behind them are in none', () => {
    const endpoint = 'POST /projects/:id/repository/files/:file_path';
    const tests = [
      ...Array.from({ length: 57 }, (_, i) => record(`setup-${i}`, 'error', { endpoint, wanted: 'a success (2xx)', got: 500, setUp: true })),
      record('checks-create', 'fail', { endpoint, wanted: 'HTTP 201', got: 500, setUp: false }),
      record('other', 'fail', { endpoint: 'GET /projects/:id/repository/files/:file_path', wanted: 'HTTP 200', got: 404, setUp: false }),
      record('no-answer', 'error'),
      record('passes', 'pass', { endpoint, wanted: 'x', got: 500, setUp: true }),
    ];
    const groups = rootCauses({ tests });
    expect(groups.map(causeLine)).toEqual([
      `${endpoint} answered HTTP 500: 57 tests could not set up (wanted a success (2xx)); 1 test fails on it (wanted HTTP 201)`,
      'GET /projects/:id/repository/files/:file_path answered HTTP 404: 1 test fails on it (wanted HTTP 200)',
    ]);
    expect(groups[0].setUp).toHaveLength(57);
    expect(groups[0].failing).toEqual(['checks-create']);
  });
});

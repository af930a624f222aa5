// The client drivers' claims (clients/claims.ts) against the spec's forms (contract/forms.ts): a driver claims
// only spec forms, and a spec form that a full driver does not claim is named with the drivers that
// lack it, so a new spec form shows which drivers must learn it. Their runs check the claims
// (clients/python-gitlab.spec.ts, clients/ruby-go.spec.ts, clients/perl-gitlabracadabra.spec.ts, gitbeaker.spec.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SPEC_FORM_NAMES } from '../contract/forms.js';
import { DRIVERS, type DriverClaims } from './clients/claims.js';

const drivers = Object.entries(DRIVERS) as [string, DriverClaims][];

describe('client drivers\' claims', () => {
  test('each driver exists and claims only spec forms, each once', () => {
    for (const [name, { driver, claims }] of drivers) {
      expect(existsSync(join(import.meta.dirname, '..', driver)), `${name}'s driver ${driver}`).toBe(true);
      expect(claims.filter((form) => !SPEC_FORM_NAMES.includes(form)), `${name} claims forms that are not the spec's (contract/forms.ts)`).toEqual([]);
      expect(new Set(claims).size, `${name} claims a form twice`).toBe(claims.length);
    }
  });

  test('every spec form is claimed by every driver that does not say why it drives only some', () => {
    const lacking = Object.fromEntries(
      SPEC_FORM_NAMES.map((form) => [form, drivers.filter(([, d]) => d.partial === undefined && !d.claims.includes(form)).map(([name]) => name)] as const).filter(([, names]) => names.length > 0),
    );
    expect(lacking, 'spec forms (contract/forms.ts) and the drivers that do not claim them: teach each driver the form and claim it (clients/claims.ts)').toEqual({});
  });
});

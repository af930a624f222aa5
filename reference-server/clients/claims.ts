// The spec forms each real client's driver claims to drive: its run must drive each of them (a check
// line naming the form), and reference-server/client-claims.spec.ts names, for each spec form of contract/forms.ts, the
// drivers that do not claim it. A driver claims areas of the spec, or, when it reaches only some forms
// by its nature, those forms with why. An area's extensions (GitLab endpoints beyond the spec) are
// nobody's claim: a driver may drive them, none has to.
import { formsOfAreas } from '../../contract/forms.js';

export interface DriverClaims {
  /** What drives it: its script here, or the spec that drives it in-process. */
  driver: string;
  /** The spec forms ("METHOD PATH") its run drives. */
  claims: readonly string[];
  /** Why it drives only some of the spec's forms (a driver without it claims them all). */
  partial?: string;
}

const FOUR_AREAS = formsOfAreas('repository-files', 'remote-mirrors', 'invitations', 'members');

export const DRIVERS = {
  'python-gitlab': { driver: 'reference-server/clients/python_gitlab_drive.py', claims: FOUR_AREAS },
  'ruby-gitlab': { driver: 'reference-server/clients/ruby_gitlab_drive.rb', claims: FOUR_AREAS },
  'go-gitlab': { driver: 'reference-server/clients/go_gitlab_drive.go', claims: FOUR_AREAS },
  'perl-gitlab-api-v4': { driver: 'reference-server/clients/perl_gitlab_drive.pl', claims: FOUR_AREAS },
  gitbeaker: { driver: 'reference-server/gitbeaker.spec.ts', claims: FOUR_AREAS },
  gitlabracadabra: {
    driver: 'reference-server/clients/gitlabracadabra_drive.py',
    claims: ['groups', 'projects'].flatMap((kind) => [`GET /${kind}/:id/members`, `POST /${kind}/:id/members`, `PUT /${kind}/:id/members/:user_id`, `DELETE /${kind}/:id/members/:user_id`]),
    partial: 'it applies members and shares from YAML: what its members and unknown_members settings reach',
  },
} satisfies Record<string, DriverClaims>;

export type DriverName = keyof typeof DRIVERS;

/** The claimed forms a driver's run did not drive (its checks name the forms they drove). */
export const undriven = (driver: DriverName, checks: readonly { form: string }[]): string[] => {
  const driven = new Set(checks.map((c) => c.form));
  return DRIVERS[driver].claims.filter((form) => !driven.has(form));
};

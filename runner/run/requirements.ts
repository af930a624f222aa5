// What a test, or a fixture it uses, needs of the target beyond a Free GitLab: capabilities, a
// version, objects of the target manifest (provisioned: what the API cannot make). A test whose needs the run does not meet is `unsupported`, with
// the reason; one the person turned off (areas, endpoints, ids) is `disabled`.
import { manifestEntry, type FixtureName } from '../../fixtures/manifest.js';
import type { SettingValue } from '../core/instance-setting.js';
import type { SetupNeed } from '../core/setup-needs.js';
import { versionAtLeast } from '../core/version.js';
import type { Capability } from './config.js';
import type { RunContext } from './context.js';

export interface Requirements {
  capabilities?: Capability[];
  /** Minimum target version, e.g. "15.7" (spec: Versioning). */
  minVersion?: string;
  /**
   * Objects the target provisions and names in its manifest (TARGET-CONTRACT.md §1: an LDAP-synced
   * member, a SAML identity, enterprise users), which the API cannot make.
   */
  provisioned?: FixtureName[];
  /**
   * Set-up endpoints beyond the target contract that the test or fixture itself calls
   * (core/setup-needs.ts). Unlike the others, known only when called: a target that lacks one makes
   * the test `unsupported` then (the maker's set-up calls), and its fixtures' are the test's too.
   */
  setup?: SetupNeed[];
  /**
   * An instance setting at a value (core/instance-setting.ts; tests only): the test runs in that
   * value's phase, in a *.exclusive.test.ts file, and needs "application-settings-read".
   */
  setting?: SettingValue;
}

export interface Gate {
  verdict: 'unsupported' | 'disabled';
  reason: string;
  /** The set-up endpoint beyond the target contract that the target lacks, when that is why. */
  lacking?: { need: string; endpoint: string };
}

/** The requirements known before the run (the set-up endpoints are reported apart: a test's `needs`, its fixtures' included). */
export function beforeRun({ setup, ...known }: Requirements): Omit<Requirements, 'setup'> {
  void setup;
  return known;
}

/** Why requirements are not met by the run (`what` names whose they are), or undefined when they are. */
export function unmet(requires: Requirements, run: RunContext, what = ''): Gate | undefined {
  const unsupported = (reason: string) => ({ verdict: 'unsupported' as const, reason: `${what}${reason}` });
  for (const capability of requires.capabilities ?? []) {
    if (!run.capabilities.includes(capability)) return unsupported(`needs capability "${capability}", which the target does not declare (CONFORMANCE_CAPABILITIES)`);
  }
  if (requires.minVersion && !versionAtLeast(run.version, requires.minVersion)) return unsupported(`needs GitLab ${requires.minVersion} or later, the target reports ${run.version}`);
  for (const name of requires.provisioned ?? []) {
    if (!manifestEntry(run.fixtures, name)) return unsupported(`needs the provisioned "${name}" object, which the target manifest does not name (CONFORMANCE_FIXTURES)`);
  }
  return undefined;
}

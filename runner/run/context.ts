// The run, as one value the command (or the global setup) hands every test file through vitest's
// provide/inject: its settings as they were read, and what the run made of them: the target it works
// against, its identity, and the shared actors with their tokens.
import type { FixtureManifest } from '../../contract/fixture-manifest.js';
import type { RoleGrantingWrite } from '../core/area.js';
import type { SettingValue } from '../core/instance-setting.js';
import type { ActorName, GroupInfo, TokenScope } from '../core/vocabulary.js';
import { registerSecret } from '../core/redact.js';
import type { Config } from './config.js';

export interface ActorInfo {
  id: number;
  username: string;
  name: string;
  email: string;
  /** Secondary addresses a frame gave it (Maker.addEmail): requests may name the user by them too. */
  secondaryEmails?: string[];
  /** Its personal access tokens by scope: `api` always; the shared actors hold every scope. */
  tokens: { api: string } & Partial<Record<TokenScope, string>>;
}

export interface RunContext {
  /** The run's settings, as read once from the flags, the environment and .env (config.ts loadConfig). */
  settings: Config;
  /** The target the run works against: the settings' own, or the bundled reference server it started. */
  targetUrl: string;
  adminToken: string;
  adminId: number;
  /** Unique per run; every object the run creates carries `prefix` in its name. */
  runId: string;
  prefix: string;
  ledgerPath: string;
  version: string;
  referenceServer: boolean;
  fixtures: FixtureManifest;
  actors: Record<ActorName, ActorInfo>;
  /**
   * The run's root group (public, at the top of the instance): the groups the run makes go below it,
   * unless they must be at the top, so that its clean-up leaves one group pending deletion on GitLab
   * 17 and 18, not one per group.
   */
  root: GroupInfo | undefined;
  /**
   * Users made once for the run and lent to tests and fixtures (lending.ts), each a Reporter of
   * `seats` (so it holds a seat) with an `api` token. Empty when no selected area uses it.
   * `seatless`: users with no membership (an `api` token each), for the promotion-approval tests;
   * made only when the run may turn promotion approval on.
   */
  pool: { seats: GroupInfo | undefined; users: ActorInfo[]; seatless: ActorInfo[] };
  /** The registered areas' writes that give users a place in a source: where a test's requests touched a lent user (frame.ts). */
  roleGrantingWrites: RoleGrantingWrite[];
}

declare module 'vitest' {
  interface ProvidedContext {
    conformance: RunContext;
    /** The run's settings, parsed once (config.ts loadConfig: by the command, or by vitest.config.ts). */
    conformanceSettings: Config;
    /** In a setting's phase (vitest.config.ts), the value its tests need; absent in the other conformance projects. */
    conformancePhase?: SettingValue;
    /** `list`: the tests are collected, none runs, so no run is made (suites/global-setup.ts). */
    conformanceCollectOnly?: boolean;
  }
}

/** Registers the tokens a run holds (administrator, actors, fixture owners), in a process that did not make the run. */
export function registerRunSecrets(run: RunContext): void {
  registerSecret(run.adminToken);
  for (const actor of [...Object.values(run.actors), ...run.pool.users, ...run.pool.seatless]) for (const token of Object.values(actor.tokens)) registerSecret(token);
  for (const entry of Object.values(run.fixtures)) registerSecret((entry as { owner_token?: string } | undefined)?.owner_token);
}

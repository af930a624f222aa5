// The format of the target manifest (TARGET-CONTRACT.md §1: the objects a target provisions, which
// the API cannot make): what the suite reads and what the reference server writes for itself. Both sides import this one module; it imports nothing.

interface OwnerToken {
  /** The environment variable that holds a token of an Owner of the fixture's group. */
  owner_token_env?: string;
  /** The token itself, for manifests that are never written to disk. */
  owner_token?: string;
}

export interface FixtureManifest {
  /** A top-level group whose member `user_id` is synced from LDAP (not overridden). */
  ldap?: { group_id: number; user_id: number } & OwnerToken;
  /** A top-level group with SAML SSO on, whose member `user_id` has a SAML identity. */
  saml?: { group_id: number; user_id: number } & OwnerToken;
  /** A top-level group, one of its enterprise users and one member who is not. */
  enterprise?: { group_id: number; enterprise_user_id: number; other_user_id: number } & OwnerToken;
}

export type FixtureName = keyof FixtureManifest;
export const FIXTURE_NAMES: FixtureName[] = ['ldap', 'saml', 'enterprise'];

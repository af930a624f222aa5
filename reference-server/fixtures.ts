// The fixtures the API cannot create (TARGET-CONTRACT.md §1), seeded straight into the store: a
// group with an LDAP-synced member, a group with SAML SSO and a member with a SAML identity, and a
// group with one of its enterprise users and one ordinary member. Each group has an Owner whose
// token the manifest carries inline, as a manifest that is never written to disk may.
import type { FixtureManifest } from '../contract/fixture-manifest.js';
import { ACCESS, type Group, type User } from './state/model.js';
import type { Store } from './state/store.js';

function groupWithOwner(store: Store, name: string): { group: Group; owner: User; ownerToken: string } {
  const group = store.createGroup({ name, path: name, parentId: null, visibility: 'private' });
  const owner = store.createUser({ username: `${name}-owner`, name: `${name} owner`, email: `${name}-owner@example.com` });
  store.addMember({ kind: 'group', id: group.id }, { userId: owner.id, accessLevel: ACCESS.OWNER, createdById: owner.id, inviteSource: 'group-creation' });
  const ownerToken = store.createToken(owner.id, 'fixture-owner', ['api'], null).token;
  return { group, owner, ownerToken };
}

function member(store: Store, group: Group, owner: User, username: string, fields: { ldap?: boolean } = {}): User {
  const user = store.createUser({ username, name: username.replace(/-/g, ' '), email: `${username}@example.com` });
  store.addMember({ kind: 'group', id: group.id }, { userId: user.id, accessLevel: ACCESS.DEVELOPER, createdById: owner.id, ...fields });
  return user;
}

export function seedFixtures(store: Store): FixtureManifest {
  const ldap = groupWithOwner(store, 'fixture-ldap');
  const synced = member(store, ldap.group, ldap.owner, 'fixture-ldap-user', { ldap: true });

  const saml = groupWithOwner(store, 'fixture-saml');
  saml.group.samlSsoEnabled = true;
  const identified = member(store, saml.group, saml.owner, 'fixture-saml-user');
  identified.samlIdentities.set(saml.group.id, { externUid: 'fixture-saml-user-uid', provider: 'group_saml', samlProviderId: saml.group.id });

  const enterprise = groupWithOwner(store, 'fixture-enterprise');
  const managed = member(store, enterprise.group, enterprise.owner, 'fixture-enterprise-user');
  managed.enterpriseGroupId = enterprise.group.id;
  const other = member(store, enterprise.group, enterprise.owner, 'fixture-enterprise-other');

  return {
    ldap: { group_id: ldap.group.id, user_id: synced.id, owner_token: ldap.ownerToken },
    saml: { group_id: saml.group.id, user_id: identified.id, owner_token: saml.ownerToken },
    enterprise: { group_id: enterprise.group.id, enterprise_user_id: managed.id, other_user_id: other.id, owner_token: enterprise.ownerToken },
  };
}

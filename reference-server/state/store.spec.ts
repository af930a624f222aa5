// The store's membership indexes: lists by source and by user, and the versions that tell the
// lists kept from them (members/all) when to be made again, whoever changes a membership and how.
import { describe, expect, test } from 'vitest';
import { allMemberRow, allMemberRows } from '../routes/members/rules.js';
import { ACCESS } from './model.js';
import { Store } from './store.js';

function world() {
  const store = new Store();
  const admin = store.createUser({ username: 'root', name: 'Admin', email: 'root@example.com', isAdmin: true });
  const top = store.createGroup({ name: 'top', path: 'top', parentId: null, visibility: 'private' });
  const sub = store.createGroup({ name: 'sub', path: 'sub', parentId: top.id, visibility: 'private' });
  const users = Array.from({ length: 4 }, (_, i) => store.createUser({ username: `u${i}`, name: `U ${i}`, email: `u${i}@example.com` }));
  return { store, admin, top, sub, users };
}

describe('membership indexes', () => {
  test('lists by source and by user follow additions, removals and a change of user', () => {
    const { store, top, users } = world();
    const a = store.addMember({ kind: 'group', id: top.id }, { userId: users[0].id, accessLevel: ACCESS.DEVELOPER });
    const invite = store.addMember({ kind: 'group', id: top.id }, { inviteEmail: 'x@example.com', inviteToken: 't', accessLevel: ACCESS.GUEST });
    const b = store.addMember({ kind: 'group', id: top.id }, { userId: users[1].id, accessLevel: ACCESS.GUEST });
    expect(store.directMembers(top)).toEqual([a, invite, b]);
    expect(store.userMembers(top)).toEqual([a, b]);
    expect(store.userMember(top, users[1].id)).toBe(b);
    expect(store.directMembership(top, users[0].id)).toBe(a);
    expect(store.members.ofUser(users[0].id)).toEqual([a]);

    store.members.delete(a.id);
    expect(store.userMembers(top)).toEqual([b]);
    expect(store.userMember(top, users[0].id)).toBeUndefined();
    expect(store.members.ofUser(users[0].id)).toEqual([]);

    b.userId = users[2].id;
    expect(store.userMember(top, users[1].id)).toBeUndefined();
    expect(store.userMember(top, users[2].id)).toBe(b);
    expect(store.members.ofUser(users[2].id)).toEqual([b]);

    store.deleteUser(users[2].id);
    expect(store.directMembers(top)).toEqual([invite]);
  });

  test('a change of level, expiry or user changes the source version; the records stay plain in JSON', () => {
    const { store, top, users } = world();
    const m = store.addMember({ kind: 'group', id: top.id }, { userId: users[0].id, accessLevel: ACCESS.DEVELOPER });
    const versions = [store.members.versionOf(top)];
    const changed = () => {
      versions.push(store.members.versionOf(top));
      return versions[versions.length - 1] !== versions[versions.length - 2];
    };
    m.accessLevel = ACCESS.MAINTAINER;
    expect(changed()).toBe(true);
    Object.assign(m, { accessLevel: ACCESS.MAINTAINER });
    expect(changed()).toBe(false);
    Object.assign(m, { expiresAt: '2999-01-01' });
    expect(changed()).toBe(true);
    m.state = 'awaiting';
    expect(changed()).toBe(false);
    expect(JSON.parse(JSON.stringify(m))).toMatchObject({ id: m.id, userId: users[0].id, accessLevel: ACCESS.MAINTAINER, expiresAt: '2999-01-01', state: 'awaiting' });
  });

  test('a record put into the map by hand is tracked too', () => {
    const { store, top, users } = world();
    const made = store.addMember({ kind: 'group', id: top.id }, { userId: users[0].id, accessLevel: ACCESS.DEVELOPER });
    const plain = { ...JSON.parse(JSON.stringify(made)), id: store.id('member'), userId: users[1].id };
    store.members.set(plain.id, plain);
    const before = store.members.versionOf(top);
    plain.accessLevel = ACCESS.OWNER;
    expect(store.members.versionOf(top)).not.toBe(before);
    expect(store.userMember(top, users[1].id)).toBe(plain);
  });
});

describe('members/all kept between requests', () => {
  test('the rows are made again when a membership changes in place, and only then', () => {
    const { store, admin, top, sub, users } = world();
    const up = store.addMember({ kind: 'group', id: top.id }, { userId: users[0].id, accessLevel: ACCESS.DEVELOPER });
    store.addMember({ kind: 'group', id: sub.id }, { userId: users[0].id, accessLevel: ACCESS.REPORTER });
    store.addMember({ kind: 'group', id: sub.id }, { userId: users[1].id, accessLevel: ACCESS.GUEST });
    const first = allMemberRows(store, sub, admin);
    expect(allMemberRows(store, sub, admin)).toBe(first);
    expect(first.map((r) => [r.member.userId, r.accessLevel])).toEqual([
      [users[0].id, ACCESS.DEVELOPER],
      [users[1].id, ACCESS.GUEST],
    ]);

    up.accessLevel = ACCESS.GUEST; // in place, as the routes do
    expect(allMemberRow(store, sub, admin, users[0].id)?.accessLevel).toBe(ACCESS.REPORTER);
    store.addMember({ kind: 'group', id: top.id }, { userId: users[2].id, accessLevel: ACCESS.MINIMAL_ACCESS });
    store.addMember({ kind: 'group', id: top.id }, { userId: users[3].id, accessLevel: ACCESS.OWNER });
    expect(allMemberRows(store, sub, admin).map((r) => r.member.userId)).toEqual([users[0].id, users[1].id, users[3].id]);

    // A group shared into the hierarchy brings its members, capped by the link's level.
    const guests = store.createGroup({ name: 'guests', path: 'guests', parentId: null, visibility: 'public' });
    store.addMember({ kind: 'group', id: guests.id }, { userId: users[2].id, accessLevel: ACCESS.OWNER });
    top.sharedWith.push({ groupId: guests.id, accessLevel: ACCESS.REPORTER, expiresAt: null });
    expect(allMemberRow(store, sub, admin, users[2].id)?.accessLevel).toBe(ACCESS.REPORTER);
  });
});

// Access requests: a signed-in user who is not a member asks to join a group or project
// (POST …/access_requests). GitLab keeps a request as a Member row with `requested_at` set
// (app/services/members/request_access_service.rb: source.members.create(access_level: DEVELOPER,
// user:, requested_at:)) and leaves such rows out of every member list, lookup and permission
// (app/models/member.rb: scopes request / non_request; `source.members` is non-request,
// `source.requesters` the requests). The reference server keeps them apart from memberships, so no
// member list, lookup or access level ever sees them; adding the user as a member (POST …/members,
// POST …/invitations) turns the request into that membership (Store.addMember removes it:
// app/services/members/creator_service.rb finds the request among members_and_requesters and
// clears requested_at).

export interface AccessRequest {
  source: { kind: 'group' | 'project'; id: number };
  userId: number;
  /** The level the request asks for: Developer (RequestAccessService#default_access_level). */
  accessLevel: number;
  requestedAt: string;
}

const key = (source: { kind: string; id: number }) => `${source.kind}:${source.id}`;

export class AccessRequests {
  private readonly bySource = new Map<string, Map<number, AccessRequest>>();

  /** Records a request; a user has at most one per source (the Member model's uniqueness of user_id in a source). */
  add(request: AccessRequest): AccessRequest {
    let requests = this.bySource.get(key(request.source));
    if (!requests) this.bySource.set(key(request.source), (requests = new Map()));
    requests.set(request.userId, request);
    return request;
  }

  find(source: { kind: string; id: number }, userId: number): AccessRequest | undefined {
    return this.bySource.get(key(source))?.get(userId);
  }

  /** The pending requests of a source, oldest first. */
  of(source: { kind: string; id: number }): AccessRequest[] {
    return [...(this.bySource.get(key(source))?.values() ?? [])];
  }

  /** Removes a user's request to a source (it became a membership, or was withdrawn); whether there was one. */
  remove(source: { kind: string; id: number }, userId: number): boolean {
    return this.bySource.get(key(source))?.delete(userId) ?? false;
  }

  /** Holds `other`'s requests and no others (Store.takeOver). */
  takeOver(other: AccessRequests): void {
    this.bySource.clear();
    for (const [key, requests] of other.bySource) this.bySource.set(key, requests);
  }

  /** Forgets the requests to a deleted group or project. */
  removeSource(source: { kind: string; id: number }): void {
    this.bySource.delete(key(source));
  }

  /** Forgets the requests of a deleted user. */
  removeUser(userId: number): void {
    for (const requests of this.bySource.values()) requests.delete(userId);
  }
}

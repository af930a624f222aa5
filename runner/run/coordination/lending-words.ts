// The words of the lending policy (lending.ts) that its services here use too: a source's key, a
// lent user, a source as a request names it, what a holder's requests did, and how a lease ends.

export type SourceKey = `${'group' | 'project'}:${number}`;

export interface LentUser {
  id: number;
  username: string;
  name: string;
  email: string;
  tokens: { api: string } & Partial<Record<string, string>>;
}

/** A group or project as a request names it: by id or by full path. */
export type SourceRef = { kind: 'group' | 'project'; ref: string };

/** What a holder's requests did, as the worker saw them: sources by reference, resolved here. */
export interface Settlement {
  holder: string;
  /** The sources its requests touched a lent user in, and whether the user asked for access there. */
  touched: { userId: number; source: SourceRef; requested: boolean }[];
  /** Shares made: [source, the group it was shared with]. */
  links: [SourceRef, SourceRef][];
  /** The fixture instance whose world keeps its users where it touched them. */
  pin?: string;
  /** Seatless users it could not take out again (they may hold a seat now): spent for the run. */
  failedSeatless?: number[];
}

/**
 * How a lease ends: the user as it is, or taken back from these sources first; a new user; or wait for
 * a holder to settle (`joined`: the asker was not waiting yet; `since`: the wakes so far, for `released`).
 */
export type Lease = { user: LentUser; takeBack?: { source: SourceKey; requested: boolean }[] } | { make: true } | { wait: true; joined: boolean; since: number };

// Sources and domains (lending.ts has the words): which domain a group or project is in, by key or
// by the reference a request names it with; shares joining domains; and the domains a holder or
// fixture instance made for itself, dropped with it. Plain state, no HTTP.
import type { SourceKey, SourceRef } from './lending-words.js';

export class Domains {
  /** Source → the domain it was registered in (before any share: `find` follows the joins). */
  private readonly sources = new Map<SourceKey, string>();
  private readonly aliases = new Map<string, SourceKey>();
  /** Union-find of domains joined by shares. */
  private readonly parent = new Map<string, string>();
  /** Domain → the holder or fixture instance that made it (dropped with it). */
  private readonly owner = new Map<string, string>();

  /**
   * A source the run made or uses: inside `parent` (a known group) it is in the parent's domain,
   * else it starts a domain of its own, made by `owner` (dropped with it).
   */
  register(source: { kind: 'group' | 'project'; id: number; fullPath?: string }, parent: SourceKey | undefined, owner: string): SourceKey {
    const key: SourceKey = `${source.kind}:${source.id}`;
    const parentDomain = parent && this.sources.get(parent);
    const domain = parentDomain ?? key;
    this.sources.set(key, domain);
    if (!parentDomain && !this.owner.has(domain)) this.owner.set(domain, owner);
    if (source.fullPath) this.aliases.set(`${source.kind}:${source.fullPath.toLowerCase()}`, key);
    return key;
  }

  /** The key of a source named in a request: by id or by full path; undefined when unknown. */
  resolve({ kind, ref }: SourceRef): SourceKey | undefined {
    if (/^\d+$/.test(ref)) return this.sources.has(`${kind}:${Number(ref)}`) ? `${kind}:${Number(ref)}` : undefined;
    return this.aliases.get(`${kind}:${ref.toLowerCase()}`);
  }

  domainOf(source: SourceKey): string | undefined {
    const domain = this.sources.get(source);
    return domain === undefined ? undefined : this.find(domain);
  }

  /** The domains of `sources`, each once. */
  of(sources: SourceKey[]): string[] {
    return [...new Set(sources.map((s) => this.domainOf(s)).filter((d): d is string => d !== undefined))];
  }

  /** A share joins the domains of `a` and `b`: returns [kept, joined into it], or undefined when they are one already (or unknown). */
  join(a: SourceKey, b: SourceKey): [string, string] | undefined {
    const [da, db] = [this.domainOf(a), this.domainOf(b)];
    if (da === undefined || db === undefined || da === db) return undefined;
    this.parent.set(db, da);
    // A joined domain is no longer one holder's to drop: it lives to the end of the run.
    this.owner.delete(da);
    this.owner.delete(db);
    return [da, db];
  }

  /** `owner` is gone: the domains it made, no longer anyone's. */
  drop(owner: string): Set<string> {
    const gone = new Set([...this.owner].filter(([, o]) => o === owner).map(([d]) => d));
    for (const d of gone) this.owner.delete(d);
    return gone;
  }

  find(domain: string): string {
    let d = domain;
    while (this.parent.has(d)) d = this.parent.get(d)!;
    return d;
  }
}

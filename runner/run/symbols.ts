// The run's own objects a test meets, each with the symbol of its role in the test's world, for the
// test's transcript (docs/transcript-format.md): two runs of one target make other ids and names, and
// the differential mode compares them by role. Symbols: `user:<actor>` for the shared actors,
// `<kind>:<fixture>.<path>` for the objects in a fixture's value, `<kind>#<n>` for the users lent to
// the test and the objects it made, numbered in the order it asked for them.

export type SymbolKind = 'user' | 'group' | 'project';

export interface SymbolEntry {
  symbol: string;
  kind: SymbolKind;
  id: number;
  /** The strings that name it: username, name, e-mail; full path, path, name. */
  values: string[];
}

export interface Named {
  kind?: unknown;
  id?: unknown;
  fullPath?: unknown;
  name?: unknown;
  username?: unknown;
  email?: unknown;
}

/** The kind of a plain value that names one of the run's objects, and the strings that name it. */
function describe(value: Named): { kind: SymbolKind; id: number; values: string[] } | undefined {
  const named = describeAll(value);
  return named && { ...named, values: [...new Set(named.values.filter((v) => v !== ''))] };
}

function describeAll(value: Named): { kind: SymbolKind; id: number; values: string[] } | undefined {
  if (typeof value.id !== 'number') return undefined;
  if ((value.kind === 'group' || value.kind === 'project') && typeof value.fullPath === 'string' && value.fullPath !== '') {
    const values = [value.fullPath, value.fullPath.split('/').pop()!, ...(typeof value.name === 'string' ? [value.name] : [])];
    return { kind: value.kind, id: value.id, values };
  }
  if (typeof value.username === 'string' && typeof value.email === 'string') {
    return { kind: 'user', id: value.id, values: [value.username, value.email, ...(typeof value.name === 'string' ? [value.name] : [])] };
  }
  return undefined;
}

/** Where an object the test asked for goes in the numbering (Symbols.slot). */
export type Slot = (value: Named) => void;

type Described = Omit<SymbolEntry, 'symbol'>;

export class Symbols {
  /** In the order met; a numbered object's entry is its slot, numbered when listed. */
  private readonly entries: ({ named: SymbolEntry } | { slot: Described | undefined })[] = [];

  private known(kind: SymbolKind, id: number): boolean {
    return this.entries.some((e) => {
      const entry = 'named' in e ? e.named : e.slot;
      return entry?.kind === kind && entry.id === id;
    });
  }

  /** An object with a symbol of its role (an actor, an object of a fixture); the first symbol met stays. */
  named(symbol: string, value: Named): void {
    const described = describe(value);
    if (described && !this.known(described.kind, described.id)) this.entries.push({ named: { symbol, ...described } });
  }

  /**
   * A place in the numbering for an object the test leases or makes, taken when it asks, before any
   * wait: objects asked for at once (Promise.all) are numbered in the order asked, not in the order
   * they came, so that two recordings of a test give them the same symbols. Filled with the object
   * (unless it has a symbol already); by kind, `user#1`, `user#2`, … when listed.
   */
  slot(): Slot {
    const entry: { slot: Described | undefined } = { slot: undefined };
    this.entries.push(entry);
    return (value) => {
      const described = describe(value);
      if (described && entry.slot === undefined && !this.known(described.kind, described.id)) entry.slot = described;
    };
  }

  /** The objects inside a fixture's value (its plain data), by their path in it. */
  fixture(name: string, value: unknown, path = ''): void {
    const plain = value !== null && typeof value === 'object' && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
    if (!plain) return;
    const described = describe(value as Named);
    if (described) this.named(`${described.kind}:${name}${path}`, value as Named);
    for (const [key, inner] of Object.entries(value)) this.fixture(name, inner, `${path}.${key}`);
  }

  list(): SymbolEntry[] {
    const counts: Record<SymbolKind, number> = { user: 0, group: 0, project: 0 };
    return this.entries.flatMap((e) => {
      if ('named' in e) return [e.named];
      return e.slot ? [{ symbol: `${e.slot.kind}#${++counts[e.slot.kind]}`, ...e.slot }] : [];
    });
  }
}

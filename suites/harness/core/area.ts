// An area of the API as data: its name, the prefix of its clause and test ids, its endpoints (each
// written once; a family with a group and a project form runs for both kinds) and its clauses. Each
// area declares itself in suites/<area>/area.ts; suites/areas.ts lists them, and everything that
// lists areas (configuration, reports, the CLI, the fault checker) derives from that one list.
import type { Clause } from './clauses.js';
import type { SourceKind } from './vocabulary.js';

/** One endpoint: a single form ("GET /projects/:id/remote_mirrors"), or one form per kind of source. */
export type EndpointForms = string | Partial<Record<SourceKind, string>>;

export interface AreaDefinition<E extends string = string> {
  /** Folder, setting and report name, e.g. "repository-files". */
  name: string;
  /** Prefix of the area's clause and test ids, e.g. "files". */
  prefix: string;
  endpoints: Record<E, EndpointForms>;
  clauses: Clause[];
}

export interface Area<E extends string = string> extends AreaDefinition<E> {
  /** Every endpoint form of the area, as the spec's endpoints.txt writes it. */
  forms: string[];
  clauseIds: ReadonlySet<string>;
}

export function defineArea<E extends string>(definition: AreaDefinition<E>): Area<E> {
  const { name, prefix, clauses } = definition;
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`area "${name}": name and prefix must be lower-case words with dashes`);
  const ids = clauses.map((c) => c.id);
  const stray = ids.find((id) => !id.startsWith(`${prefix}.`));
  if (stray) throw new Error(`area ${name}: clause ${stray} must start with "${prefix}."`);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`area ${name}: clause ${duplicate} is declared twice`);
  const forms = Object.values<EndpointForms>(definition.endpoints).flatMap((f) => (typeof f === 'string' ? [f] : Object.values(f)));
  return { ...definition, forms, clauseIds: new Set(ids) };
}

/** The forms of one endpoint by kind; a single form has the kind `null`. */
export function formsByKind(forms: EndpointForms): [SourceKind | null, string][] {
  return typeof forms === 'string' ? [[null, forms]] : (Object.entries(forms) as [SourceKind, string][]);
}

/** What every list of areas needs, derived from the registered areas. */
export interface Catalog {
  areas: Area[];
  areaNames: string[];
  /** Endpoint form → area name. */
  endpointArea: Map<string, string>;
  clauses: Clause[];
}

export function catalogOf(areas: Area[]): Catalog {
  const names = areas.map((a) => a.name);
  const dupName = names.find((n, i) => names.indexOf(n) !== i);
  if (dupName) throw new Error(`area ${dupName} is registered twice`);
  const endpointArea = new Map<string, string>();
  for (const area of areas) {
    for (const form of area.forms) {
      if (endpointArea.has(form)) throw new Error(`endpoint form "${form}" is declared by ${endpointArea.get(form)} and ${area.name}`);
      endpointArea.set(form, area.name);
    }
  }
  return { areas, areaNames: names, endpointArea, clauses: areas.flatMap((a) => a.clauses) };
}

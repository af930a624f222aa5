// An area of the API as data: its name, the prefix of its clause and test ids, its endpoints (the
// spec's forms of the area, taken from contract/forms.ts; a family with a group and a project form
// runs for both kinds), the GitLab endpoints it tests beyond the spec's (extensions, declared here)
// and its clauses. Each area declares itself in suites/<area>/area.ts; suites/areas.ts lists them,
// and everything that lists areas (configuration, reports, the CLI, the fault checker) derives from
// that one list.
import { SPEC_FORMS, type SpecKey } from '../../contract/forms.js';
import type { Clause } from './clauses.js';
import type { InstanceSetting, SettingValue } from './instance-setting.js';
import type { SourceKind } from './vocabulary.js';

/** One endpoint: a single form ("GET /projects/:id/remote_mirrors"), or one form per kind of source. */
export type EndpointForms = string | Partial<Record<SourceKind, string>>;

/**
 * A kind of write of an area that gives a user a place in a group or project (a membership, an
 * invitation, an access request): a request to `/groups/:id/<collection>` or
 * `/projects/:id/<collection>`, or below it. The lending policy takes a lent user back out of every
 * source where such a write succeeded naming it, by one of `userParams` (query or body, GitLab's
 * array form `name[]` too) or as the segment after the collection (`…/members/:user_id`,
 * `…/members/all/:user_id`); runner/run/frame.ts reads them from the registered areas.
 */
export interface RoleGrantingWrite {
  collection: string;
  /** The parameters that name users. */
  userParams?: string[];
  /** A write the user sends itself asks for access: taking the user back withdraws the request too. */
  accessRequest?: boolean;
}

/**
 * The kind of id a path segment names after each of the area's collections (`remote_mirrors` →
 * `mirror`: `/projects/5/remote_mirrors/31` names mirror 31). The differential's normalization
 * reads them (runner/differential/normalize.ts) from the run's transcript, where the recorder wrote
 * the registered areas' declarations.
 */
export type CollectionIdKinds = Record<string, string>;

export interface AreaDefinition<N extends string = string, X extends string = string> {
  /** Folder, setting and report name, e.g. "repository-files": its spec forms are those contract/forms.ts gives this area. */
  name: N;
  /** Prefix of the area's clause and test ids, e.g. "files". */
  prefix: string;
  /**
   * Not declared here: the spec's forms are contract/forms.ts's, one list for the suite, the server,
   * the clients and docs/endpoints.txt. A GitLab endpoint beyond them goes in `extensions`.
   */
  endpoints?: never;
  /**
   * GitLab endpoints beyond the spec's forms, one form or one per kind of source. Their tests check
   * GitLab behaviour only: always at the parity level, gated by the GitLab version that added the
   * endpoint (runner/run/conformance.ts). They are not among the spec's forms (docs/endpoints.txt).
   */
  extensions?: Record<X, EndpointForms>;
  clauses: Clause[];
  /** Its tests take their new users from the run's pool (World.userFor): the run makes the pool when the area is selected. */
  usesUserPool?: boolean;
  /** Its writes that give users a place in a group or project, which the lending policy takes back (RoleGrantingWrite). */
  roleGrantingWrites?: RoleGrantingWrite[];
  /** The kinds of id its collections' path segments name (CollectionIdKinds). */
  collectionIdKinds?: CollectionIdKinds;
  /** The instance settings its tests need at a given value (instance-setting.ts): each value is a phase of the run. */
  settings?: InstanceSetting[];
}

export interface Area<E extends string = string, X extends string = string> extends Omit<AreaDefinition<string, X>, 'endpoints' | 'extensions'> {
  /** The spec's forms of the area, by endpoint key (from contract/forms.ts). */
  endpoints: Record<E, EndpointForms>;
  extensions?: Record<X, EndpointForms>;
  /** What each endpoint key is: one of the spec's forms (the contract's), or an extension beyond them. */
  declaredAs: Record<E | X, 'spec form' | 'extension'>;
  /** Every spec form of the area, as the spec's endpoints.txt writes it. */
  forms: string[];
  /** The forms of the extensions (GitLab endpoints beyond the spec). */
  extensionForms: string[];
  clauseIds: ReadonlySet<string>;
}

const formsOf = (endpoints: Record<string, EndpointForms>) => Object.values<EndpointForms>(endpoints).flatMap((f) => (typeof f === 'string' ? [f] : Object.values(f)));

/** The contract's forms of an area by key: one form as a string, a group and a project form by kind. */
function specEndpoints(area: string): Record<string, EndpointForms> {
  const byKey = new Map<string, Partial<Record<SourceKind, string>>>();
  for (const form of SPEC_FORMS.filter((f) => f.area === area)) byKey.set(form.key, { ...byKey.get(form.key), [form.kind]: form.form });
  return Object.fromEntries([...byKey].map(([key, forms]) => [key, Object.keys(forms).length === 1 ? Object.values(forms)[0] : forms]));
}

export function defineArea<const N extends string, X extends string = never>(definition: AreaDefinition<N, X>): Area<SpecKey<N>, X> {
  const { name, prefix, clauses } = definition;
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`area "${name}": name and prefix must be lower-case words with dashes`);
  if (definition.endpoints !== undefined) throw new Error(`area ${name}: the spec's forms are not declared in an area but read from contract/forms.ts; a GitLab endpoint beyond them goes in \`extensions\``);
  const ids = clauses.map((c) => c.id);
  const stray = ids.find((id) => !id.startsWith(`${prefix}.`));
  if (stray) throw new Error(`area ${name}: clause ${stray} must start with "${prefix}."`);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`area ${name}: clause ${duplicate} is declared twice`);
  const endpoints = specEndpoints(name) as Record<SpecKey<N>, EndpointForms>;
  const extensions = definition.extensions ?? ({} as Record<X, EndpointForms>);
  if (Object.keys(endpoints).length + Object.keys(extensions).length === 0) throw new Error(`area ${name}: contract/forms.ts gives it no spec form, and it declares no extension`);
  const both = Object.keys(extensions).find((key) => Object.hasOwn(endpoints, key));
  if (both) throw new Error(`area ${name}: ${both} is both a spec form (contract/forms.ts) and an extension`);
  const extensionForms = formsOf(extensions);
  const specForm = SPEC_FORMS.find((f) => extensionForms.includes(f.form));
  if (specForm) throw new Error(`area ${name}: extension "${specForm.form}" is one of the spec's forms (contract/forms.ts, area ${specForm.area}), not an extension`);
  const declaredAs = Object.fromEntries([...Object.keys(endpoints).map((key) => [key, 'spec form']), ...Object.keys(extensions).map((key) => [key, 'extension'])]) as Record<SpecKey<N> | X, 'spec form' | 'extension'>;
  return { ...definition, endpoints, extensions: definition.extensions, declaredAs, forms: formsOf(endpoints), extensionForms, clauseIds: new Set(ids) };
}

/** The forms of one endpoint by kind; a single form has the kind `null`. */
export function formsByKind(forms: EndpointForms): [SourceKind | null, string][] {
  return typeof forms === 'string' ? [[null, forms]] : (Object.entries(forms) as [SourceKind, string][]);
}

/** What every list of areas needs, derived from the registered areas. */
export interface Catalog {
  areas: Area[];
  areaNames: string[];
  /** Endpoint form → area name: the spec's forms (docs/endpoints.txt). */
  endpointArea: Map<string, string>;
  /** Extension form (a GitLab endpoint beyond the spec's) → area name. */
  extensionArea: Map<string, string>;
  clauses: Clause[];
  /** Every area's role-granting writes, for the lending policy. */
  roleGrantingWrites: RoleGrantingWrite[];
  /** Every area's collections and the kind of id each names. */
  collectionIdKinds: CollectionIdKinds;
  /** The run's setting phases, in order: each value of each setting the areas declare. */
  settingPhases: SettingValue[];
}

export function catalogOf(areas: Area[]): Catalog {
  const names = areas.map((a) => a.name);
  const dupName = names.find((n, i) => names.indexOf(n) !== i);
  if (dupName) throw new Error(`area ${dupName} is registered twice`);
  const endpointArea = new Map<string, string>();
  const extensionArea = new Map<string, string>();
  for (const area of areas) {
    for (const [map, forms] of [[endpointArea, area.forms], [extensionArea, area.extensionForms]] as const) {
      for (const form of forms) {
        const holder = endpointArea.get(form) ?? extensionArea.get(form);
        if (holder !== undefined) throw new Error(`endpoint form "${form}" is declared by ${holder} and ${area.name}`);
        map.set(form, area.name);
      }
    }
  }
  const collectionIdKinds: CollectionIdKinds = {};
  for (const area of areas) {
    for (const [collection, kind] of Object.entries(area.collectionIdKinds ?? {})) {
      if (collectionIdKinds[collection] !== undefined && collectionIdKinds[collection] !== kind) throw new Error(`collection "${collection}" names ids of kind ${collectionIdKinds[collection]} and, in ${area.name}, ${kind}`);
      collectionIdKinds[collection] = kind;
    }
  }
  const settings = new Map<string, InstanceSetting>();
  for (const area of areas) {
    for (const setting of area.settings ?? []) {
      const known = settings.get(setting.name);
      if (known && JSON.stringify(known.values) !== JSON.stringify(setting.values)) throw new Error(`setting ${setting.name} is declared with the values ${JSON.stringify(known.values)} and, in ${area.name}, ${JSON.stringify(setting.values)}`);
      settings.set(setting.name, setting);
    }
  }
  const settingPhases = [...settings.values()].flatMap(({ name, values }) => values.map((value) => ({ name, value })));
  return { areas, areaNames: names, endpointArea, extensionArea, clauses: areas.flatMap((a) => a.clauses), roleGrantingWrites: areas.flatMap((a) => a.roleGrantingWrites ?? []), collectionIdKinds, settingPhases };
}

// An area of the API as data: its name, the prefix of its clause and test ids, its endpoints (each
// written once; a family with a group and a project form runs for both kinds), the GitLab endpoints
// it tests beyond the spec's (extensions) and its clauses. Each area declares itself in
// suites/<area>/area.ts; suites/areas.ts lists them, and everything that lists areas (configuration,
// reports, the CLI, the fault checker) derives from that one list.
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

export interface AreaDefinition<E extends string = string, X extends string = string> {
  /** Folder, setting and report name, e.g. "repository-files". */
  name: string;
  /** Prefix of the area's clause and test ids, e.g. "files". */
  prefix: string;
  /** The spec's endpoint forms of the area (docs/endpoints.txt). */
  endpoints: Record<E, EndpointForms>;
  /**
   * GitLab endpoints beyond the spec's forms, in the same shape. Their tests check GitLab behaviour
   * only: always at the parity level, gated by the GitLab version that added the endpoint
   * (runner/run/conformance.ts). They are not among the spec's forms (docs/endpoints.txt).
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

export interface Area<E extends string = string, X extends string = string> extends AreaDefinition<E, X> {
  /** Every endpoint form of the area, as the spec's endpoints.txt writes it. */
  forms: string[];
  /** The forms of the extensions (GitLab endpoints beyond the spec). */
  extensionForms: string[];
  clauseIds: ReadonlySet<string>;
}

const formsOf = (endpoints: Record<string, EndpointForms>) => Object.values<EndpointForms>(endpoints).flatMap((f) => (typeof f === 'string' ? [f] : Object.values(f)));

export function defineArea<E extends string, X extends string = never>(definition: AreaDefinition<E, X>): Area<E, X> {
  const { name, prefix, clauses } = definition;
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`area "${name}": name and prefix must be lower-case words with dashes`);
  const ids = clauses.map((c) => c.id);
  const stray = ids.find((id) => !id.startsWith(`${prefix}.`));
  if (stray) throw new Error(`area ${name}: clause ${stray} must start with "${prefix}."`);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`area ${name}: clause ${duplicate} is declared twice`);
  const extensions = definition.extensions ?? ({} as Record<X, EndpointForms>);
  const both = Object.keys(extensions).find((key) => Object.hasOwn(definition.endpoints, key));
  if (both) throw new Error(`area ${name}: ${both} is both an endpoint and an extension`);
  return { ...definition, forms: formsOf(definition.endpoints), extensionForms: formsOf(extensions), clauseIds: new Set(ids) };
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

// What more than one set-up resource uses: the visibilities and feature levels, path names, avatars
// uploaded with a resource, and the order of listings.
import type { Avatar, Visibility } from '../../state/model.js';
import { Params } from '../../http/params.js';
import type { UploadedFile } from '../../http/rack-params.js';
import { ROLE_NAMES } from '../../state/model.js';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
/** ProjectFeature's levels as the API names them (lib/api/helpers/projects_helpers.rb: values disabled, private, enabled). */
export const FEATURE_LEVELS = ['disabled', 'private', 'enabled'] as const;
export const ALL_ACCESS_VALUES = Object.keys(ROLE_NAMES).map(Number);
export const PATH_PATTERN = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;

// Listings with `search`, as GitLab's GET /users, /groups and /projects (used by `sweep`).
export const contains = (text: string, search: string | undefined) => search === undefined || text.toLowerCase().includes(search.toLowerCase());

/**
 * `optional :avatar, type: ::API::Validations::Types::WorkhorseFile` (lib/api/users.rb optional_attributes;
 * the same for groups, lib/api/helpers/groups_helpers.rb, and projects, lib/api/helpers/projects_helpers.rb):
 * a multipart file part; anything else is Grape's "avatar is invalid". The name is kept as CarrierWave
 * sanitizes it (characters other than letters, digits, '.', '-' and '_' become '_').
 */
export function uploadedAvatar(params: Params): Avatar | undefined {
  const value = params.raw.avatar;
  if (value === undefined) return undefined;
  const file = value as Partial<UploadedFile>;
  if (typeof file !== 'object' || file === null || typeof file.filename !== 'string' || !Buffer.isBuffer(file.content)) {
    params.addError('avatar is invalid');
    return undefined;
  }
  return { filename: file.filename.replace(/^.*[\\/]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_') || 'avatar', type: file.type ?? 'application/octet-stream', content: file.content };
}

export function rank(visibility: Visibility): number {
  return VISIBILITIES.indexOf(visibility);
}

interface ListOrder {
  by: string;
  direction: 'asc' | 'desc';
}

/** `order_by` (one of `fields`) and `sort` (asc or desc), with the endpoint's defaults, as Grape checks them. */
export function listOrder(params: Params, fields: readonly string[], by: string, direction: ListOrder['direction']): ListOrder {
  return {
    by: params.string('order_by', { values: fields }) ?? by,
    direction: (params.string('sort', { values: ['asc', 'desc'] }) as ListOrder['direction'] | undefined) ?? direction,
  };
}

/** Sorts in place by the ordered field, ties by id (in `tieDirection`, else the same direction). */
export function sortBy<T>(items: T[], order: ListOrder, keys: Record<string, (item: T) => string | number>, id: (item: T) => number, tieDirection?: ListOrder['direction']): void {
  const key = keys[order.by];
  const sign = order.direction === 'asc' ? 1 : -1;
  const tieSign = (tieDirection ?? order.direction) === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const byKey = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return byKey !== 0 ? sign * byKey : tieSign * (id(a) - id(b));
  });
}

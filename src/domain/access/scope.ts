/**
 * Data scope: the places an actor may see and change. A super-administrator reaches everything; anyone else
 * reaches the cafes of their areas (a headquarters area reaches every cafe its business operates) and the
 * headquarters of the businesses whose headquarters areas they belong to. A mine or unit is reachable when it
 * contains a reachable cafe. Places are derived from cafes and businesses, so whatever creates, deletes or moves a
 * cafe or headquarters bumps the access version (authorization.ts) to refresh cached scopes.
 */
import type { AccessProfile } from "./authorization";
import { idList } from "../search";

export interface Scope {
  all: boolean;
  cafeIds: ReadonlySet<number>;
  headquartersIds: ReadonlySet<number>;
  /** Businesses whose headquarters areas the actor belongs to; a new cafe of one of these is in their scope. */
  businessIds: ReadonlySet<number>;
}

export const EVERYTHING: Scope = { all: true, cafeIds: new Set(), headquartersIds: new Set(), businessIds: new Set() };

export function scopeOf(profile: AccessProfile): Scope {
  return profile.isSuper
    ? EVERYTHING
    : {
        all: false,
        cafeIds: profile.cafeIds,
        headquartersIds: profile.headquartersIds,
        businessIds: profile.businessIds,
      };
}

export function reachesCafe(scope: Scope, cafeId: number): boolean {
  return scope.all || scope.cafeIds.has(cafeId);
}

/** Whether the scope reaches one of these cafes (an all-places scope reaches even none). */
export function reachesAnyCafe(scope: Scope, cafeIds: readonly number[]): boolean {
  return scope.all || cafeIds.some((id) => scope.cafeIds.has(id));
}

export function reachesHeadquarters(scope: Scope, headquartersId: number): boolean {
  return scope.all || scope.headquartersIds.has(headquartersId);
}

export function reachesBusiness(scope: Scope, businessId: number): boolean {
  return scope.all || scope.businessIds.has(businessId);
}

/**
 * The scope's ids as the values of a prepared statement's placeholders (JSON arrays, see inIdList in search.ts):
 * `cafes`, `headquarters` and `businesses`; null for an all-places scope, whose statements leave the condition out.
 */
export function scopeValues(scope: Scope): {
  cafes: string | null;
  headquarters: string | null;
  businesses: string | null;
} {
  if (scope.all) return { cafes: null, headquarters: null, businesses: null };
  return {
    cafes: idList(scope.cafeIds),
    headquarters: idList(scope.headquartersIds),
    businesses: idList(scope.businessIds),
  };
}

/**
 * Data scope: the places an actor may see and change. A super-administrator reaches everything; anyone else
 * reaches the cafes of their areas (a headquarters area reaches every cafe its business operates) and the
 * headquarters of the businesses whose headquarters areas they belong to.
 */
import type { AccessProfile } from "./authorization";

export interface Scope {
  all: boolean;
  cafeIds: ReadonlySet<number>;
  headquartersIds: ReadonlySet<number>;
}

export const EVERYTHING: Scope = { all: true, cafeIds: new Set(), headquartersIds: new Set() };

export function scopeOf(profile: AccessProfile): Scope {
  return profile.isSuper ? EVERYTHING : { all: false, cafeIds: profile.cafeIds, headquartersIds: profile.headquartersIds };
}

export function reachesCafe(scope: Scope, cafeId: number): boolean {
  return scope.all || scope.cafeIds.has(cafeId);
}

/** Searching lists on the server. */

/** A LIKE pattern (use it with ESCAPE '\\') that finds `search` anywhere, its % and _ taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

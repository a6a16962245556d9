/** Case-insensitive partial search, shared by every admin list and search box. */

/** LIKE pattern for a case-insensitive partial match; the user's %, _ and \ match themselves. */
export function containsPattern(query: string): string {
  return `%${query
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Narrowing for values from outside (CLI flags, provider metadata, query strings) into the enums of constants.ts. */

/** True when `value` is one of `list`; narrows it to that list's union, so no `as Plan`-style cast is needed. */
export function isOneOf<const List extends readonly string[]>(
  list: List,
  value: unknown,
): value is List[number] {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/**
 * A value the code just put there (a map filled from the same rows, an array index within its length):
 * returned typed as present, or an Error when a bug broke that promise. Instead of `x as T`.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

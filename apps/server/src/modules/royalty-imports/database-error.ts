/** What a database error says about itself: the driver's own fields, or those of the error Drizzle wrapped as `cause`. */

function stringField(value: unknown, name: 'code' | 'constraint'): string | undefined {
  if (typeof value !== 'object' || value === null || !(name in value)) return undefined;
  const found: unknown = Reflect.get(value, name);
  return typeof found === 'string' ? found : undefined;
}

const causeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'cause' in error ? error.cause : undefined;

/** The SQLSTATE of a database error ('23505' a unique violation, '22003' a numeric overflow). */
export const sqlState = (error: unknown): string | undefined =>
  stringField(error, 'code') ?? stringField(causeOf(error), 'code');

/** The constraint a database error names. */
export const constraintOf = (error: unknown): string | undefined =>
  stringField(error, 'constraint') ?? stringField(causeOf(error), 'constraint');

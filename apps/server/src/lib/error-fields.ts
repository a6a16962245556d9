/**
 * Fields of a thrown value, read without casting it: errors cross library boundaries as `unknown`
 * (Node's errno errors, the AWS SDK's, a driver's), so each reader checks the type it finds.
 */

/** `error[name]` when error is an object, else undefined. */
export function errorField(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null ? Reflect.get(error, name) : undefined;
}

const stringField = (error: unknown, name: string): string | undefined => {
  const value = errorField(error, name);
  return typeof value === 'string' ? value : undefined;
};

/** Node's errno code (`ENOENT`, `EEXIST`...) or a driver's SQLSTATE, when there is one. */
export const errorCode = (error: unknown): string | undefined => stringField(error, 'code');

/** The error's class name as the thrower set it (`NoSuchKey`, `NotFound`...). */
export const errorName = (error: unknown): string | undefined => stringField(error, 'name');

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The HTTP status the AWS SDK records on an error (`$metadata.httpStatusCode`). */
export function httpStatusOf(error: unknown): number | undefined {
  const status = errorField(errorField(error, '$metadata'), 'httpStatusCode');
  return typeof status === 'number' ? status : undefined;
}

/** Path parameters: one check for every UUID id in a path (record 092). */
import { notFound } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID from the path, lower-cased. Anything else cannot name a row, so it is the same 404 (with
 * `message`) as an id that does not exist, never a database error.
 */
export function uuidParam(value: string | undefined, message?: string): string {
  if (!value || !UUID.test(value)) throw notFound(message);
  return value.toLowerCase();
}

/** Keyset-paging cursors: the last row's (created_at as text, uuid id), opaque to callers. */
import { validationError } from './errors';

export type Cursor = { createdAt: string; id: string };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

/** Refuses anything that is not a cursor we made, with a 422 on the `cursor` field. */
export function decodeCursor(text: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof createdAt === 'string' &&
      typeof id === 'string' &&
      /^[0-9a-f-]{36}$/.test(id) &&
      /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/.test(createdAt)
    ) {
      return { createdAt, id };
    }
  } catch {
    // not base64url JSON: refused below
  }
  throw validationError('Invalid cursor', { cursor: 'Invalid cursor' });
}

/**
 * Errors never leak internals (issue 22, finding 9): a database error, in a route or inside a tus upload,
 * is answered with a generic 500 naming the request id; its details go to the log under the same id.
 */

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app';
import { tusUpload, validCover } from '../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';

let system: TestSystem;
let cookie: string;

beforeAll(async () => {
  system = await createTestSystem();
  ({ cookie } = await system.signedInUser({ plan: 'basic' }));
  // Prepares the viewer query, so the failures below hit only the route's own query.
  expect((await system.request('/api/me', { cookie })).status).toBe(200);
});
afterAll(async () => system.close());

const SQL_ERROR = 'Failed query: insert into "uploads" ("id", "secret_column") values ($1, $2)';

describe('an unexpected error', () => {
  it('in a route: a generic 500 with the request id, the details only in the log', async () => {
    const logged = vi.spyOn(system.logger, 'error');
    const select = vi.spyOn(system.db, 'select').mockImplementation(() => {
      throw new Error(SQL_ERROR);
    });
    try {
      const response = await system.request('/api/me/stats', { cookie });
      expect(response.status).toBe(500);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const text = await response.text();
      expect(text).not.toContain('insert');
      expect(text).not.toContain('secret_column');
      expect(JSON.parse(text)).toEqual({
        error: {
          code: 'internal_error',
          message: `Something went wrong on our side. Please try again. If it keeps happening, quote request ${requestId}.`,
          requestId,
        },
      });
      const [fields] = logged.mock.calls.at(-1) ?? [];
      expect(fields).toMatchObject({
        reqId: requestId,
        err: expect.objectContaining({ message: SQL_ERROR }),
      });
    } finally {
      select.mockRestore();
      logged.mockRestore();
    }
  });

  it('inside a tus upload: a generic 500 with the request id, not the SQL', async () => {
    const logged = vi.spyOn(system.logger, 'error');
    const transaction = vi.spyOn(system.db, 'transaction').mockRejectedValue(new Error(SQL_ERROR));
    try {
      const result = await tusUpload(system, cookie, {
        kind: 'cover',
        name: 'cover.jpg',
        body: await validCover(),
      });
      expect(result.created.status).toBe(500);
      const requestId = result.created.headers.get('x-request-id');
      const text = await result.created.text();
      expect(text).not.toContain('insert');
      expect(text).not.toContain('secret_column');
      expect(JSON.parse(text).error).toMatchObject({ code: 'internal_error', requestId });
      expect(logged.mock.calls.some(([fields]) => (fields as { reqId?: string }).reqId === requestId)).toBe(
        true,
      );
    } finally {
      transaction.mockRestore();
      logged.mockRestore();
    }
  });

  it('keeps a request id a trusted proxy sent (TRUST_PROXY=1, record 159), and replaces one that is not an id', async () => {
    const behindProxy = createApp({ ...system, config: { ...system.config, TRUST_PROXY: '1' } });
    const kept = await behindProxy.request('/api/health', { headers: { 'x-request-id': 'edge-1234.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-1234.abc');
    const untrusted = await system.request('/api/health', { headers: { 'x-request-id': 'edge-1234.abc' } });
    expect(untrusted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = await system.request('/api/health', { headers: { 'x-request-id': '<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await readJson(replaced)).status).toBe('ok');
  });
});

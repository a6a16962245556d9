/**
 * The v1 OpenAPI document (record 290): every v1 route has its entry, and the document served equals the
 * committed snapshot docs/api/openapi.v1.json. A route or schema that changes the document fails here
 * until the snapshot is updated in the same change: `UPDATE_OPENAPI=1 npx vitest run --project server
 * apps/server/src/modules/public-api/openapi.test.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import type { Deps } from '../../deps';
import { V1_ROUTES } from './v1-table';

const SNAPSHOT = path.resolve(import.meta.dirname, '../../../../../docs/api/openapi.v1.json');

async function servedDocument() {
  const app = createApp({
    config: { appUrl: 'http://localhost:3000', NODE_ENV: 'test', BODY_LIMIT_BYTES: 1_000_000 },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  } as unknown as Deps);
  const response = await app.request('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
}

describe('the v1 OpenAPI document', () => {
  it('is OpenAPI 3.1 with an operation for every v1 route', async () => {
    const document = await servedDocument();
    expect(document.openapi).toBe('3.1.0');
    // A row whose app route answers several methods (tus) is listed as its operations.
    const listed = V1_ROUTES.flatMap((route): { method: string; path: string }[] => [
      ...(route.operations ?? [route]),
    ]);
    const missing = listed
      .filter((route) => {
        const openApiPath = route.path.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}');
        return !document.paths[openApiPath]?.[route.method.toLowerCase()];
      })
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    const operations = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(operations).toHaveLength(listed.length);
  });

  it('equals the committed snapshot docs/api/openapi.v1.json', async () => {
    const served = `${JSON.stringify(await servedDocument(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(SNAPSHOT, served);
    const committed = fs.existsSync(SNAPSHOT) ? fs.readFileSync(SNAPSHOT, 'utf8') : '';
    // A v1 route or one of its schemas changed: run with UPDATE_OPENAPI=1 and commit the snapshot with it.
    expect(served).toBe(committed);
  });
});

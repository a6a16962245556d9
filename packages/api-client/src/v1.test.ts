/**
 * The committed types (src/v1.ts) are what openapi-typescript makes of the committed v1 document: a route
 * or schema change that updated docs/api/openapi.v1.json without regenerating the client fails here.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes, TYPES_FILE } from '../generate';

describe('the generated client types', () => {
  it('equal what openapi-typescript makes of docs/api/openapi.v1.json', async () => {
    // Run `npm run generate -w @tunedrop/api-client` and commit src/v1.ts with the document.
    expect(fs.readFileSync(TYPES_FILE, 'utf8')).toBe(await generateTypes());
  });
});

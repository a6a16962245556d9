/**
 * The OpenAPI 3.1 document of /api/v1 (record 290), generated from V1_ROUTES and the zod schemas each
 * route's validate() middleware carries (lib/validate.ts). docs/api/openapi.v1.json is its committed
 * snapshot; openapi.test.ts fails when they differ.
 */
import { API_SCOPES } from '@tunedrop/shared/schemas/api-keys';
import { z } from 'zod';
import { VALIDATED, type Validated } from '../../lib/validate';
import { V1_ROUTES } from './v1-table';

export type SourceRoute = { method: string; path: string; handler: unknown };
type JsonSchema = Record<string, unknown>;

const jsonSchemaOf = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
};

function validatedOf(source: readonly SourceRoute[], method: string, path: string): Validated[] {
  return source
    .filter((route) => route.method === method && route.path === `/api${path}`)
    .map((route) => (route.handler as Record<symbol, Validated | undefined>)[VALIDATED])
    .filter((found): found is Validated => found !== undefined);
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}');

const ERROR_RESPONSES = {
  '401': 'No valid key or session (`invalid_api_key`, `unauthorized`)',
  '403': 'The key lacks the scope (`forbidden_scope`) or the role does not allow it',
  '404': 'Not found, or not the account’s (`not_found`)',
  '422': 'Invalid input (`validation_error` with `fields`), or an Idempotency-Key reused with another body',
  '429': 'Over the key’s rate limit (`rate_limited`); wait `Retry-After` seconds',
} as const;

export function openApiDocument(source: readonly SourceRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of V1_ROUTES) {
    const validated = validatedOf(source, entry.method, entry.path);
    const parameters: unknown[] = [...entry.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = validated.find((v) => v.target === 'query');
    if (query) {
      const schema = jsonSchemaOf(query.schema);
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [name, property] of Object.entries(properties))
        parameters.push({ name, in: 'query', required: required.has(name), schema: property });
    }
    if (entry.method === 'POST')
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Kept 24 hours per key: a retry returns the first answer.',
        schema: { type: 'string', maxLength: 255 },
      });
    const json = validated.find((v) => v.target === 'json');
    const path = openApiPath(entry.path);
    paths[path] ??= {};
    const responses: Record<string, unknown> = {
      [entry.method === 'POST' && entry.path === '/builder/releases' ? '201' : '200']: {
        description: 'Success',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    };
    for (const [status, description] of Object.entries(ERROR_RESPONSES))
      responses[status] = {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    paths[path][entry.method.toLowerCase()] = {
      operationId: `${entry.method.toLowerCase()}${entry.path.replace(/[/:-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      summary: entry.summary,
      tags: [entry.tag],
      'x-scope': entry.scope,
      security: [{ apiKey: [entry.scope] }],
      ...(parameters.length ? { parameters } : {}),
      ...(json
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchemaOf(json.schema) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tunedrop API',
      version: '1',
      description:
        'The app’s own routes for a label’s systems. Authenticate with `Authorization: Bearer td_live_…`; ' +
        'each operation needs the scope in `x-scope`.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `Scopes: ${API_SCOPES.join(', ')}` },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                fields: { type: 'object', additionalProperties: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    paths,
  };
}

/**
 * The OpenAPI 3.1 document of /api/v1 (record 290), generated from V1_ROUTES and the zod schemas each
 * route's validate() middleware carries (lib/validate.ts). docs/api/openapi.v1.json is its committed
 * snapshot; openapi.test.ts fails when they differ.
 */
import { ERROR_CODES } from '@tunedrop/shared/errors';
import { API_SCOPES } from '@tunedrop/shared/schemas/api-keys';
import { z } from 'zod';
import { VALIDATED, type Validated } from '../../lib/validate';
import { V1_ROUTES, type V1Route } from './v1-table';

export type SourceRoute = { method: string; path: string; handler: unknown };
type JsonSchema = Record<string, unknown>;

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
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
  '403': 'The key lacks the scope (`forbidden_scope`) or the role does not allow it (`account_role`, …)',
  '404': 'Not found, or not the account’s (`not_found`)',
  '409': 'The resource’s state does not allow it now (`conflict`, `release_not_editable`, …)',
  '422':
    'Invalid input (`validation_error` with `fields`), or an Idempotency-Key reused with another body ' +
    '(`idempotency_mismatch`)',
  '429': 'Over the key’s rate limit (`rate_limited`); wait `Retry-After` seconds',
} as const;

/** Every code an error answer may carry, by status (packages/shared errors.ts, record 293). */
const codesWithStatus = (status: number) =>
  Object.entries(ERROR_CODES)
    .filter(([, codeStatus]) => codeStatus === status)
    .map(([code]) => code);

export function openApiDocument(source: readonly SourceRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of V1_ROUTES) {
    if (entry.operations) {
      addOperations(paths, entry);
      continue;
    }
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
      [String(entry.answer?.status ?? 200)]: {
        description: 'Success',
        content: {
          'application/json': {
            schema: entry.answer
              ? jsonSchemaOf(entry.answer.schema, 'output')
              : { type: 'object', additionalProperties: true },
          },
        },
      },
    };
    Object.assign(responses, errorResponses());
    paths[path][entry.method.toLowerCase()] = {
      operationId: operationId(entry.method, entry.path),
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
        ErrorCode: {
          type: 'string',
          description: 'The closed set of error codes; each always comes with the status in `x-status`.',
          enum: Object.keys(ERROR_CODES),
          'x-status': ERROR_CODES,
        },
        Error: errorSchema({ $ref: '#/components/schemas/ErrorCode' }),
        ...Object.fromEntries(
          Object.keys(ERROR_RESPONSES).map((status) => [
            `Error${status}`,
            errorSchema({ type: 'string', enum: codesWithStatus(Number(status)) }),
          ]),
        ),
      },
    },
    paths,
  };
}

const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[/:-]+(\w)/g, (_m, c: string) => c.toUpperCase())}`;

const errorResponses = () =>
  Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/Error${status}` } } },
      },
    ]),
  );

/** The operations of a row whose app route answers several methods (tus): headers in, headers out. */
function addOperations(paths: Record<string, Record<string, unknown>>, entry: V1Route) {
  for (const operation of entry.operations ?? []) {
    const path = openApiPath(operation.path);
    paths[path] ??= {};
    const parameters: unknown[] = [
      ...[...operation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
        name: match[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...operation.headers.request.map((name) => ({
        name,
        in: 'header',
        required: true,
        schema: { type: 'string' },
      })),
    ];
    paths[path][operation.method.toLowerCase()] = {
      operationId: operationId(operation.method, operation.path),
      summary: operation.summary,
      tags: [entry.tag],
      'x-scope': entry.scope,
      security: [{ apiKey: [entry.scope] }],
      parameters,
      ...(operation.method === 'PATCH'
        ? {
            requestBody: {
              required: true,
              content: {
                'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } },
              },
            },
          }
        : {}),
      responses: {
        [String(operation.status)]: {
          description: 'Success',
          headers: Object.fromEntries(
            operation.headers.response.map((name) => [name, { schema: { type: 'string' } }]),
          ),
        },
        ...errorResponses(),
      },
    };
  }
}

/** The one error body, `{ error: { code, message, fields? } }`, with the codes it may carry. */
function errorSchema(code: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code,
          message: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  };
}

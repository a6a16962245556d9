/**
 * The v1 OpenAPI document (record 290): every v1 route has its entry, and the document served equals the
 * committed snapshot docs/api/openapi.v1.json. A route or schema that changes the document fails here
 * until the snapshot is updated in the same change: `UPDATE_OPENAPI=1 npx vitest run --project server
 * apps/server/src/modules/public-api/openapi.test.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClientResponse, hc } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type AppType, createApp } from '../../app';
import type { Deps } from '../../deps';
import type { artistProfileList, oneArtistProfile, releasesPage } from './responses';
import type * as catalogue from './responses-catalogue';
import type * as money from './responses-money';
import type * as webhooks from './responses-webhooks';
import { V1_ROUTES } from './v1-table';

// Each answer schema equals the JSON its app route answers, as the web's typed client reads it: a route whose
// answer changes without its schema fails the typecheck here (record 293).
type Api = ReturnType<typeof hc<AppType>>['api'];
type SuccessBody<Call> = Call extends (...args: never[]) => Promise<infer R>
  ? R extends ClientResponse<infer Body, infer Status, infer _Format>
    ? Status extends SuccessStatusCode
      ? Body
      : never
    : never
  : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Answers<Schema extends z.ZodType, Call> = Same<z.infer<Schema>, SuccessBody<Call>>;
const same = <_T extends true>() => undefined;
type Release = Api['releases'][':id'];
type Endpoint = Api['webhooks']['endpoints'][':id'];
same<Answers<typeof releasesPage, Api['releases']['$get']>>();
same<Answers<typeof artistProfileList, Api['artist-profiles']['$get']>>();
same<Answers<typeof oneArtistProfile, Api['artist-profiles']['$post']>>();
same<Answers<typeof oneArtistProfile, Api['artist-profiles'][':id']['$patch']>>();
same<Answers<typeof catalogue.releaseFormAnswer, Release['$get']>>();
same<Answers<typeof catalogue.releaseFormAnswer, Release['$patch']>>();
same<Answers<typeof catalogue.okAnswer, Release['$delete']>>();
same<Answers<typeof catalogue.okAnswer, Release['tracks']['$put']>>();
same<Answers<typeof catalogue.takedownAnswer, Release['takedown']['$post']>>();
same<Answers<typeof catalogue.releaseDetailAnswer, Release['store-takedowns']['$post']>>();
same<Answers<typeof catalogue.releaseSplitsAnswer, Release['splits']['$get']>>();
same<Answers<typeof catalogue.teamAnswer, Api['team']['$get']>>();
same<Answers<typeof catalogue.coverAnswer, Release['cover']['$put']>>();
same<Answers<typeof catalogue.audioAnswer, Release['tracks'][':trackId']['audio']['$put']>>();
same<Answers<typeof catalogue.submittedReleaseAnswer, Api['builder']['releases']['$post']>>();
same<Answers<typeof catalogue.uploadFactsAnswer, Api['builder']['uploads'][':id']['$get']>>();
same<Answers<typeof catalogue.releaseFormAnswer, Release['resubmit']['$post']>>();
same<Answers<typeof catalogue.releaseDetailAnswer, Release['detail']['$get']>>();
same<Answers<typeof money.walletAnswer, Api['wallet']['$get']>>();
same<Answers<typeof money.ledgerAnswer, Api['royalties']['ledger']['$get']>>();
same<Answers<typeof money.earningsAnswer, Api['analytics']['earnings']['$get']>>();
same<Answers<typeof money.statementsAnswer, Api['royalties']['statements']['$get']>>();
same<
  Answers<typeof money.statementSummaryAnswer, Api['royalties']['statements'][':period']['summary']['$get']>
>();
same<Answers<typeof money.payoutsAnswer, Api['payouts']['$get']>>();
same<Answers<typeof webhooks.webhookEndpointsAnswer, Api['webhooks']['endpoints']['$get']>>();
same<Answers<typeof webhooks.createdWebhookEndpointAnswer, Api['webhooks']['endpoints']['$post']>>();
same<Answers<typeof webhooks.webhookEndpointsAnswer, Endpoint['$delete']>>();
same<Answers<typeof webhooks.createdWebhookEndpointAnswer, Endpoint['rotate']['$post']>>();
same<Answers<typeof webhooks.webhookDeliveriesAnswer, Endpoint['test']['$post']>>();
same<Answers<typeof webhooks.webhookDeliveriesAnswer, Endpoint['deliveries']['$get']>>();
same<
  Answers<typeof webhooks.webhookDeliveriesAnswer, Api['webhooks']['deliveries'][':id']['redeliver']['$post']>
>();
same<Answers<typeof catalogue.reviewQueueAnswer, Api['admin']['releases']['$get']>>();
same<Answers<typeof catalogue.reviewedReleaseAnswer, Api['admin']['releases'][':id']['approve']['$post']>>();
same<Answers<typeof catalogue.reviewedReleaseAnswer, Api['admin']['releases'][':id']['reject']['$post']>>();

type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};

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

  it('describes the success answer of every operation that answers JSON', async () => {
    const document = await servedDocument();
    const undescribed = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, Operation>)
        .filter(([, operation]) => {
          const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
          const schema = success?.[1].content?.['application/json']?.schema;
          // tus operations answer headers only; any other success must name its properties.
          if (!success?.[1].content) return false;
          return !schema || !(schema.properties || schema.anyOf || schema.oneOf || schema.$ref);
        })
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('equals the committed snapshot docs/api/openapi.v1.json', async () => {
    const served = `${JSON.stringify(await servedDocument(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(SNAPSHOT, served);
    const committed = fs.existsSync(SNAPSHOT) ? fs.readFileSync(SNAPSHOT, 'utf8') : '';
    // A v1 route or one of its schemas changed: run with UPDATE_OPENAPI=1 and commit the snapshot with it.
    expect(served).toBe(committed);
  });
});

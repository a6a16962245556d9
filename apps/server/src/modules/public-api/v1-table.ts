/**
 * The public API v1 (issue 40, record 290): which of the app's own routes are in it and the one scope each
 * needs of a key. `/api/v1<path>` runs the app's handler chain of `/api<path>` unchanged. A route not
 * listed is not in v1; docs/api/v1.md says which were left out and why.
 */
import type { ApiScope } from '@tunedrop/shared/schemas/api-keys';
import type { z } from 'zod';
import { artistProfileList, oneArtistProfile, releasesPage } from './responses';
import {
  audioAnswer,
  coverAnswer,
  okAnswer,
  releaseDetailAnswer,
  releaseFormAnswer,
  releaseSplitsAnswer,
  reviewedReleaseAnswer,
  reviewQueueAnswer,
  submittedReleaseAnswer,
  takedownAnswer,
  teamAnswer,
  uploadFactsAnswer,
} from './responses-catalogue';
import {
  earningsAnswer,
  ledgerAnswer,
  payoutsAnswer,
  statementSummaryAnswer,
  statementsAnswer,
  walletAnswer,
} from './responses-money';
import {
  createdWebhookEndpointAnswer,
  webhookDeliveriesAnswer,
  webhookEndpointsAnswer,
} from './responses-webhooks';

/** One operation the document lists for a row whose app route answers several methods (tus: `ALL`). */
export type V1Operation = {
  method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  status: 200 | 201 | 204;
  /** The tus headers this operation takes and answers, for the document. */
  headers: { request: readonly string[]; response: readonly string[] };
};

export type V1Route = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ALL';
  /** The app's path under /api (the v1 path is the same under /api/v1). */
  path: string;
  scope: ApiScope;
  summary: string;
  tag: string;
  /** The success answer's status (200 unless said) and schema; none for an `ALL` row (its operations). */
  answer?: { status?: 200 | 201; schema: z.ZodType };
  /** For an `ALL` row, the operations the document lists instead of the row itself. */
  operations?: readonly V1Operation[];
};

const row = (
  method: V1Route['method'],
  path: string,
  scope: ApiScope,
  tag: string,
  summary: string,
  // Every JSON route describes its answer (openapi.test.ts checks the schema against the route's type).
  answer: { status?: 200 | 201; schema: z.ZodType },
): V1Route => ({ method, path, scope, tag, summary, answer });

const TUS_OPERATIONS: readonly V1Operation[] = [
  {
    method: 'POST',
    path: '/uploads',
    summary:
      'Start a tus upload: `Upload-Metadata` names `kind` (`audio` or `cover`) and `filename`; the answer’s ' +
      '`Location` is the upload’s address',
    status: 201,
    headers: { request: ['Tus-Resumable', 'Upload-Length', 'Upload-Metadata'], response: ['Location'] },
  },
  {
    method: 'HEAD',
    path: '/uploads/:id',
    summary: 'An upload’s offset, to resume it',
    status: 200,
    headers: { request: ['Tus-Resumable'], response: ['Upload-Offset', 'Upload-Length'] },
  },
  {
    method: 'PATCH',
    path: '/uploads/:id',
    summary:
      'Send bytes from `Upload-Offset` (`Content-Type: application/offset+octet-stream`); the last byte has ' +
      'the file checked (a refused file is 422 `file_rejected` with its reason)',
    status: 204,
    headers: { request: ['Tus-Resumable', 'Upload-Offset', 'Content-Type'], response: ['Upload-Offset'] },
  },
  {
    method: 'DELETE',
    path: '/uploads/:id',
    summary: 'Discard an upload not used by a release',
    status: 204,
    headers: { request: ['Tus-Resumable'], response: [] },
  },
];

export const V1_ROUTES: readonly V1Route[] = [
  // catalogue: releases, tracks, artist profiles, the team
  row('GET', '/releases', 'catalogue:read', 'Releases', 'List the account’s releases', {
    schema: releasesPage,
  }),
  row(
    'GET',
    '/releases/:id',
    'catalogue:read',
    'Releases',
    'A release with its tracks, as the edit form reads it',
    { schema: releaseFormAnswer },
  ),
  row('PATCH', '/releases/:id', 'catalogue:write', 'Releases', 'Edit a release’s metadata', {
    schema: releaseFormAnswer,
  }),
  row(
    'PUT',
    '/releases/:id/tracks',
    'catalogue:write',
    'Releases',
    'Edit the tracks’ titles, credits and order',
    { schema: okAnswer },
  ),
  row('DELETE', '/releases/:id', 'catalogue:write', 'Releases', 'Delete a release that is not at stores', {
    schema: okAnswer,
  }),
  row('POST', '/releases/:id/takedown', 'catalogue:write', 'Takedowns', 'Request a takedown of a release', {
    schema: takedownAnswer,
  }),
  row(
    'POST',
    '/releases/:id/store-takedowns',
    'catalogue:write',
    'Takedowns',
    'Take a release down from some stores',
    { schema: releaseDetailAnswer },
  ),
  row('GET', '/releases/:id/splits', 'catalogue:read', 'Releases', 'A release’s royalty splits', {
    schema: releaseSplitsAnswer,
  }),
  row('GET', '/artist-profiles', 'catalogue:read', 'Artist profiles', 'List the account’s artist profiles', {
    schema: artistProfileList,
  }),
  row('POST', '/artist-profiles', 'catalogue:write', 'Artist profiles', 'Add an artist profile', {
    status: 201,
    schema: oneArtistProfile,
  }),
  row('PATCH', '/artist-profiles/:id', 'catalogue:write', 'Artist profiles', 'Edit an artist profile', {
    schema: oneArtistProfile,
  }),
  row('GET', '/team', 'catalogue:read', 'Team', 'The account’s owner, members and invitations', {
    schema: teamAnswer,
  }),

  row(
    'PUT',
    '/releases/:id/cover',
    'catalogue:write',
    'Releases',
    'Replace the cover with a checked upload',
    { schema: coverAnswer },
  ),
  row(
    'PUT',
    '/releases/:id/tracks/:trackId/audio',
    'catalogue:write',
    'Releases',
    'Replace a track’s WAV with a checked upload',
    { schema: audioAnswer },
  ),
  // tus 1.0.0 uploads (creation, HEAD, PATCH, DELETE), the browser's own route: the `Location` answered
  // stays under /api/v1, and every request is the key's again (a key revoked mid-upload stops it).
  {
    method: 'ALL',
    path: '/uploads/:id?',
    scope: 'catalogue:write',
    tag: 'Uploads',
    summary: 'tus uploads of WAVs and cover art',
    operations: TUS_OPERATIONS,
  },

  // submission
  row(
    'POST',
    '/builder/releases',
    'releases:submit',
    'Submission',
    'Submit a new release from uploaded files',
    { status: 201, schema: submittedReleaseAnswer },
  ),
  row('GET', '/builder/uploads/:id', 'releases:submit', 'Submission', 'An uploaded file’s checked facts', {
    schema: uploadFactsAnswer,
  }),
  row('POST', '/releases/:id/resubmit', 'releases:submit', 'Submission', 'Resubmit a rejected release', {
    schema: releaseFormAnswer,
  }),

  // deliveries and their store states
  row(
    'GET',
    '/releases/:id/detail',
    'deliveries:read',
    'Deliveries',
    'A release’s stores, deliveries and states',
    { schema: releaseDetailAnswer },
  ),

  // money
  row('GET', '/wallet', 'royalties:read', 'Royalties', 'The balance and withdrawals', {
    schema: walletAnswer,
  }),
  row('GET', '/royalties/ledger', 'royalties:read', 'Royalties', 'The royalty ledger', {
    schema: ledgerAnswer,
  }),
  row('GET', '/analytics/earnings', 'royalties:read', 'Royalties', 'Earnings by period, store and release', {
    schema: earningsAnswer,
  }),
  row('GET', '/royalties/statements', 'statements:read', 'Statements', 'The account’s royalty statements', {
    schema: statementsAnswer,
  }),
  row(
    'GET',
    '/royalties/statements/:period/summary',
    'statements:read',
    'Statements',
    'One statement’s summary',
    { schema: statementSummaryAnswer },
  ),
  row('GET', '/payouts', 'payouts:read', 'Payouts', 'The account’s payouts', { schema: payoutsAnswer }),

  // webhooks (record 291)
  row('GET', '/webhooks/endpoints', 'webhooks:manage', 'Webhooks', 'The account’s webhook endpoints', {
    schema: webhookEndpointsAnswer,
  }),
  row(
    'POST',
    '/webhooks/endpoints',
    'webhooks:manage',
    'Webhooks',
    'Add an endpoint (its secret is in this answer only)',
    { status: 201, schema: createdWebhookEndpointAnswer },
  ),
  row('DELETE', '/webhooks/endpoints/:id', 'webhooks:manage', 'Webhooks', 'Remove an endpoint', {
    schema: webhookEndpointsAnswer,
  }),
  row(
    'POST',
    '/webhooks/endpoints/:id/rotate',
    'webhooks:manage',
    'Webhooks',
    'A new secret; the old one signs 24 hours more',
    { schema: createdWebhookEndpointAnswer },
  ),
  row('POST', '/webhooks/endpoints/:id/test', 'webhooks:manage', 'Webhooks', 'Send the test event', {
    schema: webhookDeliveriesAnswer,
  }),
  row(
    'GET',
    '/webhooks/endpoints/:id/deliveries',
    'webhooks:manage',
    'Webhooks',
    'The endpoint’s delivery log',
    { schema: webhookDeliveriesAnswer },
  ),
  row(
    'POST',
    '/webhooks/deliveries/:id/redeliver',
    'webhooks:manage',
    'Webhooks',
    'Send a delivery’s message again',
    { schema: webhookDeliveriesAnswer },
  ),

  // staff (a key made by an admin with admin:*)
  row('GET', '/admin/releases', 'admin:*', 'Staff', 'The review queue', { schema: reviewQueueAnswer }),
  row('POST', '/admin/releases/:id/approve', 'admin:*', 'Staff', 'Approve a release', {
    schema: reviewedReleaseAnswer,
  }),
  row('POST', '/admin/releases/:id/reject', 'admin:*', 'Staff', 'Reject a release', {
    schema: reviewedReleaseAnswer,
  }),
];

export const v1Path = (path: string) => `/api/v1${path}`;

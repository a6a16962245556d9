/**
 * The public API v1 (issue 40, record 290): which of the app's own routes are in it and the one scope each
 * needs of a key. `/api/v1<path>` runs the app's handler chain of `/api<path>` unchanged. A route not
 * listed is not in v1; docs/api/v1.md says which were left out and why.
 */
import type { ApiScope } from '@tunedrop/shared/schemas/api-keys';
import type { z } from 'zod';
import { artistProfileList, oneArtistProfile, releasesPage } from './responses';

export type V1Route = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The app's path under /api (the v1 path is the same under /api/v1). */
  path: string;
  scope: ApiScope;
  summary: string;
  tag: string;
  /** The success answer's status (200 unless said) and schema (a JSON object unless given). */
  answer?: { status?: 200 | 201; schema?: z.ZodType };
};

const row = (
  method: V1Route['method'],
  path: string,
  scope: ApiScope,
  tag: string,
  summary: string,
  answer?: V1Route['answer'],
): V1Route => ({ method, path, scope, tag, summary, ...(answer ? { answer } : {}) });

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
  ),
  row('PATCH', '/releases/:id', 'catalogue:write', 'Releases', 'Edit a release’s metadata'),
  row(
    'PUT',
    '/releases/:id/tracks',
    'catalogue:write',
    'Releases',
    'Edit the tracks’ titles, credits and order',
  ),
  row('DELETE', '/releases/:id', 'catalogue:write', 'Releases', 'Delete a release that is not at stores'),
  row('POST', '/releases/:id/takedown', 'catalogue:write', 'Takedowns', 'Request a takedown of a release'),
  row(
    'POST',
    '/releases/:id/store-takedowns',
    'catalogue:write',
    'Takedowns',
    'Take a release down from some stores',
  ),
  row('GET', '/releases/:id/splits', 'catalogue:read', 'Releases', 'A release’s royalty splits'),
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
  row('GET', '/team', 'catalogue:read', 'Team', 'The account’s owner, members and invitations'),

  // submission
  row(
    'POST',
    '/builder/releases',
    'releases:submit',
    'Submission',
    'Submit a new release from uploaded files',
    { status: 201 },
  ),
  row('GET', '/builder/uploads/:id', 'releases:submit', 'Submission', 'An uploaded file’s checked facts'),
  row('POST', '/releases/:id/resubmit', 'releases:submit', 'Submission', 'Resubmit a rejected release'),

  // deliveries and their store states
  row(
    'GET',
    '/releases/:id/detail',
    'deliveries:read',
    'Deliveries',
    'A release’s stores, deliveries and states',
  ),

  // money
  row('GET', '/wallet', 'royalties:read', 'Royalties', 'The balance and withdrawals'),
  row('GET', '/royalties/ledger', 'royalties:read', 'Royalties', 'The royalty ledger'),
  row('GET', '/analytics/earnings', 'royalties:read', 'Royalties', 'Earnings by period, store and release'),
  row('GET', '/royalties/statements', 'statements:read', 'Statements', 'The account’s royalty statements'),
  row(
    'GET',
    '/royalties/statements/:period/summary',
    'statements:read',
    'Statements',
    'One statement’s summary',
  ),
  row('GET', '/payouts', 'payouts:read', 'Payouts', 'The account’s payouts'),

  // webhooks (record 291)
  row('GET', '/webhooks/endpoints', 'webhooks:manage', 'Webhooks', 'The account’s webhook endpoints'),
  row(
    'POST',
    '/webhooks/endpoints',
    'webhooks:manage',
    'Webhooks',
    'Add an endpoint (its secret is in this answer only)',
    { status: 201 },
  ),
  row('DELETE', '/webhooks/endpoints/:id', 'webhooks:manage', 'Webhooks', 'Remove an endpoint'),
  row(
    'POST',
    '/webhooks/endpoints/:id/rotate',
    'webhooks:manage',
    'Webhooks',
    'A new secret; the old one signs 24 hours more',
  ),
  row('POST', '/webhooks/endpoints/:id/test', 'webhooks:manage', 'Webhooks', 'Send the test event'),
  row(
    'GET',
    '/webhooks/endpoints/:id/deliveries',
    'webhooks:manage',
    'Webhooks',
    'The endpoint’s delivery log',
  ),
  row(
    'POST',
    '/webhooks/deliveries/:id/redeliver',
    'webhooks:manage',
    'Webhooks',
    'Send a delivery’s message again',
  ),

  // staff (a key made by an admin with admin:*)
  row('GET', '/admin/releases', 'admin:*', 'Staff', 'The review queue'),
  row('POST', '/admin/releases/:id/approve', 'admin:*', 'Staff', 'Approve a release'),
  row('POST', '/admin/releases/:id/reject', 'admin:*', 'Staff', 'Reject a release'),
];

export const v1Path = (path: string) => `/api/v1${path}`;

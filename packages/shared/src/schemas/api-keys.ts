/**
 * API keys for the public API v1 (issue 40, decision record 290): scoped `td_live_` keys an account's owner
 * or a team admin makes, shown once. Shapes shared by the server (apps/server/src/modules/api-keys) and the
 * web (apps/web/src/features/api-keys).
 *
 * Routes served:
 *   GET    /api/api-keys       (user, personal; owner or team admin) → ApiKeysResponse
 *   POST   /api/api-keys       (user, personal; owner or team admin) createApiKeySchema → CreatedApiKey (201)
 *   DELETE /api/api-keys/:id   (user, personal; owner or team admin) → ApiKeysResponse
 */
import { z } from 'zod';
import { safeText } from '../text';

export const API_KEY_PREFIX = 'td_live_';

export const API_SCOPES = [
  'catalogue:read',
  'catalogue:write',
  'releases:submit',
  'deliveries:read',
  'royalties:read',
  'statements:read',
  'payouts:read',
  'webhooks:manage',
  'admin:*',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'catalogue:read': 'Read releases, tracks, artist profiles and the team',
  'catalogue:write': 'Edit releases and artist profiles, request takedowns',
  'releases:submit': 'Upload files and submit new releases',
  'deliveries:read': 'Read deliveries and their store states',
  'royalties:read': 'Read the balance, earnings and the royalty ledger',
  'statements:read': 'Read royalty statements',
  'payouts:read': 'Read payouts',
  'webhooks:manage': 'Manage webhook endpoints',
  'admin:*': 'Staff routes (only for a key made by an admin)',
};

/** The form's choices of days a key lives (none: until revoked); the CLI takes any from 1 to 3650. */
export const API_KEY_EXPIRY_DAYS = [30, 90, 365] as const;

export const API_KEY_TEXTS = {
  managersOnly: 'Only the account’s owner or a team admin can manage API keys.',
  adminScopeStaffOnly: 'Only an admin can make a key with the admin:* scope.',
  notFound: 'API key not found.',
  invalidKey: 'This API key is not valid, has expired or was revoked.',
  forbiddenScope: (scope: string) => `This API key lacks the ${scope} scope.`,
  rateLimited: (seconds: number) => `Too many requests with this API key. Try again in ${seconds} seconds.`,
  keysOnlyOnV1: 'API keys are accepted only under /api/v1.',
  shownOnce: 'Copy this key now. It is shown only once.',
} as const;

export const createApiKeySchema = z.object({
  name: safeText().trim().min(1, 'Enter a name for the key.').max(80, 'Use at most 80 characters.'),
  scopes: z
    .array(z.enum(API_SCOPES, { message: 'Choose a known scope.' }))
    .min(1, 'Choose at least one scope.')
    .max(API_SCOPES.length),
  expiresInDays: z
    .number({ message: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'A key lives at least 1 day.')
    .max(3650, 'A key lives at most 3650 days.')
    .nullable()
    .default(null),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export type ApiKeyView = {
  id: string;
  name: string;
  /** The key's first characters (`td_live_abcd`), enough to tell keys apart. */
  start: string;
  scopes: ApiScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdBy: string;
};
export type ApiKeysResponse = { keys: ApiKeyView[] };
/** The answer to a creation: the key itself, this once. */
export type CreatedApiKey = ApiKeysResponse & { created: ApiKeyView; key: string };

/**
 * API keys (issue 40, record 290): made, listed and revoked by an account's owner or a team admin; only the
 * key's SHA-256 is kept. `authenticateKey` turns a presented key into the viewer it acts as, counting the
 * request against the key's per-minute limit in the same UPDATE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hasRole } from '@tunedrop/shared';
import {
  API_KEY_PREFIX,
  API_KEY_TEXTS,
  type ApiKeyView,
  type ApiScope,
  type CreateApiKeyInput,
  createApiKeySchema,
} from '@tunedrop/shared/schemas/api-keys';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, user } from '../../db/schema';
import { viewerOfPerson } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: the prefix and 32 random bytes in base64url (43 characters). */
function newKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Only the account's owner or a team admin manages its keys (a key acts with its maker's role, record 290). */
export function assertManagesKeys(viewer: Viewer): void {
  if (viewer.account.role !== 'owner' && viewer.account.role !== 'admin')
    throw new AppError('account_role', API_KEY_TEXTS.managersOnly, 403);
}

type KeyRow = typeof apiKeys.$inferSelect;
const viewOf = (row: KeyRow & { createdByEmail: string }): ApiKeyView => ({
  id: row.id,
  name: row.name,
  start: row.start,
  scopes: row.scopes,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdBy: row.createdByEmail,
});

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select({ key: apiKeys, createdByEmail: user.email })
    .from(apiKeys)
    .innerJoin(user, eq(user.id, apiKeys.createdBy))
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => viewOf({ ...row.key, createdByEmail: row.createdByEmail }));
}

/** Makes a key for the viewer's acting account; the key itself is returned this once. */
export async function createApiKey(
  db: Db,
  viewer: Viewer,
  input: CreateApiKeyInput,
): Promise<{ key: string; created: ApiKeyView }> {
  const parsed = createApiKeySchema.parse(input);
  const scopes = [...new Set(parsed.scopes)] as ApiScope[];
  if (scopes.includes('admin:*') && !hasRole(viewer.roles, 'admin'))
    throw new AppError('forbidden', API_KEY_TEXTS.adminScopeStaffOnly, 403);
  const key = newKey();
  const expiresAt = parsed.expiresInDays
    ? new Date(Date.now() + parsed.expiresInDays * 24 * 60 * 60 * 1000)
    : null;
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId: viewer.account.id,
      createdBy: viewer.user.id,
      name: parsed.name,
      keyHash: hashKey(key),
      start: key.slice(0, API_KEY_PREFIX.length + 4),
      scopes,
      expiresAt,
    })
    .returning();
  if (!row) throw new Error('The key was not stored.');
  return { key, created: viewOf({ ...row, createdByEmail: viewer.user.email }) };
}

export async function revokeApiKey(db: Db, accountId: string, id: string): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (row) return;
  const [existing] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)));
  if (!existing) throw new AppError('not_found', API_KEY_TEXTS.notFound, 404);
}

export type KeyCaller = { keyId: string; scopes: ApiScope[]; viewer: Viewer };

/**
 * The caller a presented key stands for, or an error: 401 for an unknown, expired or revoked key (or one
 * whose maker left the account), 429 with the seconds to wait once the minute's requests are used up.
 * The count, the window and `last_used_at` change in the one UPDATE that finds the key.
 */
export async function authenticateKey(db: Db, presented: string, limitPerMinute: number): Promise<KeyCaller> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) throw invalidKey();
  const [row] = await db
    .update(apiKeys)
    .set({
      windowStartedAt: sql`case when ${apiKeys.windowStartedAt} > now() - interval '1 minute'
        then ${apiKeys.windowStartedAt} else now() end`,
      windowCount: sql`case when ${apiKeys.windowStartedAt} > now() - interval '1 minute'
        then ${apiKeys.windowCount} + 1 else 1 end`,
      lastUsedAt: sql`now()`,
    })
    .where(
      and(
        eq(apiKeys.keyHash, hashKey(presented)),
        isNull(apiKeys.revokedAt),
        sql`(${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > now())`,
      ),
    )
    .returning({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      createdBy: apiKeys.createdBy,
      scopes: apiKeys.scopes,
      windowCount: apiKeys.windowCount,
      retryAfter: sql<number>`ceil(extract(epoch from (${apiKeys.windowStartedAt} + interval '1 minute' - now())))::int`,
    });
  if (!row) throw invalidKey();
  if (row.windowCount > limitPerMinute) {
    const seconds = Math.max(1, row.retryAfter);
    throw new AppError('rate_limited', API_KEY_TEXTS.rateLimited(seconds), 429, undefined, {
      'Retry-After': String(seconds),
    });
  }
  const viewer = await viewerOfPerson(db, row.createdBy, row.accountId, `api-key:${row.id}`);
  if (!viewer) throw invalidKey();
  // A key holds a staff role only with admin:* (which only an admin could give it).
  const roles = row.scopes.includes('admin:*')
    ? viewer.roles
    : viewer.roles.filter((role) => role !== 'admin' && role !== 'moderator');
  return { keyId: row.id, scopes: row.scopes, viewer: { ...viewer, roles } };
}

const invalidKey = () => new AppError('invalid_api_key', API_KEY_TEXTS.invalidKey, 401);

/**
 * The operator's payout settings (issue 38): each provider's credentials encrypted at rest under their own
 * purpose, bound to the provider's id, shown back masked; "test connection" records its answer; the
 * monthly schedule day and what a withdrawal request becomes. Every change is audited.
 */
import {
  PAYOUT_PROVIDERS,
  PAYOUT_TEXTS,
  type PayoutProviderId,
  type PayoutSettings,
  type ProviderSettingsInput,
  type ProviderSettingsView,
} from '@tunedrop/shared/schemas/payouts';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { payoutProviders, payoutSettings } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit';
import { providerFor } from './providers';
import type { ProviderConfig } from './providers/types';

const PURPOSE = 'tunedrop-payout-provider-credentials';

type ProviderRow = typeof payoutProviders.$inferSelect;

function hintOf(credentials: Record<string, string> | null): string | null {
  // PayPal's client id; Stripe's secret key (never shown beyond its last four characters); Wise's profile id.
  const id = credentials?.clientId ?? credentials?.secretKey ?? credentials?.profileId;
  return id ? `…${id.slice(-4)}` : null;
}

function decrypted(appSecret: string, row: ProviderRow | undefined): Record<string, string> | null {
  if (!row?.credentialsEncrypted) return null;
  return decryptSecret<Record<string, string>>(
    appSecret,
    PURPOSE,
    row.provider,
    row.credentialsEncrypted,
    'payout provider credentials',
  );
}

/** Whether a provider pays now: bank-csv always; another when the admin enabled it with credentials. */
export function isProviderOn(id: PayoutProviderId, row: ProviderRow | undefined): boolean {
  if (id === 'bank-csv') return true;
  return Boolean(row?.enabled && row.credentialsEncrypted);
}

export async function providerRows(db: DbOrTx): Promise<Map<PayoutProviderId, ProviderRow>> {
  const rows = await db.select().from(payoutProviders);
  return new Map(rows.map((row) => [row.provider, row]));
}

export async function providerConfig(
  db: DbOrTx,
  appSecret: string,
  id: PayoutProviderId,
): Promise<ProviderConfig> {
  const [row] = await db.select().from(payoutProviders).where(eq(payoutProviders.provider, id));
  return { credentials: decrypted(appSecret, row), baseUrl: row?.baseUrl ?? null };
}

export async function listProviderSettings(db: DbOrTx, appSecret: string): Promise<ProviderSettingsView[]> {
  const rows = await providerRows(db);
  return PAYOUT_PROVIDERS.map((id) => {
    const row = rows.get(id);
    let hint: string | null = null;
    try {
      hint = hintOf(decrypted(appSecret, row));
    } catch {
      hint = null;
    }
    return {
      provider: id,
      enabled: isProviderOn(id, row),
      hasCredentials: Boolean(row?.credentialsEncrypted),
      credentialsHint: hint,
      baseUrl: row?.baseUrl ?? null,
      lastTest:
        row?.lastTestAt && row.lastTestOk !== null
          ? { at: row.lastTestAt.toISOString(), ok: row.lastTestOk, message: row.lastTestMessage ?? '' }
          : null,
    };
  });
}

/** Saves a provider's settings; credentials left out keep the stored ones; enabling needs credentials. */
export async function saveProviderSettings(
  db: DbOrTx,
  appSecret: string,
  input: ProviderSettingsInput,
  viewer: Viewer,
): Promise<ProviderSettingsView> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(payoutProviders)
      .where(eq(payoutProviders.provider, input.provider))
      .for('update');
    const credentialsEncrypted = input.credentials
      ? encryptSecret(appSecret, PURPOSE, input.provider, input.credentials)
      : (before?.credentialsEncrypted ?? null);
    if (input.enabled && providerFor(input.provider).methods.length === 0) {
      throw new AppError(
        'provider_unavailable',
        `${input.provider} payouts are not available in this version yet.`,
        422,
      );
    }
    if (input.provider !== 'bank-csv' && input.enabled && !credentialsEncrypted) {
      throw new AppError('provider_not_configured', PAYOUT_TEXTS.providerNotConfigured, 422, {
        credentials: PAYOUT_TEXTS.providerNotConfigured,
      });
    }
    const baseUrl = 'baseUrl' in input ? (input.baseUrl ?? before?.baseUrl ?? null) : null;
    const values = {
      provider: input.provider,
      enabled: input.enabled,
      credentialsEncrypted,
      baseUrl,
      updatedAt: new Date(),
      updatedBy: viewer.user.id,
    };
    await tx
      .insert(payoutProviders)
      .values(values)
      .onConflictDoUpdate({ target: payoutProviders.provider, set: values });
    await recordAudit(tx, viewer, {
      kind: 'payouts.provider_settings',
      subject: { type: 'payout_provider', id: input.provider, label: input.provider },
      before: before
        ? {
            enabled: before.enabled,
            baseUrl: before.baseUrl,
            credentials: before.credentialsEncrypted ? 'set' : 'none',
          }
        : null,
      after: {
        enabled: input.enabled,
        baseUrl,
        credentials: input.credentials ? 'replaced' : credentialsEncrypted ? 'kept' : 'none',
      },
    });
    const view = (await listProviderSettings(tx, appSecret)).find((item) => item.provider === input.provider);
    if (!view) throw new Error('provider settings vanished');
    return view;
  });
}

/** Calls the provider with the stored settings and keeps its answer (shown on the settings page). */
export async function testProviderConnection(
  db: DbOrTx,
  appSecret: string,
  id: PayoutProviderId,
): Promise<{ ok: boolean; message: string }> {
  const config = await providerConfig(db, appSecret, id);
  if (id !== 'bank-csv' && !config.credentials)
    return { ok: false, message: PAYOUT_TEXTS.providerNotConfigured };
  let answer: { ok: boolean; message: string };
  try {
    answer = await providerFor(id).testConnection(config);
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  await db
    .insert(payoutProviders)
    .values({ provider: id, lastTestAt: new Date(), lastTestOk: answer.ok, lastTestMessage: answer.message })
    .onConflictDoUpdate({
      target: payoutProviders.provider,
      set: { lastTestAt: new Date(), lastTestOk: answer.ok, lastTestMessage: answer.message },
    });
  return answer;
}

const DEFAULT_SETTINGS: PayoutSettings = { scheduleDay: null, withdrawalMode: 'next_run' };

export async function readPayoutSettings(db: DbOrTx): Promise<PayoutSettings> {
  const [row] = await db.select().from(payoutSettings).where(eq(payoutSettings.id, 1));
  return row ? { scheduleDay: row.scheduleDay, withdrawalMode: row.withdrawalMode } : DEFAULT_SETTINGS;
}

export async function savePayoutSettings(
  db: DbOrTx,
  input: PayoutSettings,
  viewer: Viewer,
): Promise<PayoutSettings> {
  return db.transaction(async (tx) => {
    const before = await readPayoutSettings(tx);
    await tx
      .insert(payoutSettings)
      .values({ id: 1, ...input, updatedAt: sql`now()` })
      .onConflictDoUpdate({ target: payoutSettings.id, set: { ...input, updatedAt: sql`now()` } });
    await recordAudit(tx, viewer, {
      kind: 'payouts.settings',
      subject: { type: 'setting', id: 'payouts', label: 'Payouts' },
      before,
      after: input,
    });
    return input;
  });
}

/** The next scheduled run's date (UTC midnight of the day), or null when runs are by hand only. */
export function nextRunDate(settings: PayoutSettings, now = new Date()): Date | null {
  if (settings.scheduleDay === null) return null;
  const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), settings.scheduleDay));
  if (thisMonth.getTime() >= Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    return thisMonth;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, settings.scheduleDay));
}

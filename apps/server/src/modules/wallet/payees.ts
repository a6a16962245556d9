/**
 * Payee accounts (issue 27, record 175): who is a payee, and the withdrawal minimum the operator sets for
 * them. A payee never held a subscription, is not staff or free access, and is bound to at least one split
 * invitation that is not withdrawn: accepted by the account, or pending for its address (the invitation
 * it signed up from). An artist from the pricing flow with no invitation stays an artist without a
 * subscription, with the spec's gate and plan minimums.
 */

import { parseAmountToCents } from '@tunedrop/shared';
import {
  PAYEE_MINIMUM_DEFAULT_CENTS,
  type PayeeSettingsInput,
  type PayeeSettingsView,
} from '@tunedrop/shared/schemas/wallet';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { cachedRead } from '../../db/read-cache';
import { profiles, settings } from '../../db/schema';
import { firstRow } from '../../lib/sql';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';

/** The settings-table key of the payee minimum, in cents. */
export const PAYEE_MINIMUM_SETTING = 'PAYEE_MINIMUM_WITHDRAWAL_CENTS';

/**
 * True for a payee, as a condition on the row of `profiles` (not aliased) in the surrounding query; written
 * with qualified names since Drizzle leaves columns of a one-table select unqualified. The cheap columns
 * come first, so the invitations are looked up only for accounts that never subscribed: accepted ones by
 * split_payees' user index, pending ones by the pending-by-address index of migration 0029.
 */
/** The payee condition on a row of `profiles` (record 175), as SQL text for raw queries. */
export const IS_PAYEE_CONDITION = `
  profiles.subscription_status = 'inactive'
  and profiles.subscription_end is null
  and profiles.subscription_state_at is null
  and not exists (select 1 from user_roles r where r.user_id = profiles.id
                  and r.role in ('admin', 'moderator', 'free_access'))
  and (exists (select 1 from split_payees sp where sp.user_id = profiles.id and sp.status = 'accepted')
       or exists (select 1 from split_payees sp where sp.status = 'pending'
                  and lower(sp.email) = lower(profiles.email)))`;
export const isPayeeSql: SQL<boolean> = sql<boolean>`(${sql.raw(IS_PAYEE_CONDITION)})`;

export async function isPayee(db: DbOrTx, userId: string): Promise<boolean> {
  // From memory on the embedded database until anything is written (record 305): /api/me asks on every load.
  return cachedRead(db, `payee:${userId}`, async () => {
    const row = await firstRow<{ isPayee: boolean }>(
      db,
      sql`select ${isPayeeSql} as is_payee from ${profiles} where ${profiles.id} = ${userId}`,
    );
    return row?.isPayee === true;
  });
}

export async function readPayeeSettings(db: DbOrTx): Promise<PayeeSettingsView> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, PAYEE_MINIMUM_SETTING));
  const cents = row?.value ? Number(row.value) : Number.NaN;
  return Number.isSafeInteger(cents) && cents > 0
    ? { minimumWithdrawalCents: cents, source: 'settings' }
    : { minimumWithdrawalCents: PAYEE_MINIMUM_DEFAULT_CENTS, source: 'default' };
}

export async function savePayeeSettings(
  db: DbOrTx,
  input: PayeeSettingsInput,
  updatedBy: string,
  actor?: AuditActor,
): Promise<PayeeSettingsView> {
  const cents = parseAmountToCents(input.minimumWithdrawal);
  if (cents === null) throw new Error('payee minimum passed the schema but is not an amount');
  const now = new Date();
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, [PAYEE_MINIMUM_SETTING]);
    await tx
      .insert(settings)
      .values({ key: PAYEE_MINIMUM_SETTING, value: String(cents), updatedBy, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: String(cents), updatedBy, updatedAt: now } });
    // Audited in cents, as stored (record 191).
    if (actor) {
      await auditSettings(tx, actor, 'Payee minimum withdrawal', before, {
        [PAYEE_MINIMUM_SETTING]: String(cents),
      });
    }
  });
  return readPayeeSettings(db);
}

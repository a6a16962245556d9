/**
 * The operator's distribution fee (issue 25, record 189). A percentage per plan (settings keys
 * FEE_PERCENT_BASIC/PRO/PAYEE, default 0) or per account (account_fees, which wins). A posting takes it
 * from each artist's gross of the report FIRST, per posting group (amount − amount × p × 0.01, exact
 * numeric), before recoupment and splits, which apply to the net. What the operator keeps per artist and
 * report is trunc(gross, 2) − trunc(net, 2) in cents (royalty_postings.fee_cents), booked as one
 * operator_revenue line of kind 'fee'; the sub-cent residue of the gross stays the report's residue.
 */
import {
  type AccountFeeView,
  FEE_PLANS,
  type FeePlan,
  type FeeSettingsInput,
  type FeeSettingsView,
} from '@tunedrop/shared/schemas/finance';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { accountFees, settings } from '../../db/schema';
import { firstRow, run } from '../../lib/sql';
import { isPayeeSql } from '../wallet';

export const FEE_SETTING_KEYS: Record<FeePlan, string> = {
  basic: 'FEE_PERCENT_BASIC',
  pro: 'FEE_PERCENT_PRO',
  payee: 'FEE_PERCENT_PAYEE',
};

const planFeeSql = (plan: FeePlan) =>
  sql`coalesce((select value::numeric from settings where key = ${FEE_SETTING_KEYS[plan]}), 0)`;

/** The plan whose fee an account follows without an override, as SQL on the unaliased `profiles` row. */
const feePlanSql = sql`case when ${isPayeeSql} then 'payee' when profiles.plan = 'pro' then 'pro' else 'basic' end`;

/**
 * SQL for a user's effective fee percentage (the account's override, else its plan's, else 0); `userId`
 * is an SQL expression (a column of the surrounding query or a parameter). Suspense assignment uses it too.
 */
export function feePercentSql(userId: SQL): SQL<string> {
  return sql<string>`coalesce(
    (select af.fee_percent from account_fees af where af.user_id = ${userId}),
    (select case ${feePlanSql} when 'payee' then ${planFeeSql('payee')} when 'pro' then ${planFeeSql('pro')}
            else ${planFeeSql('basic')} end
       from profiles where profiles.id = ${userId}),
    0)`;
}

/**
 * Inside a posting, after its groups are in the temporary table `posting_groups` and before splits:
 * records each artist's gross and fee percentage in the temporary table `posting_fees` and reduces every
 * group to its net. Returns whether any fee applies.
 */
export async function applyFees(tx: Tx): Promise<boolean> {
  // A suspense assignment may settle more than one posting in one transaction (record 188).
  await run(tx, sql`drop table if exists pg_temp.posting_fees`);
  await run(
    tx,
    sql`
      create temp table posting_fees (user_id text primary key, percent numeric not null, gross numeric not null)
        on commit drop`,
  );
  await run(
    tx,
    sql`
      insert into posting_fees (user_id, percent, gross)
      select g.user_id, ${feePercentSql(sql`g.user_id`)}, g.gross
        from (select user_id, sum(amount) as gross from posting_groups group by user_id) g`,
  );
  const charged = await firstRow<{ any: boolean }>(
    tx,
    sql`select exists (select 1 from posting_fees where percent <> 0) as any`,
  );
  if (!charged?.any) return false;
  await run(
    tx,
    sql`
      update posting_groups g set amount = g.amount - g.amount * f.percent * 0.01
        from posting_fees f
       where f.user_id = g.user_id and f.percent <> 0`,
  );
  return true;
}

/** Books one operator revenue line per artist whose posting kept a fee (after royalty_postings). */
export async function bookFees(
  tx: Tx,
  importId: string,
  period: string | null,
  adminId: string | null,
): Promise<void> {
  await run(
    tx,
    sql`
      insert into operator_revenue (kind, import_id, user_id, period, cents, amount_usd, created_by)
      select 'fee', p.import_id, p.user_id, ${period}, p.fee_cents, trim_scale(f.gross * f.percent * 0.01), ${adminId}
        from royalty_postings p
        join posting_fees f on f.user_id = p.user_id
       where p.import_id = ${importId} and p.fee_cents <> 0`,
  );
}

// ---------------------------------------------------------------- settings

export async function readFeeSettings(db: DbOrTx): Promise<FeeSettingsView> {
  const found = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, Object.values(FEE_SETTING_KEYS)));
  const byKey = new Map(found.map((row) => [row.key, row.value]));
  return Object.fromEntries(
    FEE_PLANS.map((plan) => [plan, byKey.get(FEE_SETTING_KEYS[plan]) ?? '0']),
  ) as FeeSettingsView;
}

export async function saveFeeSettings(
  db: DbOrTx,
  input: FeeSettingsInput,
  updatedBy: string,
): Promise<{ before: FeeSettingsView; after: FeeSettingsView }> {
  const before = await readFeeSettings(db);
  const now = new Date();
  for (const plan of FEE_PLANS) {
    const value = input[plan];
    await db
      .insert(settings)
      .values({ key: FEE_SETTING_KEYS[plan], value, updatedBy, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy, updatedAt: now } });
  }
  return { before, after: await readFeeSettings(db) };
}

export async function readAccountFee(db: DbOrTx, userId: string): Promise<AccountFeeView | null> {
  const row = await firstRow<{ override: string | null; plan: FeePlan; planPercent: string }>(
    db,
    sql`
      select trim_scale(af.fee_percent)::text as override, ${feePlanSql} as plan,
             trim_scale(case ${feePlanSql} when 'payee' then ${planFeeSql('payee')} when 'pro' then ${planFeeSql('pro')}
                        else ${planFeeSql('basic')} end)::text as plan_percent
        from profiles
        left join account_fees af on af.user_id = profiles.id
       where profiles.id = ${userId}`,
  );
  if (!row) return null;
  return { ...row, effective: row.override ?? row.planPercent };
}

export async function saveAccountFee(
  db: DbOrTx,
  userId: string,
  feePercent: string | null,
  updatedBy: string,
): Promise<void> {
  if (feePercent === null) {
    await run(db, sql`delete from account_fees where user_id = ${userId}`);
    return;
  }
  const now = new Date();
  await db
    .insert(accountFees)
    .values({ userId, feePercent, updatedBy, updatedAt: now })
    .onConflictDoUpdate({ target: accountFees.userId, set: { feePercent, updatedBy, updatedAt: now } });
}

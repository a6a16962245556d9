/**
 * Withdrawal Management: the list (search by artist name or email, Pending / Completed tabs, paging)
 * with the payment details decrypted for the admin. Approve and reject are the wallet's transitions.
 */
import type { PaymentMethod, WithdrawalStatus } from '@tunedrop/shared';
import {
  type AdminWithdrawal,
  type AdminWithdrawalsPage,
  type AdminWithdrawalsQuery,
  WITHDRAWAL_TABS,
  WITHDRAWALS_PAGE_SIZE,
} from '@tunedrop/shared/schemas/admin-withdrawals';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { containsPattern } from '../admin-balances/service';
import { readPaymentDetails } from '../wallet/service';

type Row = {
  id: string;
  user_id: string;
  email: string;
  artist_name: string;
  amount_cents: string | number;
  payment_method: string;
  payment_details_encrypted: string;
  status: string;
  requested_at: Date | string;
  processed_at: Date | string | null;
  processed_by_email: string | null;
  rejection_reason: string | null;
  balance_cents: string | number;
};

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const statusList = (tab: AdminWithdrawalsQuery['tab']) =>
  sql.join(
    (WITHDRAWAL_TABS.find((item) => item.id === tab)?.statuses ?? ['pending']).map(
      (status) => sql`${status}`,
    ),
    sql`, `,
  );

export async function listWithdrawalsForAdmin(
  db: Db,
  appSecret: string,
  query: AdminWithdrawalsQuery,
): Promise<AdminWithdrawalsPage> {
  const search = query.q
    ? sql`(lower(p.email) like ${containsPattern(query.q)} or lower(p.artist_name) like ${containsPattern(query.q)})`
    : sql`true`;
  const [counts] = rowsOf<{
    pending: string | number;
    completed: string | number;
    pending_total: string | number;
  }>(
    await db.execute(sql`
      select count(*) filter (where w.status = 'pending') as pending,
             count(*) filter (where w.status <> 'pending') as completed,
             coalesce(sum(w.amount_cents) filter (where w.status = 'pending'), 0) as pending_total
        from withdrawal_requests w join profiles p on p.id = w.user_id
       where ${search}`),
  );
  const offset = (query.page - 1) * WITHDRAWALS_PAGE_SIZE;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select w.id, w.user_id, p.email, p.artist_name, w.amount_cents, w.payment_method,
             w.payment_details_encrypted, w.status, w.requested_at, w.processed_at, w.rejection_reason,
             a.email as processed_by_email, p.balance_cents
        from withdrawal_requests w
        join profiles p on p.id = w.user_id
        left join profiles a on a.id = w.processed_by
       where ${search} and w.status in (${statusList(query.tab)})
       order by ${query.tab === 'pending' ? sql`w.requested_at desc` : sql`coalesce(w.processed_at, w.requested_at) desc`}, w.id
       limit ${WITHDRAWALS_PAGE_SIZE} offset ${offset}`),
  );
  const tabCounts = { pending: Number(counts?.pending ?? 0), completed: Number(counts?.completed ?? 0) };
  return {
    withdrawals: rows.map((row): AdminWithdrawal => {
      const details = readPaymentDetails(appSecret, {
        userId: row.user_id,
        paymentDetailsEncrypted: row.payment_details_encrypted,
      });
      return {
        id: row.id,
        userId: row.user_id,
        email: row.email,
        artistName: row.artist_name,
        amountCents: Number(row.amount_cents),
        paymentMethod: row.payment_method as PaymentMethod,
        paymentDetails: details?.details ?? null,
        status: row.status as WithdrawalStatus,
        requestedAt: iso(row.requested_at) as string,
        processedAt: iso(row.processed_at),
        processedByEmail: row.processed_by_email,
        rejectionReason: row.rejection_reason,
        userBalanceCents: Number(row.balance_cents),
      };
    }),
    counts: tabCounts,
    pendingTotalCents: Number(counts?.pending_total ?? 0),
    page: query.page,
    pageSize: WITHDRAWALS_PAGE_SIZE,
    total: tabCounts[query.tab],
  };
}

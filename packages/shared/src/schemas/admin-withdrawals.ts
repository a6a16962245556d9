/** Withdrawal Management (spec 02 §2, §4, §5, §8): tabs, search, approve, reject with a reason. */
import { z } from 'zod';
import type { PaymentMethod, WithdrawalStatus } from '../constants';
import type { PageInfo } from '../paging';
import { multilineText, safeText } from '../text';
import type { PaymentDetails } from './wallet';

export const WITHDRAWAL_TABS = [
  { id: 'pending', label: 'Pending', statuses: ['pending'] },
  { id: 'completed', label: 'Completed', statuses: ['completed', 'rejected', 'cancelled'] },
] as const;
export type WithdrawalTab = (typeof WITHDRAWAL_TABS)[number]['id'];

export const WITHDRAWALS_PAGE_SIZE = 20;

export const adminWithdrawalsQuerySchema = z.object({
  q: safeText().trim().max(200).optional().default(''),
  tab: z.enum(['pending', 'completed']).default('pending'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AdminWithdrawalsQuery = z.infer<typeof adminWithdrawalsQuerySchema>;

export const ADMIN_WITHDRAWALS_TEXTS = {
  rejectionReasonRequired: {
    title: 'Rejection reason required',
    description: 'Please provide a reason for rejecting this request.',
  },
  notFound: { title: 'Not found', description: 'Withdrawal not found.' },
} as const;

export const rejectWithdrawalSchema = z.object({
  reason: multilineText().max(500).optional().default(''),
});

export type AdminWithdrawal = {
  id: string;
  userId: string;
  email: string;
  artistName: string;
  amountCents: number;
  paymentMethod: PaymentMethod;
  /** Decrypted for admins only, to make the payment; null when they cannot be read. */
  paymentDetails: PaymentDetails | null;
  status: WithdrawalStatus;
  requestedAt: string;
  processedAt: string | null;
  processedByEmail: string | null;
  rejectionReason: string | null;
  userBalanceCents: number;
};

export type AdminWithdrawalsPage = PageInfo & {
  withdrawals: AdminWithdrawal[];
  counts: Record<WithdrawalTab, number>;
  pendingTotalCents: number;
};

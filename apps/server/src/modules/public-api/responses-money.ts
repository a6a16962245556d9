/**
 * The answers of the v1 money routes (royalties, statements, payouts), for the OpenAPI document (issue 40,
 * record 293). Each equals the JSON its app route answers: openapi.test.ts fails the typecheck when a
 * route's answer and its schema differ.
 */
import { PAYMENT_METHODS, PLANS, WITHDRAWAL_STATUSES } from '@tunedrop/shared/constants';
import { PAYOUT_ITEM_STATES, PAYOUT_PROVIDERS, WITHDRAWAL_MODES } from '@tunedrop/shared/schemas/payouts';
import { LEDGER_ENTRY_KINDS } from '@tunedrop/shared/schemas/royalties';
import { z } from 'zod';

const bankDetails = z.object({
  method: z.literal('bank'),
  accountName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  routingNumber: z.string(),
});
const paypalDetails = z.object({ method: z.literal('paypal'), paypalEmail: z.string() });
const stripeDetails = z.object({ method: z.literal('stripe'), stripeAccount: z.string() });
const wiseDetails = z.object({
  method: z.literal('wise'),
  accountHolder: z.string(),
  currency: z.string(),
  account: z.string(),
});
const paymentDetails = z.union([bankDetails, paypalDetails, stripeDetails, wiseDetails]);
const earningsRow = z.object({
  key: z.string(),
  label: z.string(),
  units: z.string(),
  amountCents: z.number().int(),
  lines: z.number().int(),
});
const statementLine = z.object({
  label: z.string(),
  units: z.string(),
  cents: z.number(),
  exact: z.string(),
});
const statementEntry = z.object({ date: z.string(), description: z.string(), cents: z.number() });

export const walletAnswer = z.object({
  balanceCents: z.number().int(),
  totalEarningsCents: z.number().int(),
  pendingBalanceCents: z.number().int(),
  minimumWithdrawalCents: z.number().int(),
  plan: z.enum(PLANS),
  hasProMinimum: z.boolean(),
  isPayee: z.boolean(),
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
  paymentDetails: paymentDetails.nullable(),
  pendingRequests: z.array(
    z.object({
      id: z.string(),
      amountCents: z.number().int(),
      paymentMethod: z.enum(PAYMENT_METHODS),
      paymentDetails: paymentDetails.nullable(),
      status: z.enum(WITHDRAWAL_STATUSES),
      requestedAt: z.string(),
      processedAt: z.string().nullable(),
      rejectionReason: z.string().nullable(),
    }),
  ),
  payoutHoldUntil: z.string().nullable(),
  pendingPaymentDetails: z
    .object({
      details: paymentDetails,
      requestedAt: z.string(),
      linkExpiresAt: z.string(),
      sentTo: z.string(),
    })
    .nullable(),
});
export const ledgerAnswer = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(LEDGER_ENTRY_KINDS),
      period: z.string().nullable(),
      description: z.string(),
      amountCents: z.number().int(),
      balanceCents: z.number().int(),
      status: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export const earningsAnswer = z.object({
  months: z.enum(['all', '3', '12']),
  from: z.string().nullable(),
  totals: z.object({
    units: z.string(),
    amountCents: z.number().int(),
    lines: z.number().int(),
    reports: z.number().int(),
  }),
  byMonth: z.array(earningsRow),
  byStore: z.array(earningsRow),
  byCountry: z.array(earningsRow),
  byTrack: z.array(earningsRow),
  byRelease: z.array(earningsRow),
  lastPostedAt: z.string().nullable(),
});
export const statementsAnswer = z.object({
  items: z.array(
    z.object({
      period: z.string(),
      openingCents: z.number().int(),
      closingCents: z.number().int(),
      amountCents: z.number().int(),
      lines: z.number().int(),
    }),
  ),
});
export const statementSummaryAnswer = z.object({
  period: z.string(),
  issuer: z.object({ legalName: z.string(), address: z.string() }),
  account: z.object({ name: z.string(), email: z.string() }),
  artistProfile: z.object({ id: z.string(), name: z.string() }).optional(),
  outsideProfileCents: z.number().int().optional(),
  salesPeriods: z.array(z.string()),
  openingCents: z.number().int(),
  earnings: z.object({
    grossCents: z.number().int(),
    grossExact: z.string(),
    lines: z.number().int(),
    units: z.string(),
    byStore: z.array(statementLine),
    byCountry: z.array(statementLine),
    byTrack: z.array(statementLine),
  }),
  feeCents: z.number().int(),
  feePercent: z.string().nullable(),
  shares: z.array(
    z.object({
      direction: z.enum(['from', 'to']),
      party: z.string(),
      releaseTitle: z.string().nullable(),
      trackTitle: z.string().nullable(),
      isrc: z.string().nullable(),
      percent: z.string().nullable(),
      note: z.enum(['released', 'held']).nullable(),
      cents: z.number(),
      exact: z.string(),
    }),
  ),
  sharesReceived: z
    .object({
      byStore: z.array(statementLine),
      byCountry: z.array(statementLine),
      byTrack: z.array(statementLine),
    })
    .nullable(),
  otherEarnings: z.array(statementEntry),
  netEarningsCents: z.number().int(),
  withdrawals: z.array(statementEntry),
  adjustments: z.array(statementEntry),
  closingCents: z.number().int(),
  reserves: z
    .object({ heldCents: z.number().int(), releasedCents: z.number().int(), balanceCents: z.number().int() })
    .optional(),
});
export const payoutsAnswer = z.object({
  method: z.string().nullable(),
  schedule: z.object({ scheduleDay: z.number().int().nullable(), withdrawalMode: z.enum(WITHDRAWAL_MODES) }),
  nextRunDate: z.string().nullable(),
  balanceCents: z.number().int(),
  minimumCents: z.number().int(),
  blockers: z.array(z.string()),
  next: z
    .object({
      grossCents: z.number().int(),
      withheldCents: z.number().int(),
      netCents: z.number().int(),
      withholding: z.string().nullable(),
    })
    .nullable(),
  payouts: z.array(
    z.object({
      id: z.string(),
      runId: z.string(),
      accountId: z.string(),
      email: z.string(),
      provider: z.enum(PAYOUT_PROVIDERS).nullable(),
      state: z.enum(PAYOUT_ITEM_STATES),
      grossCents: z.number().int(),
      withheldCents: z.number().int(),
      netCents: z.number().int(),
      withholding: z.string().nullable(),
      blockedReason: z.string().nullable(),
      providerReference: z.string().nullable(),
      providerStatus: z.string().nullable(),
      awaitingFunding: z.boolean(),
      createdAt: z.string(),
      sentAt: z.string().nullable(),
      paidAt: z.string().nullable(),
      returnedAt: z.string().nullable(),
      returnReason: z.string().nullable(),
    }),
  ),
});

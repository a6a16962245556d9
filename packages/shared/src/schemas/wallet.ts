/**
 * Royalties and wallet (spec 02 §2, §5, §9): payment settings, the withdrawal checks in the spec's
 * order, and the shapes of the wallet API. One copy of each rule for the page and the server.
 */
import { z } from 'zod';
import { hasProFeatures } from '../access';
import {
  type PaymentMethod,
  PLAN_DETAILS,
  type Plan,
  type ReleaseStatus,
  type Role,
  type WithdrawalStatus,
} from '../constants';
import type { ErrorCode } from '../errors';
import { centsToDecimal, formatCents, parseAmountToCents } from '../money';
import { safeText } from '../text';
import {
  EMPTY_WISE_DETAILS,
  maskWiseDetails,
  WISE_INPUT_FIELDS,
  WISE_TEXTS,
  type WiseDetails,
  wiseDetailsSchema,
} from './wise-recipient';

/** A message of the spec shown as a toast: a title and a description. */
export type WalletMessage = { code: ErrorCode; title: string; description: string };

export const WALLET_MESSAGES = {
  paymentMethodRequired: {
    code: 'payment_method_required',
    title: 'Payment method required',
    description: 'Please select a payment method',
  },
  bankFieldsRequired: {
    code: 'bank_fields_required',
    title: 'All fields required',
    description: 'Please fill in all bank account details',
  },
  paypalEmailInvalid: {
    code: 'paypal_email_invalid',
    title: 'Valid email required',
    description: 'Please enter a valid PayPal email address',
  },
  paymentInfoRequired: {
    code: 'payment_info_required',
    title: 'Payment info required',
    description: 'Please add your payment information before requesting a withdrawal',
  },
  invalidAmount: {
    code: 'invalid_amount',
    title: 'Invalid amount',
    description: 'Please enter a valid amount',
  },
} as const satisfies Record<string, WalletMessage>;

export const walletMessage = {
  balanceBelowMinimum: (minimumCents: number, balanceCents: number): WalletMessage => ({
    code: 'balance_below_minimum',
    title: 'Insufficient balance',
    description: `Minimum withdrawal is ${formatCents(minimumCents)}. Your balance: ${formatCents(balanceCents)}`,
  }),
  amountTooLow: (minimumCents: number): WalletMessage => ({
    code: 'amount_too_low',
    title: 'Amount too low',
    description: `Minimum withdrawal is ${formatCents(minimumCents)}`,
  }),
  insufficientBalance: (balanceCents: number): WalletMessage => ({
    code: 'insufficient_balance',
    title: 'Insufficient balance',
    description: `You only have ${formatCents(balanceCents)} available`,
  }),
};

/** The toast title for an error code the wallet API answered with (the description is its message). */
export const WALLET_ERROR_TITLES: Partial<Record<ErrorCode, string>> = {
  payment_method_required: WALLET_MESSAGES.paymentMethodRequired.title,
  bank_fields_required: WALLET_MESSAGES.bankFieldsRequired.title,
  paypal_email_invalid: WALLET_MESSAGES.paypalEmailInvalid.title,
  wise_details_invalid: 'Wise details required',
  payment_info_required: WALLET_MESSAGES.paymentInfoRequired.title,
  invalid_amount: WALLET_MESSAGES.invalidAmount.title,
  balance_below_minimum: 'Insufficient balance',
  payout_hold: 'Withdrawals on hold',
  amount_too_low: 'Amount too low',
  insufficient_balance: 'Insufficient balance',
  not_found: 'Not found',
};

export const WALLET_TEXTS = {
  proMinimumHint: 'Upgrade to Pro for a $20 minimum',
  earningsNote:
    'Earnings will appear here once your music starts generating revenue from streams and downloads.',
  keepRequest: 'Keep Request',
  confirmCancel: 'Yes, Cancel Request',
  withdrawalNotFound: 'Withdrawal not found.',
  notPending: 'This withdrawal request is no longer pending.',
} as const;

/** Withdrawals are held for a while after the payout details change (record 229, `PAYOUT_HOLD_HOURS`). */
export const PAYOUT_HOLD_TEXTS = {
  title: 'Withdrawals on hold',
  /** `until` is an ISO time; shown in UTC so the server's message and the page say the same. */
  held: (until: string) =>
    `Your payout details were changed recently. To protect your account, withdrawals are on hold until ${holdTime(until)}.`,
  mailSubjectWithdrawal: 'A withdrawal was requested from your Tunedrop account',
} as const;

/** "2026-12-02 14:05 UTC": one unambiguous form for the message, the page and the mail. */
export function holdTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Minimum withdrawal by plan: $50 basic; $20 for Pro-level accounts (pro, free_access, admin). */
export function minimumWithdrawalCents(plan: Plan | null | undefined, roles: readonly Role[]): number {
  return hasProFeatures(plan, roles)
    ? PLAN_DETAILS.pro.minWithdrawalCents
    : PLAN_DETAILS.basic.minWithdrawalCents;
}

// ---------------------------------------------------------------- payee minimum (issue 27, record 175)

/** Payees (record 175) withdraw from a minimum the operator sets; without a setting it is Basic's $50. */
export const PAYEE_MINIMUM_DEFAULT_CENTS = PLAN_DETAILS.basic.minWithdrawalCents;
export const PAYEE_MINIMUM_BOUNDS_CENTS = { min: 100, max: 100_000 } as const;

export const PAYEE_TEXTS = {
  minimumInvalid: `Enter an amount from ${formatCents(PAYEE_MINIMUM_BOUNDS_CENTS.min)} to ${formatCents(PAYEE_MINIMUM_BOUNDS_CENTS.max)}, with at most 2 decimals.`,
  minimumSaved: 'Payee minimum saved.',
  minimumLabel: 'Payee account',
} as const;

/** PUT /api/admin/wallet/payee-settings: the amount in dollars as typed ("25" or "25.50"). */
export const payeeSettingsSchema = z.object({
  minimumWithdrawal: safeText()
    .trim()
    .max(12, PAYEE_TEXTS.minimumInvalid)
    .refine((value) => {
      const cents = parseAmountToCents(value);
      return (
        cents !== null &&
        /^\d+(\.\d{1,2})?$/.test(value) &&
        cents >= PAYEE_MINIMUM_BOUNDS_CENTS.min &&
        cents <= PAYEE_MINIMUM_BOUNDS_CENTS.max
      );
    }, PAYEE_TEXTS.minimumInvalid),
});
export type PayeeSettingsInput = z.output<typeof payeeSettingsSchema>;
export type PayeeSettingsView = { minimumWithdrawalCents: number; source: 'settings' | 'default' };

// ---------------------------------------------------------------- payment settings

const PAYMENT_FIELD_MAX = 200;

export type BankDetails = {
  account_name: string;
  account_number: string;
  routing_number: string;
  bank_name: string;
};
export type PaypalDetails = { paypal_email: string };
/** A Stripe Connect account the server onboarded for this account; never accepted from a form. */
export type StripeDetails = { stripe_account_id: string };
export type PaymentDetails = BankDetails | PaypalDetails | StripeDetails | WiseDetails;
/** What the API accepts before the spec's checks run (lengths only): the route's body validator. */
export const paymentSettingsInputSchema = z.object({
  payment_method: safeText().max(20).nullable().optional(),
  payment_details: z
    .object({
      account_name: safeText().max(PAYMENT_FIELD_MAX).optional(),
      account_number: safeText().max(PAYMENT_FIELD_MAX).optional(),
      routing_number: safeText().max(PAYMENT_FIELD_MAX).optional(),
      bank_name: safeText().max(PAYMENT_FIELD_MAX).optional(),
      paypal_email: safeText().max(PAYMENT_FIELD_MAX).optional(),
      ...WISE_INPUT_FIELDS,
    })
    .optional(),
});
export type PaymentSettingsInput = z.infer<typeof paymentSettingsInputSchema>;

const bankField = safeText({ error: WALLET_MESSAGES.bankFieldsRequired.description })
  .trim()
  .min(1, WALLET_MESSAGES.bankFieldsRequired.description)
  .max(PAYMENT_FIELD_MAX);

/**
 * The §5 payment rules as one discriminated union on `payment_method`, checked in the spec's order:
 * a method, then every bank field, or a PayPal address with '@'. Issue messages are the spec's
 * descriptions; `paymentSettingsMessage` gives the matching title. Values come out trimmed, and the
 * other method's fields are dropped.
 */
export const paymentSettingsSchema = z.discriminatedUnion(
  'payment_method',
  [
    z.object({
      payment_method: z.literal('bank'),
      payment_details: z
        .object({
          account_name: bankField,
          account_number: bankField,
          routing_number: bankField,
          bank_name: bankField,
        })
        .prefault({ account_name: '', account_number: '', routing_number: '', bank_name: '' }),
    }),
    z.object({
      payment_method: z.literal('paypal'),
      payment_details: z
        .object({
          paypal_email: safeText({ error: WALLET_MESSAGES.paypalEmailInvalid.description })
            .trim()
            .max(PAYMENT_FIELD_MAX)
            .refine((email) => email.includes('@'), WALLET_MESSAGES.paypalEmailInvalid.description),
        })
        .prefault({ paypal_email: '' }),
    }),
    z.object({
      payment_method: z.literal('wise'),
      payment_details: wiseDetailsSchema.prefault(EMPTY_WISE_DETAILS),
    }),
  ],
  { error: WALLET_MESSAGES.paymentMethodRequired.description },
);
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

/** The loose body (a form's values, a request) through the §5 rules: one schema for form and API. */
export const paymentSettingsRequestSchema = paymentSettingsInputSchema.pipe(paymentSettingsSchema);

const WISE_DETAILS_TITLE = 'Wise details required';

const PAYMENT_SETTINGS_MESSAGES = [
  WALLET_MESSAGES.paymentMethodRequired,
  WALLET_MESSAGES.bankFieldsRequired,
  WALLET_MESSAGES.paypalEmailInvalid,
];

/** The spec's title and description for a payment-settings issue message. */
export function paymentSettingsMessage(issueMessage: string | undefined): WalletMessage {
  const wise = Object.values(WISE_TEXTS).find((text) => text === issueMessage);
  if (wise) return { code: 'wise_details_invalid', title: WISE_DETAILS_TITLE, description: wise };
  return (
    PAYMENT_SETTINGS_MESSAGES.find((message) => message.description === issueMessage) ??
    WALLET_MESSAGES.paymentMethodRequired
  );
}

/** The §5 payment checks in order; the cleaned settings, or the message to show. */
export function checkPaymentSettings(
  input: PaymentSettingsInput,
): { ok: true; settings: PaymentSettings } | { ok: false; error: WalletMessage } {
  const result = paymentSettingsSchema.safeParse(input);
  if (result.success) return { ok: true, settings: result.data };
  return { ok: false, error: paymentSettingsMessage(result.error.issues[0]?.message) };
}

/** Saved details as shown back to their owner: never the full account number. */
export type MaskedPaymentDetails =
  | {
      method: 'bank';
      accountName: string;
      bankName: string;
      accountNumber: string;
      routingNumber: string;
    }
  | { method: 'paypal'; paypalEmail: string }
  | { method: 'stripe'; stripeAccount: string }
  | { method: 'wise'; accountHolder: string; currency: string; account: string };

const MASK = '••••';

/** '•••• 6789': the last four characters only (fewer when the value is short). */
export function maskNumber(value: string): string {
  const compact = value.replace(/\s+/g, '');
  const visible = compact.length > 4 ? compact.slice(-4) : compact.slice(-Math.min(2, compact.length - 1));
  return visible ? `${MASK} ${visible}` : MASK;
}

/** 'ja••••@example.com': enough for the owner to recognise their address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return MASK;
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${shown}${MASK}${email.slice(at)}`;
}

export function maskPaymentDetails(method: PaymentMethod, details: PaymentDetails): MaskedPaymentDetails {
  if (method === 'bank') {
    const bank = details as BankDetails;
    return {
      method: 'bank',
      accountName: bank.account_name,
      bankName: bank.bank_name,
      accountNumber: maskNumber(bank.account_number),
      routingNumber: maskNumber(bank.routing_number),
    };
  }
  if (method === 'stripe') {
    return { method: 'stripe', stripeAccount: maskNumber((details as StripeDetails).stripe_account_id) };
  }
  if (method === 'wise') return maskWiseDetails(details as WiseDetails, MASK);
  return { method: 'paypal', paypalEmail: maskEmail((details as PaypalDetails).paypal_email) };
}

export function describeMaskedDetails(details: MaskedPaymentDetails | null): string {
  if (!details) return 'No payment method saved';
  if (details.method === 'wise') return `Wise ${details.currency} account ${details.account}`;
  if (details.method === 'bank') return `Bank account ${details.accountNumber} (${details.bankName})`;
  if (details.method === 'stripe') return `Stripe account ${details.stripeAccount}`;
  return `PayPal ${details.paypalEmail}`;
}

// ---------------------------------------------------------------- withdrawals

export const withdrawalRequestInputSchema = z.object({
  amount: z
    .union([safeText().max(40), z.number()])
    .nullable()
    .optional(),
});
export type WithdrawalRequestInput = z.infer<typeof withdrawalRequestInputSchema>;

/**
 * The §5 withdrawal checks in the spec's order: payment info, balance at least the minimum, a valid
 * amount above 0 (at most 2 decimals), amount at least the minimum, amount not above the balance.
 */
export function checkWithdrawal(input: {
  hasPaymentInfo: boolean;
  balanceCents: number;
  minimumCents: number;
  amount?: string | number | null | undefined;
}): { ok: true; amountCents: number } | { ok: false; error: WalletMessage } {
  if (!input.hasPaymentInfo) return { ok: false, error: WALLET_MESSAGES.paymentInfoRequired };
  if (input.balanceCents < input.minimumCents) {
    return { ok: false, error: walletMessage.balanceBelowMinimum(input.minimumCents, input.balanceCents) };
  }
  const raw = input.amount;
  const amountCents =
    raw === null || raw === undefined || (typeof raw === 'number' && !Number.isFinite(raw))
      ? null
      : parseAmountToCents(typeof raw === 'number' ? raw.toFixed(10).replace(/\.?0+$/, '') : raw);
  if (amountCents === null || amountCents <= 0) return { ok: false, error: WALLET_MESSAGES.invalidAmount };
  if (amountCents < input.minimumCents)
    return { ok: false, error: walletMessage.amountTooLow(input.minimumCents) };
  if (amountCents > input.balanceCents) {
    return { ok: false, error: walletMessage.insufficientBalance(input.balanceCents) };
  }
  return { ok: true, amountCents };
}

/** The Request Withdrawal form of one wallet: its amount through `checkWithdrawal`. */
export function withdrawalFormSchema(wallet: {
  hasPaymentInfo: boolean;
  balanceCents: number;
  minimumCents: number;
}) {
  return z.object({ amount: safeText().max(40) }).superRefine(({ amount }, ctx) => {
    const checked = checkWithdrawal({ ...wallet, amount });
    if (!checked.ok) ctx.addIssue({ code: 'custom', path: ['amount'], message: checked.error.description });
  });
}

/** The amount input's starting value: the full balance with 2 decimals. */
export function centsToInputValue(cents: number): string {
  return centsToDecimal(cents);
}

// ---------------------------------------------------------------- API shapes

export type WithdrawalSummary = {
  id: string;
  amountCents: number;
  paymentMethod: PaymentMethod;
  paymentDetails: MaskedPaymentDetails | null;
  status: WithdrawalStatus;
  requestedAt: string;
  processedAt: string | null;
  rejectionReason: string | null;
};

export type WalletSummary = {
  balanceCents: number;
  totalEarningsCents: number;
  pendingBalanceCents: number;
  minimumWithdrawalCents: number;
  plan: Plan;
  hasProMinimum: boolean;
  /** A payee (record 175): the minimum is the operator's payee minimum, and no plan is offered with it. */
  isPayee: boolean;
  paymentMethod: PaymentMethod | null;
  paymentDetails: MaskedPaymentDetails | null;
  pendingRequests: WithdrawalSummary[];
  /** Set while a change of payout details holds withdrawals (record 229): until when, as an ISO time. */
  payoutHoldUntil: string | null;
};

// ---------------------------------------------------------------- Pro analytics (/dashboard/analytics)

export const ANALYTICS_RANGES = [
  { id: '30d', label: 'Last 30 days', bucket: 'day' },
  { id: '90d', label: 'Last 90 days', bucket: 'week' },
  { id: '12m', label: 'Last 12 months', bucket: 'month' },
  { id: 'all', label: 'All time', bucket: 'month' },
] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number]['id'];
export const analyticsQuerySchema = z.object({
  range: z.enum(['30d', '90d', '12m', 'all']).default('12m'),
});

export const ANALYTICS_TEXTS = {
  proOnly: 'Analytics are part of the Pro plan. Upgrade to Pro to unlock them.',
} as const;

export type AnalyticsReport = {
  range: AnalyticsRange;
  bucket: 'day' | 'week' | 'month';
  totals: {
    balanceCents: number;
    totalEarningsCents: number;
    pendingBalanceCents: number;
    withdrawnCents: number;
    earningsInRangeCents: number;
    /** Earnings in the range of the same length just before (null for 'all'). */
    earningsPreviousRangeCents: number | null;
    bestPeriod: { start: string; earningsCents: number } | null;
  };
  /** One point per bucket, zero-filled; cumulative counts everything earned up to the bucket's end. */
  earnings: { start: string; earningsCents: number; cumulativeCents: number; balanceCents: number }[];
  releases: {
    total: number;
    tracks: number;
    byStatus: { status: ReleaseStatus; count: number }[];
    topPlatforms: { id: string; count: number }[];
  };
  withdrawals: {
    id: string;
    amountCents: number;
    status: WithdrawalStatus;
    paymentMethod: PaymentMethod;
    requestedAt: string;
    processedAt: string | null;
    rejectionReason: string | null;
  }[];
};

/**
 * Payouts through the operator's own provider (issue 38): the closed lists, the admin's settings and the
 * shapes the web shows. Money is integer cents; the server holds every rule, these schemas only parse.
 */
import { z } from 'zod';
import { multilineText, safeText } from '../text';

/** Providers behind one interface (modules/payouts/providers). `bank-csv` is always available. */
export const PAYOUT_PROVIDERS = ['bank-csv', 'paypal', 'stripe', 'wise'] as const;
export type PayoutProviderId = (typeof PAYOUT_PROVIDERS)[number];

/** A run's life: planned (items written, money reserved), sending, sent (every batch made), done. */
export const PAYOUT_RUN_STATES = ['planned', 'sending', 'sent', 'done'] as const;
export type PayoutRunState = (typeof PAYOUT_RUN_STATES)[number];

export const PAYOUT_RUN_TRIGGERS = ['manual', 'schedule', 'withdrawal'] as const;
export type PayoutRunTrigger = (typeof PAYOUT_RUN_TRIGGERS)[number];

/**
 * An item's life: blocked (named with a reason, no money moved), planned (reserved), sent (in a provider
 * batch), paid, returned (returned, failed, unclaimed for 30 days or refunded: the money is back).
 */
export const PAYOUT_ITEM_STATES = ['blocked', 'planned', 'sent', 'paid', 'returned'] as const;
export type PayoutItemState = (typeof PAYOUT_ITEM_STATES)[number];

/** How each state reads on the artist's Payouts page and the admin's run page. */
export const PAYOUT_ITEM_STATE_LABELS: Record<PayoutItemState, string> = {
  blocked: 'Blocked',
  planned: 'Created',
  sent: 'Sent',
  paid: 'Paid',
  returned: 'Returned',
};

export const PAYOUT_RUN_STATE_LABELS: Record<PayoutRunState, string> = {
  planned: 'Planned',
  sending: 'Sending',
  sent: 'Sent',
  done: 'Done',
};

export const PAYOUT_PROVIDER_LABELS: Record<PayoutProviderId, string> = {
  'bank-csv': 'Bank file (CSV)',
  paypal: 'PayPal Payouts',
  stripe: 'Stripe Connect',
  wise: 'Wise',
};

/**
 * A Wise transfer created but not funded (Wise's `incoming_payment_waiting`): the operator's profile could
 * not fund it by API (strong customer authentication in the UK and EEA), so the operator funds it in Wise.
 */
export const WISE_AWAITING_FUNDING_LABEL = 'Created — fund it in Wise';

/** What the artist's withdrawal request becomes: a request for the next run, or a run of its own at once. */
export const WITHDRAWAL_MODES = ['next_run', 'immediate'] as const;
export type WithdrawalMode = (typeof WITHDRAWAL_MODES)[number];

export const PAYOUT_TEXTS = {
  noDetails: 'No payout details: add a payout method on the Payouts page.',
  belowMinimum: (minimum: string) => `The balance is below the minimum payout of ${minimum}.`,
  held: (until: string) => `Payout details were changed recently; payouts are on hold until ${until}.`,
  providerOff: (provider: string) => `The operator has not enabled ${provider} payouts.`,
  runNotFound: 'Payout run not found',
  itemNotFound: 'Payout not found',
  nothingToPay: 'Nobody is due a payout: no balance reaches its minimum.',
  notSent: 'Only a payout that was sent can be marked paid or returned.',
  confirmationUnreadable:
    'The confirmation file could not be read: it needs the columns reference and status.',
  providerNotConfigured: 'This provider has no credentials yet.',
  notRetryable: 'Only a payout that was returned or blocked can be paid again.',
  runAlreadySent: 'This run has been sent already: nothing to resume.',
  stripeOnboardingIncomplete:
    'Your Stripe account is not ready yet: finish onboarding with Stripe, then choose Stripe for payouts.',
} as const;

/** The admin's payout settings: the monthly day (1-28, none for by hand only) and the withdrawal mode. */
export const payoutSettingsSchema = z.object({
  scheduleDay: z.number().int().min(1).max(28).nullable(),
  withdrawalMode: z.enum(WITHDRAWAL_MODES),
});
export type PayoutSettings = z.infer<typeof payoutSettingsSchema>;

/** PayPal's credentials (REST app client id and secret), its base URL and webhook id. */
export const paypalCredentialsSchema = z.object({
  clientId: safeText().trim().min(1, 'Enter the client ID').max(200),
  clientSecret: safeText().trim().min(1, 'Enter the client secret').max(200),
  webhookId: safeText().trim().max(200).default(''),
});

/**
 * Wise: an API token of the operator's business profile, the profile id, and the public key Wise signs its
 * webhooks with (PEM, from Wise's webhook documentation; a fake's own in tests).
 */
export const wiseCredentialsSchema = z.object({
  apiToken: safeText().trim().min(1, 'Enter the API token').max(200),
  profileId: safeText()
    .trim()
    .regex(/^\d{1,20}$/, 'Enter the numeric profile ID'),
  webhookPublicKey: multilineText()
    .trim()
    .max(4000)
    .refine(
      (key) => key === '' || /^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(key),
      'Paste the public key in PEM form (-----BEGIN PUBLIC KEY-----)',
    )
    .default(''),
});

export const bankCsvCredentialsSchema = z.object({
  /** The operator's own account, printed on the file's header line (optional). */
  originatorName: safeText().trim().max(140).default(''),
});

/** Stripe Connect: the platform's secret key and the Connect webhook endpoint's signing secret. */
export const stripeCredentialsSchema = z.object({
  secretKey: safeText()
    .trim()
    .min(1, 'Enter the secret key')
    .max(300)
    .refine(
      (key) => /^(sk|rk)_/.test(key),
      'A Stripe secret key starts with sk_ (or rk_ for a restricted key)',
    ),
  webhookSecret: safeText()
    .trim()
    .max(300)
    .refine(
      (secret) => secret === '' || secret.startsWith('whsec_'),
      'A webhook signing secret starts with whsec_',
    )
    .default(''),
  /** The Connect endpoint's own secret (account.updated, payout.*), when it is a second endpoint. */
  connectWebhookSecret: safeText()
    .trim()
    .max(300)
    .refine(
      (secret) => secret === '' || secret.startsWith('whsec_'),
      'A webhook signing secret starts with whsec_',
    )
    .default(''),
});

export const providerSettingsInputSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('bank-csv'),
    enabled: z.boolean(),
    credentials: bankCsvCredentialsSchema.optional(),
  }),
  z.object({
    provider: z.literal('paypal'),
    enabled: z.boolean(),
    /** Left out: keep the stored credentials. */
    credentials: paypalCredentialsSchema.optional(),
    baseUrl: z.url().max(300).optional(),
  }),
  z.object({
    provider: z.literal('stripe'),
    enabled: z.boolean(),
    /** Left out: keep the stored credentials. */
    credentials: stripeCredentialsSchema.optional(),
    baseUrl: z.url().max(300).optional(),
  }),
  z.object({
    provider: z.literal('wise'),
    enabled: z.boolean(),
    /** Left out: keep the stored credentials. */
    credentials: wiseCredentialsSchema.optional(),
    baseUrl: z.url().max(300).optional(),
  }),
]);
export type ProviderSettingsInput = z.infer<typeof providerSettingsInputSchema>;

export type ProviderSettingsView = {
  provider: PayoutProviderId;
  enabled: boolean;
  hasCredentials: boolean;
  /** Credentials shown masked: the client id's last four characters. */
  credentialsHint: string | null;
  baseUrl: string | null;
  lastTest: { at: string; ok: boolean; message: string } | null;
};

export type PayoutPreviewItem = {
  accountId: string;
  email: string;
  name: string;
  provider: PayoutProviderId | null;
  grossCents: number;
  withheldCents: number;
  netCents: number;
  withholding: string | null;
  blocked: { code: string; reason: string } | null;
};

export type PayoutPreview = {
  items: PayoutPreviewItem[];
  totals: { payees: number; blocked: number; grossCents: number; withheldCents: number; netCents: number };
};

export type PayoutItemView = {
  id: string;
  runId: string;
  accountId: string;
  email: string;
  provider: PayoutProviderId | null;
  state: PayoutItemState;
  grossCents: number;
  withheldCents: number;
  netCents: number;
  withholding: string | null;
  blockedReason: string | null;
  providerReference: string | null;
  providerStatus: string | null;
  /** A Wise transfer created that the operator must fund in Wise (WISE_AWAITING_FUNDING_LABEL). */
  awaitingFunding: boolean;
  createdAt: string;
  sentAt: string | null;
  paidAt: string | null;
  returnedAt: string | null;
  returnReason: string | null;
};

export type PayoutRunView = {
  id: string;
  trigger: PayoutRunTrigger;
  state: PayoutRunState;
  createdAt: string;
  sentAt: string | null;
  error: string | null;
  totals: PayoutPreview['totals'];
  items: PayoutItemView[];
  batches: {
    id: string;
    provider: PayoutProviderId;
    senderBatchId: string;
    providerReference: string | null;
  }[];
};

export const markItemSchema = z.object({
  outcome: z.enum(['paid', 'returned']),
  reason: multilineText().trim().max(500).default(''),
});

/**
 * The account's Stripe Connect onboarding as its Payouts page shows it: whether the operator offers Stripe,
 * whether an account was made, and whether Stripe says it is complete (from `account.updated`).
 */
export type StripeOnboardingView = {
  /** The operator enabled Stripe Connect payouts. */
  isOffered: boolean;
  /** `acct_…` masked to its last four characters, or null before the first "Connect with Stripe". */
  accountHint: string | null;
  detailsSubmitted: boolean;
  /** The account's `transfers` capability is active: a transfer to it can be made. */
  canReceiveTransfers: boolean;
  payoutsEnabled: boolean;
  /** Onboarding complete: details submitted and transfers active. */
  isComplete: boolean;
  /** Stripe payouts are this account's payout method. */
  isMethod: boolean;
};

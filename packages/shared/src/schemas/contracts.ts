/**
 * Label contracts (issue 39, record 285): a payee account bound to releases of a label, with ordered terms
 * ("territories / channel / store / sale months → basis and rate", the first match wins) and an optional
 * default rate. One rule set for the admin form and the server.
 */
import { z } from 'zod';
import { safeText } from '../text';
import { isCountryCode } from './countries';
import { isFeePercent, normalizeFeePercent } from './finance';

export const CONTRACT_CHANNELS = ['stream', 'download', 'physical', 'sync', 'ugc'] as const;
export type ContractChannel = (typeof CONTRACT_CHANNELS)[number];
export const CONTRACT_CHANNEL_LABELS: Record<ContractChannel, string> = {
  stream: 'Streams',
  download: 'Downloads',
  physical: 'Physical',
  sync: 'Sync',
  ugc: 'UGC / Content ID',
};

export const CONTRACT_BASES = ['gross', 'net'] as const;
export type ContractBasis = (typeof CONTRACT_BASES)[number];
export const CONTRACT_BASIS_LABELS: Record<ContractBasis, string> = {
  gross: 'Gross receipts',
  net: 'Net receipts (after the operator’s fee)',
};

export const CONTRACT_DEAL_TYPES = ['royalty'] as const;
export type ContractDealType = (typeof CONTRACT_DEAL_TYPES)[number];
export const CONTRACT_MAX_TERMS = 50;

/** What a label recoups from a payee's royalties (issue 39): advances, recoupable costs, opening balances. */
export const CONTRACT_ADVANCE_KINDS = [
  'advance',
  'recording',
  'video',
  'marketing',
  'opening_balance',
] as const;
export type ContractAdvanceKind = (typeof CONTRACT_ADVANCE_KINDS)[number];
export const CONTRACT_ADVANCE_LABELS: Record<ContractAdvanceKind, string> = {
  advance: 'Advance',
  recording: 'Recording costs',
  video: 'Video costs',
  marketing: 'Marketing costs',
  opening_balance: 'Unrecouped balance carried from another system',
};
export const CONTRACT_MAX_RELEASES = 500;

export const CONTRACT_TEXTS = {
  title: 'Contracts',
  intro:
    'What a label pays each artist: the first term that matches a sale sets its basis and rate; the label keeps the rest.',
  created: 'Contract created',
  saved: 'Contract saved',
  rateInvalid: 'Enter a rate from 0 to 100 with at most 4 decimals.',
  dateInvalid: 'Enter a date as YYYY-MM-DD.',
  endBeforeStart: 'The end date must be on or after the start date.',
  nameRequired: 'Enter a name for the contract.',
  emailInvalid: 'Enter an email address.',
  territoryInvalid: (code: string) => `“${code}” is not a country code (use two letters, such as GB).`,
  defaultIncomplete: 'Choose both a default basis and a default rate, or neither.',
  noTerms: 'Add at least one term or a default rate.',
  noReleases: 'Choose at least one release.',
  labelNotFound: 'No account has this email address.',
  payeeNotFound: 'No account has this email address.',
  payeeIsLabel: 'The artist must be another account than the label.',
  releaseNotLabels: 'Choose releases of the label’s account only.',
  releaseTaken: (title: string, contract: string) => `“${title}” is already in the contract “${contract}”.`,
  notFound: 'Contract not found',
  advanceRecorded: 'Recorded: it is recouped from the artist’s royalties before any is paid.',
  amountInvalid: 'Enter an amount above 0 with at most 2 decimals.',
  reserveInvalid: 'Enter a reserve from 0 to 100 with at most 4 decimals.',
  reserveScheduleInvalid:
    'Enter the release schedule as percentages adding up to 100, one per period, such as 50/50 (at most 24 periods).',
  reserveScheduleMissing: 'Enter how the reserve is released, such as 50/50 over the next two periods.',
  reserveScheduleWithoutReserve: 'Enter a reserve percentage, or leave the schedule empty.',
  rateAboveNet: (contract: string, rate: string, fee: string, max: string) =>
    `The contract “${contract}” pays ${rate}% of gross receipts, but the operator’s fee takes ${fee}% of them: the label would pay the artist more than it receives. Lower the rate to at most ${max}% or pay on net receipts, then post again; nothing was posted.`,
  unmatched: (lines: number, contract: string) =>
    `${lines} ${lines === 1 ? 'line' : 'lines'} of this report match no term of the contract “${contract}”, which has no default rate. Add a term or a default rate to the contract, then post again; nothing was posted.`,
} as const;

const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
const day = safeText().trim().refine(isDay, CONTRACT_TEXTS.dateInvalid);
const optionalDay = z
  .union([day, z.literal(''), z.null()])
  .optional()
  .transform((value) => (value ? value : null));

export const contractRateSchema = safeText()
  .trim()
  .max(9, CONTRACT_TEXTS.rateInvalid)
  .refine(isFeePercent, CONTRACT_TEXTS.rateInvalid)
  .transform(normalizeFeePercent);

const territory = safeText()
  .trim()
  .transform((code) => code.toUpperCase())
  .superRefine((code, ctx) => {
    if (!isCountryCode(code))
      ctx.addIssue({ code: 'custom', message: CONTRACT_TEXTS.territoryInvalid(code) });
  });

/** Up to 24 periods: a reserve is released within two years. */
export const CONTRACT_MAX_RESERVE_PERIODS = 24;

/**
 * "50/50" → ['50', '50']: the percent of a reserve released in each following period (statement month),
 * adding up to exactly 100. Empty (no reserve) → [].
 */
export function parseReserveSchedule(text: string): string[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const parts = trimmed.split(/\s*[/,;]\s*/);
  if (parts.length > CONTRACT_MAX_RESERVE_PERIODS) return null;
  if (!parts.every((part) => isFeePercent(part) && Number(part) > 0)) return null;
  const normalized = parts.map(normalizeFeePercent);
  // Exact: each has at most 4 decimals, so the sum in ten-thousandths is an integer.
  const total = normalized.reduce((sum, part) => sum + Math.round(Number(part) * 10_000), 0);
  return total === 1_000_000 ? normalized : null;
}

const reserveSchedule = z
  .union([safeText().max(200), z.array(safeText().max(12)).max(CONTRACT_MAX_RESERVE_PERIODS), z.null()])
  .optional()
  .transform((value, ctx) => {
    const text = Array.isArray(value) ? value.join('/') : (value ?? '');
    const parsed = parseReserveSchedule(text);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_TEXTS.reserveScheduleInvalid });
      return z.NEVER;
    }
    return parsed;
  });

export const contractTermSchema = z
  .object({
    territories: z.array(territory).max(250).default([]),
    channel: z.enum(CONTRACT_CHANNELS).nullable().default(null),
    store: z
      .union([safeText().trim().max(80), z.null()])
      .optional()
      .transform((value) => (value ? value : null)),
    startsOn: optionalDay,
    endsOn: optionalDay,
    basis: z.enum(CONTRACT_BASES),
    rate: contractRateSchema,
    /** Held back from the payee's royalty on this term's sales (never on returns), issue 39. */
    reservePercent: z
      .union([safeText(), z.null()])
      .optional()
      // One string branch, refined after: a union of refined branches would answer "Invalid input".
      .transform((value) => (value ?? '').trim())
      .refine(
        (value) => value === '' || (value.length <= 9 && isFeePercent(value)),
        CONTRACT_TEXTS.reserveInvalid,
      )
      .transform((value) => (value === '' ? '0' : normalizeFeePercent(value))),
    /** The percent of the reserve released in each following statement month ("50/50"). */
    reserveSchedule,
  })
  .superRefine((term, ctx) => {
    if (term.startsOn && term.endsOn && term.endsOn < term.startsOn) {
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: CONTRACT_TEXTS.endBeforeStart });
    }
    const hasReserve = Number(term.reservePercent) > 0;
    if (hasReserve && term.reserveSchedule.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['reserveSchedule'],
        message: CONTRACT_TEXTS.reserveScheduleMissing,
      });
    }
    if (!hasReserve && term.reserveSchedule.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['reservePercent'],
        message: CONTRACT_TEXTS.reserveScheduleWithoutReserve,
      });
    }
  });
export type ContractTermInput = z.input<typeof contractTermSchema>;
export type ContractTerm = z.output<typeof contractTermSchema>;

const email = safeText().trim().toLowerCase().max(254).email(CONTRACT_TEXTS.emailInvalid);

export const contractInputSchema = z
  .object({
    name: safeText().trim().min(1, CONTRACT_TEXTS.nameRequired).max(120),
    labelEmail: email,
    payeeEmail: email,
    startsOn: day,
    endsOn: optionalDay,
    defaultBasis: z.enum(CONTRACT_BASES).nullable().default(null),
    // One string branch, refined after: a union of refined branches would answer "Invalid input".
    defaultRate: z
      .union([safeText(), z.null()])
      .optional()
      .transform((value) => (value ?? '').trim())
      .refine(
        (value) => value === '' || (value.length <= 9 && isFeePercent(value)),
        CONTRACT_TEXTS.rateInvalid,
      )
      .transform((value) => (value === '' ? null : normalizeFeePercent(value))),
    releaseIds: z.array(z.uuid()).min(1, CONTRACT_TEXTS.noReleases).max(CONTRACT_MAX_RELEASES),
    terms: z.array(contractTermSchema).max(CONTRACT_MAX_TERMS).default([]),
  })
  .superRefine((input, ctx) => {
    if (input.endsOn && input.endsOn < input.startsOn) {
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: CONTRACT_TEXTS.endBeforeStart });
    }
    if ((input.defaultBasis === null) !== (input.defaultRate === null)) {
      ctx.addIssue({ code: 'custom', path: ['defaultRate'], message: CONTRACT_TEXTS.defaultIncomplete });
    }
    if (input.terms.length === 0 && input.defaultRate === null) {
      ctx.addIssue({ code: 'custom', path: ['terms'], message: CONTRACT_TEXTS.noTerms });
    }
    if (input.labelEmail === input.payeeEmail) {
      ctx.addIssue({ code: 'custom', path: ['payeeEmail'], message: CONTRACT_TEXTS.payeeIsLabel });
    }
  });
export type ContractInput = z.input<typeof contractInputSchema>;
export type ContractInputParsed = z.output<typeof contractInputSchema>;

export const contractAdvanceSchema = z.object({
  kind: z.enum(CONTRACT_ADVANCE_KINDS),
  amount: safeText()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,2})?$/, CONTRACT_TEXTS.amountInvalid)
    .refine((value) => Number(value) > 0, CONTRACT_TEXTS.amountInvalid),
  recoupablePercent: contractRateSchema.default('100'),
  memo: z
    .union([safeText().trim().max(200), z.null()])
    .optional()
    .transform((value) => (value ? value : null)),
});
export type ContractAdvanceInput = z.input<typeof contractAdvanceSchema>;

export type ContractAdvanceView = {
  id: string;
  kind: ContractAdvanceKind;
  amountCents: number;
  recoupablePercent: string;
  recoupableCents: number;
  memo: string | null;
  createdAt: string;
};

/** A contract's recoupment: what is to be repaid, what royalties repaid, and what is left (never below 0). */
export type ContractRecoupment = {
  advances: ContractAdvanceView[];
  recoupableCents: number;
  recoupedCents: number;
  unrecoupedCents: number;
};

export type ContractParty = { id: string; email: string; artistName: string };

export type ContractView = {
  id: string;
  name: string;
  dealType: ContractDealType;
  currency: 'USD';
  label: ContractParty;
  payee: ContractParty;
  startsOn: string;
  endsOn: string | null;
  defaultBasis: ContractBasis | null;
  defaultRate: string | null;
  releases: { id: string; title: string }[];
  terms: ContractTerm[];
  updatedAt: string;
};

export type ContractListItem = Pick<
  ContractView,
  'id' | 'name' | 'label' | 'payee' | 'startsOn' | 'endsOn'
> & {
  releases: number;
  terms: number;
};

/** The label's releases the form offers (GET /api/admin/contracts/label-releases?email=). */
export type LabelReleases = {
  label: ContractParty;
  releases: { id: string; title: string; contract: { id: string; name: string } | null }[];
};

/** "50% of net receipts on streams in GB, IE at Spotify from 2026-01-01" */
export function describeTerm(term: ContractTerm): string {
  const parts = [`${term.rate}% of ${CONTRACT_BASIS_LABELS[term.basis].toLowerCase()}`];
  parts.push(term.channel ? `on ${CONTRACT_CHANNEL_LABELS[term.channel].toLowerCase()}` : 'on every channel');
  if (term.territories.length > 0) parts.push(`in ${term.territories.join(', ')}`);
  if (term.store) parts.push(`at ${term.store}`);
  if (term.startsOn) parts.push(`from ${term.startsOn}`);
  if (term.endsOn) parts.push(`to ${term.endsOn}`);
  if (Number(term.reservePercent) > 0) {
    parts.push(
      `, ${term.reservePercent}% reserved and released ${term.reserveSchedule.join('/')} over the next ${term.reserveSchedule.length} ${term.reserveSchedule.length === 1 ? 'month' : 'months'}`,
    );
  }
  return parts.join(' ').replace(' ,', ',');
}

import {
  TAX_FORM_STATUSES,
  TAX_REPORT_FORMS,
  type TaxFormKind,
  type TaxFormStatus,
  type TaxReportForm,
} from '@tunedrop/shared/schemas/tax';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { cents, createdAt, inList, updatedAt } from './columns';

// ---------------------------------------------------------------- tax (issue 38, migration 0075)

/** Bytes (a rendered PDF): Buffer on both drivers (PGlite answers a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

/** The interview's first answer: whether the account holder says they are a US person. */
export const taxResidency = pgTable('tax_residency', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  isUsPerson: boolean('is_us_person').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A signed tax form (W-9, W-8BEN, W-8BEN-E). What was signed never changes (migration 0075's trigger refuses
 * an UPDATE of anything but the status, and every DELETE): the canonical form (encrypted: it holds the TIN),
 * its SHA-256, the signature, time, address and the rendered PDF. One active form per account.
 */
export const taxForms = pgTable(
  'tax_forms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    kind: text('kind').$type<TaxFormKind>().notNull(),
    status: text('status').$type<TaxFormStatus>().notNull().default('active'),
    name: text('name').notNull(),
    /** Country of residence (W-8) or 'US' (W-9). */
    country: text('country').notNull(),
    tinMasked: text('tin_masked').notNull(),
    isCertified: boolean('is_certified').notNull(),
    isBackupWithholding: boolean('is_backup_withholding').notNull().default(false),
    treatyCountry: text('treaty_country'),
    treatyArticle: text('treaty_article'),
    treatyRatePercent: numeric('treaty_rate_percent'),
    /** The canonical JSON that was signed, AES-GCM encrypted (lib/crypto.ts). */
    canonicalEncrypted: text('canonical_encrypted').notNull(),
    sha256: text('sha256').notNull(),
    signatureName: text('signature_name').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signerAddress: text('signer_address'),
    signerUserAgent: text('signer_user_agent'),
    /** W-8: the last day of the third calendar year after signing. */
    expiresOn: date('expires_on', { mode: 'string' }),
    pdf: bytea('pdf').notNull(),
    statusReason: text('status_reason'),
    statusAt: timestamp('status_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('tax_forms_kind_check', inList('kind', ['w9', 'w8ben', 'w8bene'])),
    check('tax_forms_status_check', inList('status', TAX_FORM_STATUSES)),
    uniqueIndex('tax_forms_one_active').on(t.userId).where(sql`status = 'active'`),
    index('tax_forms_user_idx').on(t.userId, t.createdAt),
    index('tax_forms_expires_idx').on(t.expiresOn).where(sql`status = 'active'`),
  ],
);

/** Reminder mails sent before a W-8 expires: one per form and number of days before. */
export const taxFormReminders = pgTable(
  'tax_form_reminders',
  {
    formId: uuid('form_id')
      .notNull()
      .references(() => taxForms.id, { onDelete: 'restrict' }),
    daysBefore: integer('days_before').notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'tax_form_reminders_pk', columns: [t.formId, t.daysBefore] })],
);

/**
 * Treaty withholding rates by country and income code (royalties: 12), with the dates they apply; seeded
 * from IRS Table 1, edited by the operator (a change closes the row in force and adds one, audited).
 */
export const taxTreatyRates = pgTable(
  'tax_treaty_rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    country: text('country').notNull(),
    incomeCode: text('income_code').notNull().default('12'),
    ratePercent: numeric('rate_percent').notNull(),
    article: text('article').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    effectiveTo: date('effective_to', { mode: 'string' }),
    source: text('source').notNull(),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tax_treaty_rates_from_unique').on(t.country, t.incomeCode, t.effectiveFrom),
    check('tax_treaty_rates_rate_range', sql`rate_percent >= 0 and rate_percent <= 30`),
  ],
);

/**
 * What was withheld, per payout line (append-only): written by the payouts module through
 * `recordWithholding` in the transaction that posts the payout's journal transaction; the year-end
 * reports read it and check it against the journal. A reversal is a row with negative cents naming the one
 * it reverses.
 */
export const taxWithholdingLines = pgTable(
  'tax_withholding_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').notNull(),
    /** No foreign key: the journal's TRUNCATE refusal must stay its own (an FK would refuse first). */
    journalTransactionId: uuid('journal_transaction_id').notNull(),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    lineKey: text('line_key').notNull(),
    territory: text('territory'),
    grossCents: cents('gross_cents').notNull(),
    isSubject: boolean('is_subject').notNull(),
    ratePercent: numeric('rate_percent').notNull(),
    withheldCents: cents('withheld_cents').notNull(),
    basis: text('basis').notNull(),
    reportForm: text('report_form').$type<TaxReportForm>(),
    /** 1042-S exemption code (chapter 3) when the rate is 0: '04' treaty. */
    exemptionCode: text('exemption_code'),
    taxFormId: uuid('tax_form_id').references(() => taxForms.id),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    reversesId: uuid('reverses_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'tax_withholding_lines_form_check',
      sql`report_form is null or ${inList('report_form', TAX_REPORT_FORMS)}`,
    ),
    index('tax_withholding_lines_paid_idx').on(t.paidAt),
    index('tax_withholding_lines_user_idx').on(t.userId, t.paidAt),
    index('tax_withholding_lines_journal_idx').on(t.journalTransactionId),
  ],
);

/** Non-US regime: a payee's VAT/GST number and rate, printed on self-billing invoices. */
export const taxVatRegistrations = pgTable('tax_vat_registrations', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  vatNumber: text('vat_number').notNull(),
  ratePercent: numeric('rate_percent').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Self-billing invoices (non-US regime): one per statement or payout, numbered without gaps from a counter
 * row taken in the invoice's own transaction (a rolled-back invoice gives its number back).
 */
export const taxInvoices = pgTable(
  'tax_invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigint('number', { mode: 'number' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    netCents: cents('net_cents').notNull(),
    vatRatePercent: numeric('vat_rate_percent').notNull(),
    vatCents: cents('vat_cents').notNull(),
    totalCents: cents('total_cents').notNull(),
    pdf: bytea('pdf').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tax_invoices_number_unique').on(t.number),
    uniqueIndex('tax_invoices_reference_unique').on(t.referenceType, t.referenceId),
    check('tax_invoices_reference_type_check', inList('reference_type', ['statement', 'payout'])),
  ],
);

export const taxInvoiceCounter = pgTable('tax_invoice_counter', {
  id: integer('id').primaryKey(),
  lastNumber: bigint('last_number', { mode: 'number' }).notNull(),
});

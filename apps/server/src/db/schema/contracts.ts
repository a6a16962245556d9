import {
  CONTRACT_ADVANCE_KINDS,
  CONTRACT_BASES,
  CONTRACT_CHANNELS,
  CONTRACT_DEAL_TYPES,
  type ContractAdvanceKind,
  type ContractBasis,
  type ContractChannel,
  type ContractDealType,
} from '@tunedrop/shared/schemas/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
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
import { releases } from './releases';
import { royaltyImports } from './royalties';

// ---------------------------------------------------------------- label contracts (issue 39, record 285)

/** A payee account bound to releases of a label's account, with ordered terms and an optional default. */
export const contracts = pgTable(
  'contracts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    labelId: text('label_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    payeeUserId: text('payee_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    dealType: text('deal_type').$type<ContractDealType>().notNull().default('royalty'),
    currency: text('currency').notNull().default('USD'),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }),
    defaultBasis: text('default_basis').$type<ContractBasis>(),
    defaultRate: numeric('default_rate'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('contracts_deal_type_check', inList('deal_type', CONTRACT_DEAL_TYPES)),
    check('contracts_currency_check', sql`currency = 'USD'`),
    check('contracts_default_basis_check', inList('default_basis', CONTRACT_BASES)),
    check('contracts_default_complete', sql`(default_basis is null) = (default_rate is null)`),
    check('contracts_default_rate_range', sql`default_rate >= 0 and default_rate <= 100`),
    check('contracts_dates', sql`ends_on is null or ends_on >= starts_on`),
    check('contracts_two_parties', sql`label_id <> payee_user_id`),
    index('contracts_label_idx').on(t.labelId),
    index('contracts_payee_idx').on(t.payeeUserId),
  ],
);

/** The releases a contract covers; a release is in one contract at most. */
export const contractReleases = pgTable(
  'contract_releases',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.releaseId] }),
    uniqueIndex('contract_releases_release_unique').on(t.releaseId),
  ],
);

/** A contract's terms in order: the first that matches a line sets its basis and rate. */
export const contractTerms = pgTable(
  'contract_terms',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** ISO country codes; empty = every territory. */
    territories: text('territories').array().notNull().default(sql`'{}'::text[]`),
    channel: text('channel').$type<ContractChannel>(),
    store: text('store'),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    basis: text('basis').$type<ContractBasis>().notNull(),
    rate: numeric('rate').notNull(),
    /** Percent of the payee's royalty on this term's sales held back (never on returns), record 287. */
    reservePercent: numeric('reserve_percent').notNull().default('0'),
    /** Percent of the reserve released in each following statement month, adding up to 100 ("50/50"). */
    reserveSchedule: numeric('reserve_schedule').array().notNull().default(sql`'{}'::numeric[]`),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.position] }),
    check('contract_terms_reserve_range', sql`reserve_percent >= 0 and reserve_percent <= 100`),
    check(
      'contract_terms_reserve_schedule',
      sql`(reserve_percent = 0) = (cardinality(reserve_schedule) = 0)`,
    ),
    check('contract_terms_channel_check', inList('channel', CONTRACT_CHANNELS)),
    check('contract_terms_basis_check', inList('basis', CONTRACT_BASES)),
    check('contract_terms_rate_range', sql`rate >= 0 and rate <= 100`),
    check('contract_terms_dates', sql`ends_on is null or starts_on is null or ends_on >= starts_on`),
  ],
);

/**
 * What a posting applied, per contract, term (null = the default rate), release, track and sale month:
 * the lines, their gross and basis in USD, the rate and the exact royalty (record 285).
 */
export const contractRoyalties = pgTable(
  'contract_royalties',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    termPosition: integer('term_position'),
    releaseId: uuid('release_id').notNull(),
    trackId: uuid('track_id'),
    period: text('period').notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull(),
    grossUsd: numeric('gross_usd').notNull(),
    basis: text('basis').$type<ContractBasis>().notNull(),
    basisUsd: numeric('basis_usd').notNull(),
    rate: numeric('rate').notNull(),
    royaltyUsd: numeric('royalty_usd').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('contract_royalties_import_idx').on(t.importId),
    index('contract_royalties_contract_idx').on(t.contractId),
  ],
);

/** Per posting and contract: the exact royalty and the whole cents credited to the payee. */
export const contractSettlements = pgTable(
  'contract_settlements',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    labelId: text('label_id').notNull(),
    payeeUserId: text('payee_user_id').notNull(),
    royaltyUsd: numeric('royalty_usd').notNull(),
    cents: cents('cents').notNull(),
    /** Of `cents`, what went back to the label against the contract's unrecouped advances (migration 0080). */
    recoupedCents: cents('recouped_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.contractId] }),
    check(
      'contract_settlements_recouped_range',
      sql`recouped_cents >= 0 and recouped_cents <= greatest(cents, 0)`,
    ),
    index('contract_settlements_payee_idx').on(t.payeeUserId),
  ],
);

/**
 * What a label advanced or spent for a contract and recoups from the payee's royalties before any is
 * paid (issue 39): an advance, a recoupable cost (recording, video, marketing) at its recoupable
 * percentage, or an opening balance carried from another system. Recorded, never edited.
 */
export const contractAdvances = pgTable(
  'contract_advances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    kind: text('kind').$type<ContractAdvanceKind>().notNull(),
    amountCents: cents('amount_cents').notNull(),
    recoupablePercent: numeric('recoupable_percent').notNull().default('100'),
    /** amount × recoupable percent, truncated to the cent: what the royalties repay. */
    recoupableCents: cents('recoupable_cents').notNull(),
    memo: text('memo'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('contract_advances_kind_check', inList('kind', CONTRACT_ADVANCE_KINDS)),
    check('contract_advances_amount_positive', sql`amount_cents > 0`),
    check('contract_advances_percent_range', sql`recoupable_percent >= 0 and recoupable_percent <= 100`),
    check(
      'contract_advances_recoupable_range',
      sql`recoupable_cents >= 0 and recoupable_cents <= amount_cents`,
    ),
    index('contract_advances_contract_idx').on(t.contractId),
  ],
);

/**
 * A royalty reserve (issue 39, record 287): per posting, contract and term, the part of the payee's cents
 * held back on the term's sales (none on returns), in the statement month of the posting (`held_month`),
 * on the journal's `reserve_held` account of the contract until its parts are released.
 */
export const contractReserves = pgTable(
  'contract_reserves',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    termPosition: integer('term_position').notNull(),
    labelId: text('label_id').notNull(),
    payeeUserId: text('payee_user_id').notNull(),
    /** The first day of the statement month (UTC) the reserve was held in. */
    heldMonth: date('held_month', { mode: 'string' }).notNull(),
    /** The exact royalty of the term's positive lines, the percent held and the exact reserve. */
    salesRoyaltyUsd: numeric('sales_royalty_usd').notNull(),
    percent: numeric('percent').notNull(),
    reserveUsd: numeric('reserve_usd').notNull(),
    /** What was held: the exact reserve truncated to the cent, never more than the payee's cents. */
    heldCents: cents('held_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contract_reserves_posting_term_unique').on(t.importId, t.contractId, t.termPosition),
    check('contract_reserves_held_positive', sql`held_cents > 0`),
    index('contract_reserves_contract_idx').on(t.contractId),
    index('contract_reserves_payee_idx').on(t.payeeUserId, t.heldMonth),
  ],
);

/** A reserve's parts, one per statement month of its schedule; released once, by `releaseDueReserves`. */
export const contractReserveReleases = pgTable(
  'contract_reserve_releases',
  {
    reserveId: uuid('reserve_id')
      .notNull()
      .references(() => contractReserves.id, { onDelete: 'restrict' }),
    part: integer('part').notNull(),
    /** The first day of the statement month it falls due in. */
    dueMonth: date('due_month', { mode: 'string' }).notNull(),
    cents: cents('cents').notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.reserveId, t.part] }),
    check('contract_reserve_releases_cents', sql`cents >= 0`),
    index('contract_reserve_releases_due_idx').on(t.dueMonth).where(sql`released_at is null`),
  ],
);

/**
 * The withholding decision per payout line (issue 38), called by the payouts module at preview and at
 * payout: blocked with a reason in plain words, or a rate and the withheld cents per line. Then
 * `recordWithholding`, in the transaction that posts the payout's journal transaction, keeps what was
 * withheld per line for the year-end 1099-MISC and 1042-S, checked against that transaction's
 * `tax_withheld_payable` leg so the reports cannot drift from the journal. The seam: /work/notes/38-interface.md
 * and record 270.
 */
import { allocateLargestRemainder, percentOfCents } from '@tunedrop/shared/money';
import {
  BACKUP_WITHHOLDING_PERCENT,
  NO_FORM_FOREIGN_PERCENT,
  type TaxReportForm,
  type TaxSettings,
} from '@tunedrop/shared/schemas/tax';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taxWithholdingLines } from '../../db/schema';
import { rows } from '../../lib/sql';
import { readTaxSettings } from './settings';
import { type StandingFacts, standingFacts } from './standing';
import { treatyRateAt } from './treaty';

export type WithholdingLineInput = {
  /** The caller's id for the line (an earnings line, a territory bucket): echoed back. */
  key: string;
  /** ISO 3166-1 alpha-2 of the sale; null when unknown (treated as US-sourced). */
  territory: string | null;
  /** Gross cents of this line in the payout. */
  cents: number;
};

export type WithholdingLine = WithholdingLineInput & {
  isSubject: boolean;
  ratePercent: string;
  withheldCents: number;
  basis: string;
};

export type WithholdingDecision =
  | { status: 'blocked'; reason: string }
  | {
      status: 'ok';
      /** The year-end form these lines go on; null under the non-US regime. */
      form: TaxReportForm | null;
      /** 1042-S chapter 3 exemption code when a treaty brings the rate to 0 ('04'). */
      exemptionCode: string | null;
      lines: WithholdingLine[];
      grossCents: number;
      withheldCents: number;
      netCents: number;
      taxFormId: string | null;
    };

/** cents × percent / 100, rounded half up to the cent (exact decimals, no floats). */
export function withheldCentsOf(cents: number, ratePercent: string): number {
  const withheld = percentOfCents(cents, ratePercent);
  if (withheld === null) throw new Error(`bad rate ${ratePercent}`);
  return Number(withheld);
}

type Rule =
  | { kind: 'blocked'; reason: string }
  | {
      kind: 'rate';
      ratePercent: string;
      basis: string;
      form: TaxReportForm | null;
      exemptionCode: string | null;
    };

async function ruleFor(db: DbOrTx, settings: TaxSettings, facts: StandingFacts, asOf: Date): Promise<Rule> {
  if (settings.regime === 'non_us') {
    return { kind: 'rate', ratePercent: '0', basis: 'non-US regime', form: null, exemptionCode: null };
  }
  const noW9 = (what: string): Rule =>
    settings.noW9Policy === 'block'
      ? {
          kind: 'blocked',
          reason: `${what}: payouts are on hold until a certified Form W-9 (or a Form W-8 for a non-US person) is signed.`,
        }
      : {
          kind: 'rate',
          ratePercent: BACKUP_WITHHOLDING_PERCENT,
          basis: `backup withholding: ${what.toLowerCase()}`,
          form: '1099-misc',
          exemptionCode: null,
        };
  const foreign = (basis: string): Rule => ({
    kind: 'rate',
    ratePercent: NO_FORM_FOREIGN_PERCENT,
    basis,
    form: '1042-s',
    exemptionCode: null,
  });
  const form = facts.form;
  switch (facts.state) {
    case 'w9_certified':
      return {
        kind: 'rate',
        ratePercent: '0',
        basis: 'Form W-9 certified',
        form: '1099-misc',
        exemptionCode: null,
      };
    case 'w9_backup':
      return {
        kind: 'rate',
        ratePercent: BACKUP_WITHHOLDING_PERCENT,
        basis: 'backup withholding: IRS notice (W-9 item 2 crossed out)',
        form: '1099-misc',
        exemptionCode: null,
      };
    case 'w9_uncertified':
      return noW9('The Form W-9 is not certified');
    case 'none':
      return noW9('No Form W-9 on file');
    case 'w8_expired':
      return foreign(`Form W-8 expired on ${form?.expiresOn}`);
    case 'w8_invalid':
      return foreign('Form W-8 invalidated');
    case 'foreign_no_form':
      return foreign('non-US person without a valid Form W-8');
    case 'w8_valid':
    case 'w8_expiring': {
      const label = form?.kind === 'w8bene' ? 'Form W-8BEN-E' : 'Form W-8BEN';
      if (!form?.treatyCountry) return foreign(`${label} without a treaty claim`);
      const table = await treatyRateAt(db, form.treatyCountry, asOf);
      if (!table) return foreign(`${label}: no treaty rate for ${form.treatyCountry} in the table`);
      // A claim above the table's rate is honoured (the payee asked for more); below it, the table's applies.
      const claimed = form.treatyRatePercent ?? table.ratePercent;
      const ratePercent = Number(claimed) > Number(table.ratePercent) ? claimed : table.ratePercent;
      return {
        kind: 'rate',
        ratePercent,
        basis: `${label} ${form.treatyCountry} treaty art. ${table.article}`,
        form: '1042-s',
        exemptionCode: Number(ratePercent) === 0 ? '04' : null,
      };
    }
  }
}

const isSubjectLine = (settings: TaxSettings, territory: string | null) =>
  settings.regime === 'us_withholding_agent' &&
  (settings.scope === 'all' || territory === null || territory === 'US');

/** The decision for one account's payout lines at a moment (read-only: preview and payout alike). */
export async function withholdingFor(
  db: DbOrTx,
  input: { accountId: string; lines: readonly WithholdingLineInput[]; asOf: Date },
): Promise<WithholdingDecision> {
  for (const line of input.lines) {
    if (!Number.isSafeInteger(line.cents) || line.cents < 0)
      throw new Error(`withholding: bad cents for ${line.key}`);
  }
  const settings = await readTaxSettings(db);
  const facts = await standingFacts(db, input.accountId, input.asOf);
  const rule = await ruleFor(db, settings, facts, input.asOf);
  const subjectCents = input.lines
    .filter((line) => isSubjectLine(settings, line.territory))
    .reduce((sum, line) => sum + line.cents, 0);
  if (rule.kind === 'blocked') {
    if (subjectCents > 0) return { status: 'blocked', reason: rule.reason };
  }
  const lines: WithholdingLine[] = input.lines.map((line) => {
    const isSubject = isSubjectLine(settings, line.territory);
    if (!isSubject || rule.kind === 'blocked') {
      const basis =
        settings.regime === 'non_us'
          ? 'non-US regime'
          : `not subject: sale outside the US (${line.territory})`;
      return { ...line, isSubject: false, ratePercent: '0', withheldCents: 0, basis };
    }
    return {
      ...line,
      isSubject,
      ratePercent: rule.ratePercent,
      withheldCents: withheldCentsOf(line.cents, rule.ratePercent),
      basis: rule.basis,
    };
  });
  const grossCents = lines.reduce((sum, line) => sum + line.cents, 0);
  const withheldCents = lines.reduce((sum, line) => sum + line.withheldCents, 0);
  return {
    status: 'ok',
    form: rule.kind === 'rate' ? rule.form : '1099-misc',
    exemptionCode: rule.kind === 'rate' ? rule.exemptionCode : null,
    lines,
    grossCents,
    withheldCents,
    netCents: grossCents - withheldCents,
    taxFormId: facts.form && facts.form.status === 'active' ? facts.form.id : null,
  };
}

/** The journal transaction's tax_withheld_payable credit for the account, in cents. */
async function journalWithheldCents(
  tx: DbOrTx,
  journalTransactionId: string,
  accountId: string,
): Promise<number> {
  const [row] = await rows<{ cents: string | null }>(
    tx,
    sql`select (-sum(amount) * 100)::bigint::text as cents from journal_entries
         where transaction_id = ${journalTransactionId}::uuid and account = 'tax_withheld_payable'
           and subject = ${accountId}`,
  );
  return Number(row?.cents ?? 0);
}

/**
 * Keeps the decision's lines, in the transaction that wrote the payout's journal transaction (after it).
 * Refuses when that transaction's tax_withheld_payable credit for the account differs from the decision.
 */
export async function recordWithholding(
  tx: DbOrTx,
  input: {
    decision: Extract<WithholdingDecision, { status: 'ok' }>;
    accountId: string;
    journalTransactionId: string;
    reference: { type: string; id: string };
    paidAt: Date;
  },
): Promise<void> {
  const { decision } = input;
  const journal = await journalWithheldCents(tx, input.journalTransactionId, input.accountId);
  if (journal !== decision.withheldCents) {
    throw new Error(
      `withholding: journal transaction ${input.journalTransactionId} credits ${journal} cents to tax_withheld_payable for ${input.accountId}, the decision withheld ${decision.withheldCents}`,
    );
  }
  if (decision.lines.length === 0) return;
  await tx.insert(taxWithholdingLines).values(
    decision.lines.map((line) => ({
      userId: input.accountId,
      journalTransactionId: input.journalTransactionId,
      referenceType: input.reference.type,
      referenceId: input.reference.id,
      lineKey: line.key,
      territory: line.territory,
      grossCents: line.cents,
      isSubject: line.isSubject,
      ratePercent: line.ratePercent,
      withheldCents: line.withheldCents,
      basis: line.basis,
      // 1099-MISC reports every royalty paid to a US person; 1042-S only the US-source (subject) lines.
      reportForm:
        decision.form === '1099-misc' || (decision.form === '1042-s' && line.isSubject)
          ? decision.form
          : null,
      exemptionCode: line.isSubject ? decision.exemptionCode : null,
      taxFormId: decision.taxFormId,
      paidAt: input.paidAt,
    })),
  );
}

/**
 * A payout reversed with its withholding (payouts posted a transaction debiting tax_withheld_payable back):
 * the reversed lines again with their signs turned, so the year's report follows the journal.
 */
export async function reverseWithholding(
  tx: DbOrTx,
  input: { journalTransactionId: string; reversesJournalTransactionId: string; reversedAt: Date },
): Promise<void> {
  const original = await tx
    .select()
    .from(taxWithholdingLines)
    .where(sql`${taxWithholdingLines.journalTransactionId} = ${input.reversesJournalTransactionId}::uuid`);
  if (original.length === 0) return;
  await tx.insert(taxWithholdingLines).values(
    original.map(({ id, createdAt: _createdAt, ...line }) => ({
      ...line,
      journalTransactionId: input.journalTransactionId,
      grossCents: -line.grossCents,
      withheldCents: -line.withheldCents,
      paidAt: input.reversedAt,
      reversesId: id,
    })),
  );
}

/**
 * A payout amount as lines by territory when the caller has only the amount: shared among the territories
 * of the account's posted earnings (royalty_earnings.country) by the largest remainder, US kept apart;
 * deterministic. Without earnings, one line of unknown territory (treated as US-sourced).
 */
export async function territoryLinesFor(
  db: DbOrTx,
  input: { accountId: string; cents: number },
): Promise<WithholdingLineInput[]> {
  const found = await rows<{ territory: string | null; weight: string }>(
    db,
    sql`select upper(country) as territory, round(sum(amount_usd) * 1000000)::bigint::text as weight
          from royalty_earnings where user_id = ${input.accountId}
         group by upper(country) having sum(amount_usd) > 0 order by upper(country) nulls last`,
  );
  if (found.length === 0 || input.cents === 0) return [{ key: 'all', territory: null, cents: input.cents }];
  const shares = allocateLargestRemainder(
    BigInt(input.cents),
    found.map((row) => BigInt(row.weight)),
  );
  return found
    .map((row, index) => ({
      key: row.territory ?? 'unknown',
      territory: row.territory,
      cents: Number(shares[index] ?? 0n),
    }))
    .filter((line) => line.cents > 0);
}

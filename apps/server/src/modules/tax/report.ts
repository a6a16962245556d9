/**
 * Year-end information returns (issue 38): 1099-MISC (royalties in box 2, federal income tax withheld in
 * box 4) and 1042-S (income code 12, chapter 3 exemption code, rate, gross income, tax withheld) from the
 * withholding lines the payouts kept, one row per recipient (1042-S: per recipient and rate), as CSV and
 * recipient PDFs. Before anything is produced the totals are checked against the journal's paid and withheld
 * figures of the same transactions, to the cent; a difference refuses the report, naming it.
 */
import { formatCents } from '@tunedrop/shared';
import { toCsv } from '@tunedrop/shared/csv';
import { centsToDecimal } from '@tunedrop/shared/money';
import { countryLabel } from '@tunedrop/shared/schemas/release-availability';
import { formatTin, type TaxForm, type TaxReportForm } from '@tunedrop/shared/schemas/tax';
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taxForms } from '../../db/schema';
import { rows } from '../../lib/sql';
import { readStatementIssuer } from '../statements';
import { verifyStoredForm } from './forms';
import { type PdfBlock, renderPdf } from './pdf';
import type { TaxFormRow } from './standing';

export type TaxReportRow = {
  userId: string;
  email: string;
  name: string;
  tin: string;
  address: string;
  country: string;
  ratePercent: string;
  exemptionCode: string;
  grossCents: number;
  withheldCents: number;
};

export type TaxReport = {
  year: number;
  form: TaxReportForm;
  rows: TaxReportRow[];
  totals: { grossCents: number; withheldCents: number };
  /** The journal's figures for the same payout transactions: gross paid (all lines) and withheld. */
  journal: { grossCents: number; withheldCents: number; linesGrossCents: number };
};

export class TaxReportMismatch extends Error {}

type LineSum = {
  userId: string;
  email: string | null;
  ratePercent: string;
  exemptionCode: string | null;
  taxFormId: string | null;
  grossCents: string;
  withheldCents: string;
};

function recipientDetails(appSecret: string, form: TaxFormRow | undefined) {
  if (!form) return { name: '', tin: '', address: '', country: '' };
  const { json } = verifyStoredForm(appSecret, form);
  const signed = (JSON.parse(json) as { form: TaxForm }).form;
  const line = (a: { street: string; city: string; region?: string; postalCode?: string; country: string }) =>
    `${a.street}, ${[a.city, a.region, a.postalCode].filter(Boolean).join(' ')}, ${a.country}`;
  if (signed.kind === 'w9') {
    return {
      name: signed.name,
      tin: formatTin(signed.tinType, signed.tin),
      address: line(signed.address),
      country: 'US',
    };
  }
  return {
    name: signed.name,
    tin: signed.foreignTin ?? signed.usTin ?? '',
    address: line(signed.permanentAddress),
    country: signed.permanentAddress.country,
  };
}

export async function buildTaxReport(
  db: DbOrTx,
  appSecret: string,
  input: { year: number; form: TaxReportForm },
): Promise<TaxReport> {
  const from = `${input.year}-01-01T00:00:00Z`;
  const to = `${input.year + 1}-01-01T00:00:00Z`;
  // A 1099-MISC is one per recipient whatever the rate; a 1042-S one per recipient, rate and exemption code.
  const is1099 = input.form === '1099-misc';
  const rateKey = is1099 ? sql`max(l.rate_percent)::text` : sql`l.rate_percent::text`;
  const exemptionKey = is1099 ? sql`null::text` : sql`l.exemption_code`;
  const sums = await rows<LineSum>(
    db,
    sql`select l.user_id, p.email, ${rateKey} as rate_percent, ${exemptionKey} as exemption_code,
               (array_agg(l.tax_form_id::text order by l.paid_at desc) filter (where l.tax_form_id is not null))[1] as tax_form_id,
               sum(l.gross_cents)::text as gross_cents, sum(l.withheld_cents)::text as withheld_cents
          from tax_withholding_lines l left join profiles p on p.id = l.user_id
         where l.report_form = ${input.form} and l.paid_at >= ${from} and l.paid_at < ${to}
         ${is1099 ? sql`group by l.user_id, p.email` : sql`group by l.user_id, p.email, l.rate_percent, l.exemption_code`}
         order by p.email, l.user_id, rate_percent`,
  );
  // The journal's figures for every payout transaction with a line on this form in the year: the payee's
  // withdrawals_payable / artist_payable legs are the gross (+ when paid, − when a refund reverses it).
  const [journal] = await rows<{
    grossCents: string | null;
    withheldCents: string | null;
    linesGrossCents: string | null;
  }>(
    db,
    sql`with tx as (
          select distinct journal_transaction_id as id, user_id from tax_withholding_lines
           where report_form = ${input.form} and paid_at >= ${from} and paid_at < ${to})
        select
          (select (sum(e.amount) * 100)::bigint::text from journal_entries e join tx on tx.id = e.transaction_id
            where e.subject = tx.user_id and e.account in ('withdrawals_payable', 'artist_payable')) as gross_cents,
          (select (-sum(e.amount) * 100)::bigint::text from journal_entries e join tx on tx.id = e.transaction_id
            where e.subject = tx.user_id and e.account = 'tax_withheld_payable') as withheld_cents,
          (select sum(l.gross_cents)::text from tax_withholding_lines l join tx on tx.id = l.journal_transaction_id
            and tx.user_id = l.user_id) as lines_gross_cents`,
  );
  const ids = [...new Set(sums.flatMap((sum) => (sum.taxFormId ? [sum.taxFormId] : [])))];
  const forms = ids.length > 0 ? await db.select().from(taxForms).where(inArray(taxForms.id, ids)) : [];
  const byId = new Map(forms.map((form) => [form.id, form]));
  const reportRows = sums.map((sum) => ({
    userId: sum.userId,
    email: sum.email ?? '',
    ...recipientDetails(appSecret, sum.taxFormId ? byId.get(sum.taxFormId) : undefined),
    ratePercent: sum.ratePercent,
    exemptionCode: sum.exemptionCode ?? '',
    grossCents: Number(sum.grossCents),
    withheldCents: Number(sum.withheldCents),
  }));
  const totals = {
    grossCents: reportRows.reduce((total, row) => total + row.grossCents, 0),
    withheldCents: reportRows.reduce((total, row) => total + row.withheldCents, 0),
  };
  const report: TaxReport = {
    year: input.year,
    form: input.form,
    rows: reportRows,
    totals,
    journal: {
      grossCents: Number(journal?.grossCents ?? 0),
      withheldCents: Number(journal?.withheldCents ?? 0),
      linesGrossCents: Number(journal?.linesGrossCents ?? 0),
    },
  };
  const problems = reportProblems(report);
  if (problems.length > 0) throw new TaxReportMismatch(problems.join('\n'));
  return report;
}

/** Where the report and the journal differ (none: they agree to the cent). */
export function reportProblems(report: TaxReport): string[] {
  const problems: string[] = [];
  if (report.totals.withheldCents !== report.journal.withheldCents) {
    problems.push(
      `withheld: report ${formatCents(report.totals.withheldCents)}, journal tax_withheld_payable ${formatCents(report.journal.withheldCents)}`,
    );
  }
  if (report.journal.linesGrossCents !== report.journal.grossCents) {
    problems.push(
      `paid: withholding lines ${formatCents(report.journal.linesGrossCents)}, journal ${formatCents(report.journal.grossCents)}`,
    );
  }
  return problems;
}

const dollars = centsToDecimal;

export function taxReportCsv(report: TaxReport): string {
  if (report.form === '1099-misc') {
    return toCsv(
      [
        'tax_year',
        'recipient_name',
        'recipient_tin',
        'recipient_address',
        'email',
        'box2_royalties',
        'box4_federal_income_tax_withheld',
        'filing_required',
      ],
      report.rows.map((row) => [
        report.year,
        row.name,
        row.tin,
        row.address,
        row.email,
        dollars(row.grossCents),
        dollars(row.withheldCents),
        // 1099-MISC: royalties of $10 or more, or any backup withholding.
        row.grossCents >= 1000 || row.withheldCents > 0 ? 'yes' : 'no',
      ]),
    );
  }
  return toCsv(
    [
      'tax_year',
      'recipient_name',
      'recipient_country',
      'recipient_foreign_tin',
      'recipient_address',
      'email',
      'income_code',
      'box2_gross_income',
      'box3a_exemption_code',
      'box3b_tax_rate',
      'box7a_federal_tax_withheld',
    ],
    report.rows.map((row) => [
      report.year,
      row.name,
      row.country,
      row.tin,
      row.address,
      row.email,
      '12',
      dollars(row.grossCents),
      row.exemptionCode || '00',
      row.ratePercent,
      dollars(row.withheldCents),
    ]),
  );
}

/** The recipient's copy: one PDF per row (TIN truncated to its last four digits, as payee statements may). */
export async function recipientPdf(db: DbOrTx, report: TaxReport, row: TaxReportRow): Promise<Buffer> {
  const issuer = await readStatementIssuer(db);
  const is1099 = report.form === '1099-misc';
  const blocks: PdfBlock[] = [
    {
      kind: 'title',
      text: `${is1099 ? 'Form 1099-MISC' : 'Form 1042-S'} ${report.year}: recipient statement`,
    },
    { kind: 'field', label: 'Payer / withholding agent', value: issuer.legalName },
    { kind: 'field', label: 'Payer address', value: issuer.address.replace(/\n/g, ', ') || '(not set)' },
    { kind: 'field', label: 'Recipient', value: row.name || row.email },
    {
      kind: 'field',
      label: 'Recipient TIN',
      value: row.tin ? `***${row.tin.replace(/[^0-9A-Za-z]/g, '').slice(-4)}` : '(none on file)',
    },
    { kind: 'field', label: 'Recipient address', value: row.address || '(none on file)' },
  ];
  if (is1099) {
    blocks.push(
      { kind: 'field', label: 'Box 2 Royalties', value: formatCents(row.grossCents) },
      { kind: 'field', label: 'Box 4 Federal income tax withheld', value: formatCents(row.withheldCents) },
    );
  } else {
    blocks.push(
      { kind: 'field', label: 'Box 1 Income code', value: '12 (other royalties: copyright)' },
      { kind: 'field', label: 'Box 2 Gross income', value: formatCents(row.grossCents) },
      { kind: 'field', label: 'Box 3a Exemption code', value: row.exemptionCode || '00' },
      { kind: 'field', label: 'Box 3b Tax rate', value: `${row.ratePercent}%` },
      { kind: 'field', label: 'Box 7a Federal tax withheld', value: formatCents(row.withheldCents) },
      { kind: 'field', label: 'Recipient country', value: row.country ? countryLabel(row.country) : '' },
    );
  }
  blocks.push({
    kind: 'paragraph',
    text: 'Amounts in US dollars. This statement is prepared from the payouts made to you in the year and the tax withheld from them; keep it for your records.',
  });
  return renderPdf({
    title: `${is1099 ? '1099-MISC' : '1042-S'} ${report.year} ${row.name || row.email}`,
    author: issuer.legalName,
    date: new Date(`${report.year + 1}-01-31T00:00:00Z`),
    blocks,
  });
}

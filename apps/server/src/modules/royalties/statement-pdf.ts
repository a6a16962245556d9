/**
 * An artist's statement for one period as a PDF (pdfkit, with the embedded fonts of statement-text.ts so titles
 * in any script and emoji show as written).
 * The same immutable earnings lines as the CSV statement, summed by store, by country and by track, with
 * the period's total in USD. Amounts are exact decimal text from the database, shown to the cent.
 */

import { formatUsdDecimal } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../lib/sql';
import { expenseStatementRows } from '../splits/statement';
import { splitStatementRows } from './ledger';
import { drawLine, registerStatementFonts, type TextWeight, textFontName } from './statement-text';

type Row = { label: string | null; units: string; amount: string };

async function grouped(db: DbOrTx, userId: string, period: string, by: 'store' | 'country' | 'track') {
  const label =
    by === 'store'
      ? sql`coalesce(e.store, 'Unknown store')`
      : by === 'country'
        ? sql`coalesce(e.country, 'Unknown')`
        : sql`coalesce(t.title || coalesce(' (' || t.isrc || ')', ''), r.title, 'Unknown')`;
  return await rows<Row>(
    db,
    sql`
      select ${label} as label, trim_scale(sum(e.units))::text as units, trim_scale(sum(e.amount_usd))::text as amount
        from royalty_earnings e
        left join tracks t on t.id = e.track_id
        left join releases r on r.id = e.release_id
       where e.user_id = ${userId} and e.period = ${period}
         and e.import_id in (select id from royalty_imports where status = 'posted')
       group by 1 order by sum(e.amount_usd) desc, 1 limit 200`,
  );
}

/** The PDF bytes, or null when the artist has no earnings in that period. */
export async function statementPdf(db: DbOrTx, userId: string, period: string): Promise<Buffer | null> {
  const [total] = await rows<{
    lines: string | number;
    units: string | null;
    amount: string | null;
    name: string;
  }>(
    db,
    sql`
      select count(*) as lines, trim_scale(sum(e.units))::text as units, trim_scale(sum(e.amount_usd))::text as amount,
             (select coalesce(nullif(u.name, ''), u.email) from "user" u where u.id = ${userId}) as name
        from royalty_earnings e where e.user_id = ${userId} and e.period = ${period}
         and e.import_id in (select id from royalty_imports where status = 'posted')`,
  );
  const splits = await splitStatementRows(db, userId, period);
  if (!total || (Number(total.lines) === 0 && splits.length === 0)) return null;
  const sections: [string, Row[]][] = [
    ['By store', await grouped(db, userId, period, 'store')],
    ['By country', await grouped(db, userId, period, 'country')],
    ['By track', await grouped(db, userId, period, 'track')],
  ];
  // Split shares (decision 140): paid to collaborators (negative) or received from other artists.
  if (splits.length > 0) {
    sections.push([
      'Split shares',
      splits.map((split) => ({
        label: `${split.direction === 'to' ? 'To' : 'From'} ${split.party} · ${split.releaseTitle ?? ''}${split.trackTitle ? ` / ${split.trackTitle}` : ''} · ${split.percent}%`,
        units: '',
        amount: split.amount,
      })),
    ]);
  }
  // Expenses repaid to shared releases' owners before this payee's shares (record 148); not in the total.
  const expenses = await expenseStatementRows(db, userId, period);
  if (expenses.length > 0) {
    const decimal = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    sections.push([
      'Expenses recouped before your shares',
      expenses.flatMap((release) => [
        {
          label: `${release.releaseTitle} · recouped by the owner from this period`,
          units: '',
          amount: decimal(release.recoupedCents),
        },
        ...release.expenses.map((expense) => ({
          label: `${release.releaseTitle} · ${expense.description} · spent ${expense.spentOn}`,
          units: '',
          amount: decimal(expense.amountCents),
        })),
      ]),
    ]);
  }
  const [net] = await rows<{ amount: string }>(
    db,
    sql`
      select trim_scale(${total.amount ?? '0'}::numeric + coalesce(sum(x.amount::numeric), 0))::text as amount
        from jsonb_to_recordset(${JSON.stringify(splits.map((split) => ({ amount: split.amount })))}::jsonb)
          as x(amount text)`,
  );

  // Loaded on the first statement, not at every server start (pdfkit and its font data take ~100 ms).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Tunedrop statement ${period}`, Author: 'Tunedrop' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  registerStatementFonts(doc);

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const line = (text: string, size: number, weight: TextWeight = 'regular') =>
    drawLine(doc, text, left, doc.y, { width, size, weight });
  line('Tunedrop royalty statement', 20, 'bold');
  doc.moveDown(0.3);
  line(`Period: ${period}`, 11);
  line(`Artist: ${total.name}`, 11);
  line(`Earnings lines: ${Number(total.lines)} · Units: ${total.units ?? '0'}`, 11);
  doc.moveDown(0.3);
  line(`Total earnings: ${formatUsdDecimal(net?.amount ?? total.amount ?? '0')} USD`, 13, 'bold');

  // Columns: the name gets what the figures leave, and a gap so a long name never touches the units.
  const cells = (name: string, units: string, amount: string, weight: TextWeight) => {
    const y = doc.y;
    drawLine(doc, name, left, y, { width: width * 0.6 - 8, size: 9, weight });
    drawLine(doc, units, left + width * 0.6, y, { width: width * 0.18, size: 9, weight, align: 'right' });
    drawLine(doc, amount, left + width * 0.78, y, { width: width * 0.22, size: 9, weight, align: 'right' });
  };
  for (const [title, rows] of sections) {
    doc.moveDown(1);
    line(title, 12, 'bold');
    doc.moveDown(0.2);
    cells('Name', 'Units', 'Amount (USD)', 'bold');
    for (const row of rows) {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
      cells(row.label ?? '', row.units, formatUsdDecimal(row.amount), 'regular');
    }
  }
  doc
    .moveDown(2)
    .font(textFontName('regular'))
    .fontSize(8)
    .fillColor('#555555')
    .text(
      'Amounts are the exact sums of your earnings lines converted to USD at each report’s exchange rate; ' +
        'your balance was credited with each report’s total rounded down to the cent.',
      left,
    );
  doc.end();
  return done;
}

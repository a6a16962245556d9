/**
 * A statement as a PDF (pdfkit, with the embedded fonts of statement-text.ts so titles in any script and emoji
 * show as written; record 190). The issuer's name and address head it; a summary leads from the opening
 * balance through gross earnings, the fee, split shares, withdrawals and adjustments to the closing balance;
 * each section below itemises one of those figures and ends with its total, the sum of its rows.
 */

import { formatCents } from '@tunedrop/shared';
import { DEFAULT_PRODUCT_NAME } from '@tunedrop/shared/schemas/brand';
import type { StatementAmountRow } from '@tunedrop/shared/schemas/royalty-statements';
import type { ExpenseStatementRelease } from '../splits';
import type { StatementWithDetails } from './statement-compose';
import { drawLine, registerStatementFonts, type TextWeight, textFontName } from './statement-text';

type Row = { label: string; units: string; cents: number | null; weight?: TextWeight };

const amountRow = (row: StatementAmountRow): Row => ({
  label: row.label,
  units: row.units,
  cents: row.cents,
});
const sum = (rows: { cents: number }[]) => rows.reduce((total, row) => total + row.cents, 0);

/**
 * The PDF bytes of a statement, the expenses recouped in its sales months and the operator's product name
 * (no database: run in a statement worker, record 208).
 */
export async function statementPdfBytes(
  statement: StatementWithDetails,
  expenses: ExpenseStatementRelease[],
  productName: string,
): Promise<Buffer> {
  const { period } = statement;
  const { earnings } = statement;
  const shareLabel = (share: (typeof statement.shares)[number]) =>
    `${share.direction === 'to' ? 'To' : 'From'} ${share.party} · ${share.releaseTitle ?? 'Unknown release'}${share.trackTitle ? ` / ${share.trackTitle}` : ''}${share.percent ? ` · ${share.percent}%` : ''}${share.note === 'held' ? ' (held until they accept)' : share.note === 'released' ? ' (released from hold)' : ''}`;
  const paid = statement.shares.filter((share) => share.direction === 'to');
  const received = statement.shares.filter((share) => share.direction === 'from');

  // One artist profile's view (record 235): its own gross, fee, shares and net; the balance is the account's.
  const profile = statement.artistProfile;
  const ofAll = profile ? ' (all artist profiles)' : '';
  const summary: Row[] = [
    { label: `Opening balance${ofAll}`, units: '', cents: statement.openingCents, weight: 'bold' },
  ];
  // A payee with no music of their own is paid shares only: no gross or fee rows of zero lines.
  if (earnings.lines > 0 || statement.feeCents !== 0 || profile) {
    summary.push(
      {
        label: `Gross earnings${profile ? ` of ${profile.name}` : ''} (${earnings.lines} line${earnings.lines === 1 ? '' : 's'})`,
        units: earnings.units,
        cents: earnings.grossCents,
      },
      {
        label: `Distribution fee${statement.feePercent ? ` (${statement.feePercent}%)` : ''}`,
        units: '',
        cents: statement.feeCents,
      },
    );
  }
  if (paid.length > 0)
    summary.push({ label: 'Split shares paid to collaborators', units: '', cents: sum(paid) });
  if (received.length > 0) summary.push({ label: 'Split shares received', units: '', cents: sum(received) });
  if (statement.otherEarnings.length > 0)
    summary.push({ label: 'Other earnings', units: '', cents: sum(statement.otherEarnings) });
  summary.push({
    label: `Net earnings${profile ? ` of ${profile.name}` : ''}`,
    units: '',
    cents: statement.netEarningsCents,
    weight: 'bold',
  });
  if (profile) {
    summary.push({
      label: 'Net earnings of the other artist profiles and shares received',
      units: '',
      cents: statement.outsideProfileCents ?? 0,
    });
  }
  summary.push(
    { label: 'Withdrawals', units: '', cents: sum(statement.withdrawals) },
    { label: 'Adjustments', units: '', cents: sum(statement.adjustments) },
    { label: `Closing balance${ofAll}`, units: '', cents: statement.closingCents, weight: 'bold' },
  );

  const total = (label: string, rows: { cents: number }[]): Row => ({
    label,
    units: '',
    cents: sum(rows),
    weight: 'bold',
  });
  const sections: [string, Row[]][] = [];
  if (earnings.byStore.length > 0) {
    sections.push(
      [
        'Gross earnings by store',
        [...earnings.byStore.map(amountRow), total('Gross earnings', earnings.byStore)],
      ],
      [
        'Gross earnings by country',
        [...earnings.byCountry.map(amountRow), total('Gross earnings', earnings.byCountry)],
      ],
      [
        'Gross earnings by track',
        [...earnings.byTrack.map(amountRow), total('Gross earnings', earnings.byTrack)],
      ],
    );
  }
  if (statement.shares.length > 0) {
    sections.push([
      'Split shares',
      [
        ...statement.shares.map((share) => ({ label: shareLabel(share), units: '', cents: share.cents })),
        total('Split shares', statement.shares),
      ],
    ]);
  }
  if (statement.sharesReceived) {
    const received = statement.sharesReceived;
    for (const [title, rows] of [
      ['Split shares received by store', received.byStore],
      ['Split shares received by country', received.byCountry],
      ['Split shares received by track', received.byTrack],
    ] as const) {
      sections.push([title, [...rows.map(amountRow), total('Split shares received', rows)]]);
    }
  }
  for (const [title, movements] of [
    ['Other earnings', statement.otherEarnings],
    ['Withdrawals', statement.withdrawals],
    ['Adjustments', statement.adjustments],
  ] as const) {
    if (movements.length === 0) continue;
    sections.push([
      title,
      [
        ...movements.map((row) => ({
          label: `${row.date} · ${row.description}`,
          units: '',
          cents: row.cents,
        })),
        total(title, movements),
      ],
    ]);
  }
  // Contract reserves (record 287): beside the balance, not in it until released.
  if (statement.reserves) {
    const reserves = statement.reserves;
    sections.push([
      'Royalty reserves (information, not in the totals)',
      [
        { label: 'Held back from this month’s royalties', units: '', cents: reserves.heldCents },
        { label: 'Released to your balance this month', units: '', cents: reserves.releasedCents },
        { label: 'Reserve still held at the end of the month', units: '', cents: reserves.balanceCents },
      ],
    ]);
  }
  // Expenses repaid to shared releases' owners before this payee's shares (record 148): not in any total.
  if (expenses.length > 0) {
    sections.push([
      'Expenses recouped before your shares (information, not in the totals)',
      expenses.flatMap((release) => [
        {
          label: `${release.releaseTitle} · recouped by the owner from this period: ${formatCents(release.recoupedCents)}`,
          units: '',
          cents: null,
        },
        ...release.expenses.map((expense) => ({
          label: `${release.releaseTitle} · ${expense.description} · spent ${expense.spentOn}: ${formatCents(expense.amountCents)}`,
          units: '',
          cents: null,
        })),
      ]),
    ]);
  }

  // Loaded on the first statement, not at every server start (pdfkit and its font data take ~100 ms).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `${statement.issuer.legalName} statement ${period}`,
      Author: statement.issuer.legalName,
      Creator: productName,
    },
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
  line(statement.issuer.legalName, 16, 'bold');
  for (const addressLine of statement.issuer.address.split('\n').filter(Boolean)) line(addressLine, 9);
  doc.moveDown(0.6);
  // The operator's product names the statement once its brand is set (record 328); the default reads as before.
  line(
    productName === DEFAULT_PRODUCT_NAME ? 'Royalty statement' : `${productName} royalty statement`,
    20,
    'bold',
  );
  doc.moveDown(0.3);
  line(`Period: ${period} (balance changes in this calendar month, UTC)`, 11);
  line(`Account: ${statement.account.name} <${statement.account.email}>`, 11);
  if (profile) line(`Artist profile: ${profile.name} (this profile's releases only)`, 11);
  if (statement.salesPeriods.length > 0) line(`Sales months: ${statement.salesPeriods.join(', ')}`, 11);

  // Columns: the name gets what the figures leave, and a gap so a long name never touches the units; a
  // section without units (shares, withdrawals) gives their column to the name.
  const cells = (name: string, units: string, amount: string, weight: TextWeight, hasUnits: boolean) => {
    const y = doc.y;
    const nameWidth = (hasUnits ? width * 0.6 : width * 0.78) - 8;
    drawLine(doc, name, left, y, { width: nameWidth, size: 9, weight });
    if (hasUnits) {
      drawLine(doc, units, left + width * 0.6, y, { width: width * 0.18, size: 9, weight, align: 'right' });
    }
    drawLine(doc, amount, left + width * 0.78, y, { width: width * 0.22, size: 9, weight, align: 'right' });
  };
  for (const [title, rows] of [['Summary', summary] as [string, Row[]], ...sections]) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    const hasUnits = rows.some((row) => row.units !== '');
    doc.moveDown(1);
    line(title, 12, 'bold');
    doc.moveDown(0.2);
    cells('Name', 'Units', 'Amount (USD)', 'bold', hasUnits);
    for (const row of rows) {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
      const amount = row.cents === null ? '' : formatCents(row.cents);
      cells(row.label, row.units, amount, row.weight ?? 'regular', hasUnits);
    }
  }
  doc
    .moveDown(2)
    .font(textFontName('regular'))
    .fontSize(8)
    .fillColor('#555555')
    .text(
      `Gross earnings are the stores' figures for your own music before the distribution fee and split shares; ` +
        `each report's gross is credited rounded down to the cent (exactly ${earnings.grossExact} USD this month before rounding), ` +
        'and every row is shown in whole cents so that each section adds up to its total. ' +
        (profile
          ? `The fee of each report is shared among the artist profiles in proportion to their earnings in it. Opening balance + net earnings of ${profile.name} + net earnings of the other profiles + withdrawals + adjustments = closing balance.`
          : 'Opening balance + net earnings + withdrawals + adjustments = closing balance.'),
      left,
    );
  doc.end();
  return done;
}

/**
 * The non-US regime (issue 38): a payee's VAT/GST registration, and self-billing invoices: the operator
 * issues the invoice on the payee's behalf for a statement or a payout, with both parties' details, the net,
 * the VAT at the payee's rate and the total. Numbers come from one counter row taken in the invoice's own
 * transaction, so they have no gaps (a rolled-back invoice gives its number back); one invoice per
 * statement or payout (a second ask answers the first).
 */
import { formatCents } from '@tunedrop/shared';
import { type VatRegistration, vatRegistrationSchema } from '@tunedrop/shared/schemas/tax';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { profiles, taxInvoiceCounter, taxInvoices, taxVatRegistrations } from '../../db/schema';
import { notFound, validationError } from '../../lib/errors';
import { type AuditActor, recordAudit } from '../audit';
import { readStatementIssuer } from '../statements';
import { renderPdf } from './pdf';
import { withheldCentsOf } from './withholding';

export async function readVatRegistration(db: DbOrTx, userId: string): Promise<VatRegistration | null> {
  const [row] = await db.select().from(taxVatRegistrations).where(eq(taxVatRegistrations.userId, userId));
  return row ? { vatNumber: row.vatNumber, ratePercent: row.ratePercent } : null;
}

export async function saveVatRegistration(
  db: Db,
  userId: string,
  input: unknown,
  actor: AuditActor,
): Promise<VatRegistration> {
  const parsed = vatRegistrationSchema.safeParse(input);
  if (!parsed.success)
    throw validationError(parsed.error.issues[0]?.message ?? 'Check the VAT registration.');
  const next = parsed.data;
  await db.transaction(async (tx) => {
    const before = await readVatRegistration(tx, userId);
    await tx
      .insert(taxVatRegistrations)
      .values({ userId, ...next })
      .onConflictDoUpdate({ target: taxVatRegistrations.userId, set: { ...next, updatedAt: new Date() } });
    await recordAudit(tx, actor, {
      kind: 'tax.vat_registration',
      subjectUserId: userId,
      before,
      after: next,
    });
  });
  return next;
}

export type InvoiceFor = { type: 'statement' | 'payout'; id: string; description: string };
export const invoiceNumberText = (number: number) => `SB-${String(number).padStart(6, '0')}`;

/**
 * Issues (or answers the existing) self-billing invoice of a statement or payout, in its own transaction,
 * or a savepoint of the caller's (a payout's invoice is issued in the transaction that pays it).
 */
export async function issueSelfBillingInvoice(
  db: DbOrTx,
  input: { userId: string; reference: InvoiceFor; netCents: number; issuedAt?: Date },
): Promise<typeof taxInvoices.$inferSelect> {
  if (!Number.isSafeInteger(input.netCents) || input.netCents < 0)
    throw validationError('The invoice amount must be whole cents, 0 or more.');
  const issuedAt = input.issuedAt ?? new Date();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(taxInvoices)
      .where(
        and(
          eq(taxInvoices.referenceType, input.reference.type),
          eq(taxInvoices.referenceId, input.reference.id),
        ),
      );
    if (existing) return existing;
    const [payee] = await tx
      .select({ name: profiles.fullName, artist: profiles.artistName, email: profiles.email })
      .from(profiles)
      .where(eq(profiles.id, input.userId));
    if (!payee) throw notFound('No such payee.');
    const vat = await readVatRegistration(tx, input.userId);
    const ratePercent = vat?.ratePercent ?? '0';
    const vatCents = withheldCentsOf(input.netCents, ratePercent);
    // The counter row is locked until this transaction ends: the next invoice waits for this number.
    const [counter] = await tx
      .update(taxInvoiceCounter)
      .set({ lastNumber: sql`${taxInvoiceCounter.lastNumber} + 1` })
      .where(eq(taxInvoiceCounter.id, 1))
      .returning({ number: taxInvoiceCounter.lastNumber });
    if (!counter) throw new Error('invoice counter missing');
    const issuer = await readStatementIssuer(tx);
    const number = invoiceNumberText(counter.number);
    const pdf = await renderPdf({
      title: `Self-billing invoice ${number}`,
      author: issuer.legalName,
      date: issuedAt,
      blocks: [
        { kind: 'title', text: `Self-billing invoice ${number}` },
        {
          kind: 'paragraph',
          text: 'Self-billing: this invoice is issued by the customer on behalf of the supplier, as agreed between them.',
        },
        { kind: 'heading', text: 'Supplier (payee)' },
        { kind: 'field', label: 'Name', value: `${payee.name} (${payee.artist})` },
        { kind: 'field', label: 'Email', value: payee.email },
        { kind: 'field', label: 'VAT/GST number', value: vat?.vatNumber ?? 'not registered' },
        { kind: 'heading', text: 'Customer (issuer)' },
        { kind: 'field', label: 'Name', value: issuer.legalName },
        { kind: 'field', label: 'Address', value: issuer.address.replace(/\n/g, ', ') || '(not set)' },
        { kind: 'heading', text: 'Invoice' },
        { kind: 'field', label: 'Number', value: number },
        { kind: 'field', label: 'Date', value: issuedAt.toISOString().slice(0, 10) },
        { kind: 'field', label: 'For', value: input.reference.description },
        { kind: 'field', label: 'Net amount', value: formatCents(input.netCents) },
        { kind: 'field', label: `VAT/GST at ${ratePercent}%`, value: formatCents(vatCents) },
        { kind: 'field', label: 'Total', value: formatCents(input.netCents + vatCents) },
      ],
    });
    const [created] = await tx
      .insert(taxInvoices)
      .values({
        number: counter.number,
        userId: input.userId,
        referenceType: input.reference.type,
        referenceId: input.reference.id,
        netCents: input.netCents,
        vatRatePercent: ratePercent,
        vatCents,
        totalCents: input.netCents + vatCents,
        pdf,
        createdAt: issuedAt,
      })
      .returning();
    if (!created) throw new Error('invoice not written');
    return created;
  });
}

/** One payee's invoices (their Payouts and Royalties pages), or every payee's (null: the admin's list). */
export async function listInvoices(db: DbOrTx, userId: string | null) {
  const found = await db
    .select({
      id: taxInvoices.id,
      number: taxInvoices.number,
      email: profiles.email,
      referenceType: taxInvoices.referenceType,
      referenceId: taxInvoices.referenceId,
      netCents: taxInvoices.netCents,
      vatRatePercent: taxInvoices.vatRatePercent,
      vatCents: taxInvoices.vatCents,
      totalCents: taxInvoices.totalCents,
      createdAt: taxInvoices.createdAt,
    })
    .from(taxInvoices)
    .innerJoin(profiles, eq(profiles.id, taxInvoices.userId))
    .where(userId === null ? undefined : eq(taxInvoices.userId, userId))
    .orderBy(desc(taxInvoices.number))
    .limit(userId === null ? 500 : 1000);
  return found.map((row) => ({
    ...row,
    numberText: invoiceNumberText(row.number),
    createdAt: row.createdAt.toISOString(),
  }));
}

/** An invoice's PDF: the payee's own (userId), or any (null: the admin). */
export async function invoicePdf(
  db: DbOrTx,
  invoiceId: string,
  userId: string | null,
): Promise<{ pdf: Buffer; name: string }> {
  const [row] = await db
    .select({ pdf: taxInvoices.pdf, number: taxInvoices.number })
    .from(taxInvoices)
    .where(
      userId === null
        ? eq(taxInvoices.id, invoiceId)
        : and(eq(taxInvoices.id, invoiceId), eq(taxInvoices.userId, userId)),
    );
  if (!row) throw notFound('Invoice not found.');
  return { pdf: row.pdf, name: `${invoiceNumberText(row.number)}.pdf` };
}

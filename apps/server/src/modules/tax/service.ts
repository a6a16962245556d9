/**
 * What the tax routes answer (issue 38): the account's standing with its sentence, the admin's list of
 * forms, and a form's stored PDF (the owner's own, or any for an admin).
 */
import { TAX_FORM_LABELS, type TaxSettings, type TaxStanding } from '@tunedrop/shared/schemas/tax';
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, taxForms } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { readTaxSettings } from './settings';
import { standingFacts, standingSummary, type TaxFormRow } from './standing';

function formView(form: TaxFormRow): NonNullable<TaxStanding['form']> {
  return {
    id: form.id,
    kind: form.kind,
    signedAt: form.signedAt.toISOString(),
    signatureName: form.signatureName,
    tinMasked: form.tinMasked,
    country: form.country,
    treatyRatePercent: form.treatyRatePercent,
    expiresOn: form.expiresOn,
    sha256: form.sha256,
  };
}

export async function taxStandingOf(
  db: DbOrTx,
  userId: string,
  asOf = new Date(),
): Promise<{ standing: TaxStanding; settings: TaxSettings }> {
  const settings = await readTaxSettings(db);
  const facts = await standingFacts(db, userId, asOf);
  return {
    settings,
    standing: {
      state: facts.state,
      summary: standingSummary(facts, settings),
      form: facts.form ? formView(facts.form) : null,
    },
  };
}

export type AdminTaxFormRow = NonNullable<TaxStanding['form']> & {
  email: string;
  label: string;
  status: string;
  statusReason: string | null;
};

export async function listTaxForms(db: DbOrTx): Promise<AdminTaxFormRow[]> {
  const found = await db
    .select({ form: taxForms, email: profiles.email })
    .from(taxForms)
    .leftJoin(profiles, eq(profiles.id, taxForms.userId))
    .orderBy(desc(taxForms.createdAt))
    .limit(500);
  return found.map(({ form, email }) => ({
    ...formView(form),
    email: email ?? '',
    label: `${TAX_FORM_LABELS[form.kind]} of ${form.name}`,
    status: form.status,
    statusReason: form.statusReason,
  }));
}

/** A form's PDF: the owner's own (another account's answers 404), or any when `userId` is null (admin). */
export async function taxFormPdf(
  db: DbOrTx,
  formId: string,
  userId: string | null,
): Promise<{ pdf: Buffer; name: string }> {
  const [form] = await db
    .select({ pdf: taxForms.pdf, kind: taxForms.kind, signedAt: taxForms.signedAt })
    .from(taxForms)
    .where(userId ? and(eq(taxForms.id, formId), eq(taxForms.userId, userId)) : eq(taxForms.id, formId));
  if (!form) throw notFound('Tax form not found.');
  return { pdf: form.pdf, name: `${form.kind}-${form.signedAt.toISOString().slice(0, 10)}.pdf` };
}

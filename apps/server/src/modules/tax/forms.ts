/**
 * Signing a tax form (issue 38, IRS Announcement 98-27 for the electronic W-9): the interview's answers are
 * parsed by the shared schema, checked against the treaty table, written as a canonical JSON (sorted keys,
 * the certification text and the revision included), hashed with SHA-256, rendered to a PDF, and stored
 * with the typed-name signature, the time, the signer's address and browser; the earlier form is
 * superseded in the same transaction, audited. The stored form never changes (migration 0075's trigger).
 */
import { createHash } from 'node:crypto';
import { countryLabel } from '@tunedrop/shared/schemas/release-availability';
import {
  formatTin,
  TAX_FORM_LABELS,
  type TaxForm,
  type TaxFormInput,
  taxFormSchema,
  W9_CLASSIFICATION_LABELS,
} from '@tunedrop/shared/schemas/tax';
import {
  W8BEN_CAPACITY,
  W8BEN_CERTIFICATION,
  W8BEN_REVISION,
  W8BENE_CAPACITY,
  W8BENE_CERTIFICATION,
  W8BENE_REVISION,
  W9_CERTIFICATION,
  W9_ELECTRONIC_CONSENT,
  W9_REVISION,
} from '@tunedrop/shared/schemas/tax-certifications';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { taxForms, taxResidency } from '../../db/schema';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { notFound, validationError } from '../../lib/errors';
import { type AuditActor, recordAudit } from '../audit';
import { type PdfBlock, renderPdf } from './pdf';
import { type TaxFormRow, w8ExpiryFor } from './standing';
import { treatyRateAt } from './treaty';

const PURPOSE = 'tax-form';

/** JSON with keys sorted at every level: the same form always gives the same bytes and hash. */
export function canonicalJson(value: unknown): string {
  const sorted = (input: unknown): unknown => {
    if (Array.isArray(input)) return input.map(sorted);
    if (input && typeof input === 'object') {
      return Object.fromEntries(
        Object.entries(input as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, v]) => [k, sorted(v)]),
      );
    }
    return input;
  };
  return JSON.stringify(sorted(value));
}

const mask = (value: string | undefined) => (value ? `••••${value.replace(/[\s-]/g, '').slice(-4)}` : 'none');

function texts(form: TaxForm) {
  if (form.kind === 'w9') {
    return {
      revision: W9_REVISION,
      certification: `${W9_CERTIFICATION}\n${W9_ELECTRONIC_CONSENT}`,
      capacity: null,
    };
  }
  return form.kind === 'w8ben'
    ? { revision: W8BEN_REVISION, certification: W8BEN_CERTIFICATION, capacity: W8BEN_CAPACITY }
    : { revision: W8BENE_REVISION, certification: W8BENE_CERTIFICATION, capacity: W8BENE_CAPACITY };
}

export type SignContext = {
  userId: string;
  signedAt: Date;
  address: string | null;
  userAgent: string | null;
};

function address(a: { street: string; city: string; region?: string; postalCode?: string; country: string }) {
  return [a.street, [a.city, a.region, a.postalCode].filter(Boolean).join(' '), countryLabel(a.country)].join(
    ', ',
  );
}

function pdfBlocks(
  form: TaxForm,
  canonical: Record<string, unknown>,
  sha256: string,
  sign: SignContext,
): PdfBlock[] {
  const { revision, certification, capacity } = texts(form);
  const blocks: PdfBlock[] = [
    { kind: 'title', text: `${TAX_FORM_LABELS[form.kind]}, signed electronically` },
    {
      kind: 'paragraph',
      text: `Substitute form with the content of ${revision}. Give to the withholding agent or payer; do not send to the IRS.`,
    },
    { kind: 'heading', text: 'Identification' },
  ];
  const field = (label: string, value: string | undefined) => {
    if (value) blocks.push({ kind: 'field', label, value });
  };
  if (form.kind === 'w9') {
    field('1 Name', form.name);
    field('2 Business name', form.businessName);
    field('3a Federal tax classification', W9_CLASSIFICATION_LABELS[form.classification]);
    field('5-6 Address', address(form.address));
    field(
      form.tinType === 'ein' ? 'Part I Employer identification number' : 'Part I Social security number',
      formatTin(form.tinType, form.tin),
    );
    field('Certification signed', form.isCertified ? 'Yes' : 'No (taxpayer identification number only)');
    field(
      'Item 2 crossed out (subject to backup withholding)',
      form.isSubjectToBackupWithholding ? 'Yes' : 'No',
    );
  } else {
    field('1 Name', form.name);
    if (form.kind === 'w8ben') {
      field('2 Country of citizenship', countryLabel(form.citizenship));
      field('8 Date of birth', form.dateOfBirth);
    } else {
      field('2 Country of incorporation or organization', countryLabel(form.countryOfOrganization));
      field('4 Chapter 3 status', form.entityType);
      field('5 Chapter 4 status', form.chapter4Status);
    }
    field('Permanent residence address', address(form.permanentAddress));
    if (form.mailingAddress) field('Mailing address', address(form.mailingAddress));
    field('U.S. taxpayer identification number', form.usTin);
    field(
      'Foreign tax identifying number',
      form.foreignTin ?? (form.isForeignTinNotRequired ? 'Not legally required' : undefined),
    );
    if (form.treaty) {
      blocks.push({ kind: 'heading', text: 'Claim of tax treaty benefits' });
      field('Resident of', countryLabel(form.treaty.country));
      field('Article and paragraph', form.treaty.article);
      field('Rate of withholding', `${form.treaty.ratePercent}%`);
      field('Type of income', 'Royalties (income code 12)');
      field('Additional conditions', form.treaty.conditions);
      if (form.kind === 'w8bene') field('Limitation on benefits', form.treaty.limitationOnBenefits);
    }
  }
  blocks.push({ kind: 'heading', text: 'Certification' });
  for (const paragraph of certification.split('\n')) blocks.push({ kind: 'paragraph', text: paragraph });
  if (capacity) blocks.push({ kind: 'paragraph', text: `[x] ${capacity}` });
  blocks.push(
    { kind: 'heading', text: 'Electronic signature' },
    {
      kind: 'field',
      label: 'Signed by typing the name',
      value: String(canonical.signatureName || '(not signed)'),
    },
    { kind: 'field', label: 'Signed at (UTC)', value: sign.signedAt.toISOString() },
    { kind: 'field', label: 'From address', value: sign.address ?? 'unknown' },
    { kind: 'field', label: 'Browser', value: sign.userAgent ?? 'unknown' },
    { kind: 'field', label: 'Account', value: sign.userId },
    { kind: 'field', label: 'SHA-256 of the signed form', value: sha256 },
  );
  return blocks;
}

/** Checks the table can support a treaty claim: the country has a royalty rate, and the claim is not below it. */
async function checkTreaty(db: DbOrTx, form: TaxForm, at: Date): Promise<void> {
  if (form.kind === 'w9' || !form.treaty) return;
  const table = await treatyRateAt(db, form.treaty.country, at);
  if (!table) {
    throw validationError(
      `The United States has no treaty rate on royalties with ${countryLabel(form.treaty.country)}: leave the treaty claim out (30% applies).`,
      { 'treaty.country': 'No treaty rate on royalties for this country.' },
    );
  }
  if (Number(form.treaty.ratePercent) < Number(table.ratePercent)) {
    throw validationError(
      `The treaty rate on royalties for ${countryLabel(form.treaty.country)} is ${table.ratePercent}% (article ${table.article}): claim that rate or more.`,
      { 'treaty.ratePercent': `The treaty rate is ${table.ratePercent}%.` },
    );
  }
}

/** Signs a form for the account: returns the stored row. Bad input changes nothing. */
export async function signTaxForm(
  db: Db,
  appSecret: string,
  input: TaxFormInput,
  sign: SignContext,
  actor: AuditActor,
): Promise<TaxFormRow> {
  const parsed = taxFormSchema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.')] ??= issue.message;
    throw validationError(parsed.error.issues[0]?.message ?? 'Check the form.', fields);
  }
  const form = parsed.data;
  await checkTreaty(db, form, sign.signedAt);
  const { revision, certification, capacity } = texts(form);
  const signatureName = form.kind === 'w9' && !form.isCertified ? '' : form.signatureName;
  const canonical = {
    revision,
    form,
    certification,
    capacity,
    signatureName,
    signedAt: sign.signedAt.toISOString(),
    signer: { userId: sign.userId, address: sign.address, userAgent: sign.userAgent },
  };
  const json = canonicalJson(canonical);
  const sha256 = createHash('sha256').update(json, 'utf8').digest('hex');
  const pdf = await renderPdf({
    title: `${TAX_FORM_LABELS[form.kind]} of ${form.name}`,
    author: form.name,
    date: sign.signedAt,
    blocks: pdfBlocks(form, canonical, sha256, sign),
  });
  const isW9 = form.kind === 'w9';
  const row = {
    userId: sign.userId,
    kind: form.kind,
    name: form.name,
    country: isW9 ? 'US' : form.permanentAddress.country,
    tinMasked: isW9 ? `•••••${form.tin.replace(/[\s-]/g, '').slice(-4)}` : mask(form.foreignTin),
    isCertified: isW9 ? form.isCertified : true,
    isBackupWithholding: isW9 ? form.isSubjectToBackupWithholding : false,
    treatyCountry: isW9 ? null : (form.treaty?.country ?? null),
    treatyArticle: isW9 ? null : (form.treaty?.article ?? null),
    treatyRatePercent: isW9 ? null : (form.treaty?.ratePercent ?? null),
    canonicalEncrypted: encryptSecret(appSecret, PURPOSE, sign.userId, json),
    sha256,
    signatureName,
    signedAt: sign.signedAt,
    signerAddress: sign.address,
    signerUserAgent: sign.userAgent,
    expiresOn: isW9 ? null : w8ExpiryFor(sign.signedAt),
    pdf,
  };
  return db.transaction(async (tx) => {
    await tx
      .update(taxForms)
      .set({ status: 'superseded', statusReason: 'replaced by a newer form', statusAt: sign.signedAt })
      .where(and(eq(taxForms.userId, sign.userId), eq(taxForms.status, 'active')));
    const [created] = await tx.insert(taxForms).values(row).returning();
    if (!created) throw new Error('tax form not written');
    await tx
      .insert(taxResidency)
      .values({ userId: sign.userId, isUsPerson: isW9, updatedAt: sign.signedAt })
      .onConflictDoUpdate({
        target: taxResidency.userId,
        set: { isUsPerson: isW9, updatedAt: sign.signedAt },
      });
    await recordAudit(tx, actor, {
      kind: 'tax.form_signed',
      subject: { type: 'tax_form', id: created.id, label: `${TAX_FORM_LABELS[form.kind]} of ${form.name}` },
      subjectUserId: sign.userId,
      after: {
        kind: form.kind,
        tin: created.tinMasked,
        country: created.country,
        treatyRatePercent: created.treatyRatePercent,
        isCertified: created.isCertified,
        sha256,
      },
    });
    return created;
  });
}

/** The interview's first answer (before a form): kept so a declared foreign payee is withheld at 30%. */
export async function declareResidency(db: DbOrTx, userId: string, isUsPerson: boolean): Promise<void> {
  await db
    .insert(taxResidency)
    .values({ userId, isUsPerson })
    .onConflictDoUpdate({ target: taxResidency.userId, set: { isUsPerson, updatedAt: new Date() } });
}

/** An admin (or a rule) ends a form's use: a W-8 whose payee turned out to have a US address, say. */
export async function invalidateTaxForm(
  db: Db,
  formId: string,
  reason: string,
  actor: AuditActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(taxForms)
      .set({ status: 'invalidated', statusReason: reason, statusAt: new Date() })
      .where(and(eq(taxForms.id, formId), eq(taxForms.status, 'active')))
      .returning({ id: taxForms.id, userId: taxForms.userId, kind: taxForms.kind, name: taxForms.name });
    if (!updated) throw notFound('No active tax form with this id.');
    await recordAudit(tx, actor, {
      kind: 'tax.form_invalidated',
      subject: {
        type: 'tax_form',
        id: updated.id,
        label: `${TAX_FORM_LABELS[updated.kind]} of ${updated.name}`,
      },
      subjectUserId: updated.userId,
      before: { status: 'active' },
      after: { status: 'invalidated', reason },
    });
  });
}

/** The canonical JSON that was signed, decrypted, and whether its SHA-256 still matches the stored one. */
export function verifyStoredForm(appSecret: string, row: TaxFormRow): { json: string; isIntact: boolean } {
  const json = decryptSecret<string>(appSecret, PURPOSE, row.userId, row.canonicalEncrypted, 'tax form');
  return { json, isIntact: createHash('sha256').update(json, 'utf8').digest('hex') === row.sha256 };
}

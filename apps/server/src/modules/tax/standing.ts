/**
 * Where an account stands for tax (issue 38): its active form (W-9, W-8BEN, W-8BEN-E) and the interview's
 * first answer, read as one state with a sentence for the payee. The withholding decision and the artist's
 * page read the same state, so what the page says is what a payout does.
 */
import type { TaxSettings, TaxStanding } from '@tunedrop/shared/schemas/tax';
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taxForms, taxResidency } from '../../db/schema';

export type TaxFormRow = typeof taxForms.$inferSelect;
/** Days before a W-8's expiry when the payee is reminded (and the page says it is expiring). */
export const W8_REMINDER_DAYS = [90, 30, 7] as const;

const day = (at: Date) => at.toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** A W-8 signed in year Y stays valid until the last day of year Y + 3 (IRS: three calendar years after). */
export function w8ExpiryFor(signedAt: Date): string {
  return `${signedAt.getUTCFullYear() + 3}-12-31`;
}

export function daysUntil(expiresOn: string, asOf: Date): number {
  return Math.floor((Date.parse(`${expiresOn}T00:00:00Z`) - Date.parse(`${day(asOf)}T00:00:00Z`)) / DAY_MS);
}

export async function activeTaxForm(db: DbOrTx, userId: string): Promise<TaxFormRow | null> {
  const [row] = await db
    .select()
    .from(taxForms)
    .where(and(eq(taxForms.userId, userId), eq(taxForms.status, 'active')))
    .limit(1);
  return row ?? null;
}

async function latestTaxForm(db: DbOrTx, userId: string): Promise<TaxFormRow | null> {
  const [row] = await db
    .select()
    .from(taxForms)
    .where(eq(taxForms.userId, userId))
    .orderBy(desc(taxForms.createdAt))
    .limit(1);
  return row ?? null;
}

export async function declaredUsPerson(db: DbOrTx, userId: string): Promise<boolean | null> {
  const [row] = await db
    .select({ isUsPerson: taxResidency.isUsPerson })
    .from(taxResidency)
    .where(eq(taxResidency.userId, userId));
  return row?.isUsPerson ?? null;
}

export type StandingFacts = {
  state: TaxStanding['state'];
  form: TaxFormRow | null;
};

/** The state alone (no sentence): what withholdingFor decides on. */
export async function standingFacts(db: DbOrTx, userId: string, asOf: Date): Promise<StandingFacts> {
  const form = await activeTaxForm(db, userId);
  if (form?.kind === 'w9') {
    const state = form.isBackupWithholding
      ? 'w9_backup'
      : form.isCertified
        ? 'w9_certified'
        : 'w9_uncertified';
    return { state, form };
  }
  if (form) {
    const left = form.expiresOn ? daysUntil(form.expiresOn, asOf) : 0;
    if (left < 0) return { state: 'w8_expired', form };
    return { state: left <= W8_REMINDER_DAYS[0] ? 'w8_expiring' : 'w8_valid', form };
  }
  const latest = await latestTaxForm(db, userId);
  if (latest && latest.kind !== 'w9' && latest.status === 'invalidated')
    return { state: 'w8_invalid', form: latest };
  const isUs = await declaredUsPerson(db, userId);
  return { state: isUs === false ? 'foreign_no_form' : 'none', form: null };
}

/** The sentence the payee reads: what their next payout does, in plain words. */
export function standingSummary(facts: StandingFacts, settings: TaxSettings): string {
  if (settings.regime === 'non_us')
    return 'No US tax form is needed: no US tax is withheld from your payouts.';
  const scope = settings.scope === 'us_territory' ? ' on earnings from sales in the United States' : '';
  const noW9 =
    settings.noW9Policy === 'block'
      ? 'Payouts are on hold until you sign Form W-9 (or Form W-8 if you are not a US person).'
      : `24% US backup withholding applies${scope} until you sign Form W-9.`;
  const form = facts.form;
  switch (facts.state) {
    case 'w9_certified':
      return 'Your Form W-9 is on file: no US tax is withheld from your payouts.';
    case 'w9_backup':
      return `The IRS told you backup withholding applies: 24% is withheld${scope}.`;
    case 'w9_uncertified':
      return `Your Form W-9 is not certified. ${noW9}`;
    case 'w8_valid':
    case 'w8_expiring': {
      const rate = form?.treatyRatePercent ?? '30';
      const until = form?.expiresOn ? ` It is valid until ${form.expiresOn}.` : '';
      return `Your Form ${form?.kind === 'w8bene' ? 'W-8BEN-E' : 'W-8BEN'} is on file: ${rate}% US tax is withheld${scope}.${until}`;
    }
    case 'w8_expired':
      return `Your Form W-8 expired on ${form?.expiresOn}: 30% US tax is withheld${scope} until you sign a new one.`;
    case 'w8_invalid':
      return `Your Form W-8 can no longer be used (${form?.statusReason ?? 'it was invalidated'}): 30% US tax is withheld${scope} until you sign a new one.`;
    case 'foreign_no_form':
      return `You are not a US person and have no valid Form W-8: 30% US tax is withheld${scope} until you sign one.`;
    case 'none':
      return `No tax form on file. ${noW9}`;
  }
}

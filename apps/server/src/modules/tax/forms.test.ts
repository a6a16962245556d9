/**
 * Signing tax forms (issue 38): the canonical form, its SHA-256 and the PDF are kept and never change (the
 * database refuses it; only the status moves); a new form supersedes the old; bad input is refused with
 * the shared schema's messages and changes nothing; a treaty claim is checked against the table.
 */
import { TAX_MESSAGES } from '@tunedrop/shared/schemas/tax';
import { W8BEN_CERTIFICATION } from '@tunedrop/shared/schemas/tax-certifications';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, taxForms } from '../../db/schema';
import { run } from '../../lib/sql';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cliAuditActor } from '../audit';
import { signTaxForm, verifyStoredForm } from './forms';
import { standingFacts } from './standing';
import { w8benForm, w9Form } from './tax-fixtures';

let system: TestSystem;
const actor = cliAuditActor();
const SIGNED = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const sign = (userId: string, form: Parameters<typeof signTaxForm>[2]) =>
  signTaxForm(
    system.db,
    system.config.appSecret,
    form,
    { userId, signedAt: SIGNED, address: '198.51.100.7', userAgent: 'vitest' },
    actor,
  );

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: Error & { cause?: Error; fields?: Record<string, string> }) =>
      `${error.message} ${error.cause?.message ?? ''} ${JSON.stringify(error.fields ?? {})}`,
  );

describe('signTaxForm', () => {
  it('keeps the canonical form, its hash, the signature and a PDF; expiry at the end of the third year', async () => {
    const { userId } = await createTestUser(system);
    const form = await sign(userId, w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }));
    expect(form).toMatchObject({
      kind: 'w8ben',
      status: 'active',
      country: 'DE',
      tinMasked: '••••8901',
      treatyRatePercent: '0',
      expiresOn: '2029-12-31',
      signatureName: 'Dora Deutsch',
      signerAddress: '198.51.100.7',
    });
    expect(form.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(form.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { json, isIntact } = verifyStoredForm(system.config.appSecret, form);
    expect(isIntact).toBe(true);
    expect(JSON.parse(json)).toMatchObject({
      certification: W8BEN_CERTIFICATION,
      signatureName: 'Dora Deutsch',
    });
    const [audit] = await system.db.select().from(auditLog).where(eq(auditLog.subjectId, form.id));
    expect(audit).toMatchObject({ action: 'tax.form_signed' });
    expect(JSON.stringify(audit?.after)).not.toContain('12345678901');
  });

  it('the database refuses to change or delete what was signed; a new form supersedes the old', async () => {
    const { userId } = await createTestUser(system);
    const first = await sign(userId, w9Form('Uma States'));
    expect(
      await refusal(run(system.db, sql`update tax_forms set sha256 = 'x' where id = ${first.id}`)),
    ).toMatch(/a signed form never changes/);
    expect(await refusal(run(system.db, sql`delete from tax_forms where id = ${first.id}`))).toMatch(
      /never deleted/,
    );
    const second = await sign(userId, w9Form('Uma States', { tin: '123-45-6780' }));
    const all = await system.db
      .select({ id: taxForms.id, status: taxForms.status })
      .from(taxForms)
      .where(eq(taxForms.userId, userId));
    expect(all).toEqual(
      expect.arrayContaining([
        { id: first.id, status: 'superseded' },
        { id: second.id, status: 'active' },
      ]),
    );
    expect((await standingFacts(system.db, userId, SIGNED)).state).toBe('w9_certified');
  });

  it('refuses bad input with the shared messages and stores nothing', async () => {
    const { userId } = await createTestUser(system);
    expect(await refusal(sign(userId, w9Form('Uma States', { tin: '000-12-3456' })))).toContain(
      TAX_MESSAGES.ssn,
    );
    expect(
      await refusal(sign(userId, w9Form('Uma States', { tinType: 'ein', tin: '07-1234567' }))),
    ).toContain(TAX_MESSAGES.ein);
    expect(await refusal(sign(userId, w9Form('Uma States', { signatureName: 'Someone Else' })))).toContain(
      TAX_MESSAGES.signature,
    );
    expect(
      await refusal(
        sign(
          userId,
          w8benForm('Dora Deutsch', 'DE', null, {
            permanentAddress: { street: '1 Main St', city: 'Austin', country: 'US' },
          }),
        ),
      ),
    ).toContain(TAX_MESSAGES.usAddressOnW8);
    expect(
      await refusal(
        sign(
          userId,
          w8benForm('Dora Deutsch', 'DE', null, {
            mailingAddress: { street: '5 Elm St', city: 'Boston', country: 'US' },
          }),
        ),
      ),
    ).toContain(TAX_MESSAGES.usAddressOnW8);
    expect(
      await refusal(sign(userId, w8benForm('Dora Deutsch', 'DE', null, { foreignTin: undefined }))),
    ).toContain(TAX_MESSAGES.foreignTin);
    expect(
      await refusal(
        sign(
          userId,
          w8benForm(
            'Bruna Brasil',
            'BR',
            { article: '12', ratePercent: '0' },
            {
              permanentAddress: { street: 'Rua Augusta 100', city: 'São Paulo', country: 'BR' },
            },
          ),
        ),
      ),
    ).toContain('The United States has no treaty rate on royalties with Brazil (BR)');
    expect(
      await refusal(sign(userId, w8benForm('Ines India', 'IN', { article: '12(2)', ratePercent: '5' }))),
    ).toContain('The treaty rate on royalties for India (IN) is 15%');
    expect(await system.db.select().from(taxForms).where(eq(taxForms.userId, userId))).toEqual([]);
  });
});

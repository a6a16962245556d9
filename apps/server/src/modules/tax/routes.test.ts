/**
 * The tax routes (issue 38) as a browser calls them: the owner signs a W-9 and reads where they stand, a bad
 * TIN answers 422 with the shared message and stores nothing, the PDF is the owner's only; the admin saves
 * the settings and a treaty rate (audited), lists forms, invalidates a W-8 (the payee then stands at 30%)
 * and downloads the year's CSV.
 */
import { DEFAULT_TAX_SETTINGS, TAX_MESSAGES } from '@tunedrop/shared/schemas/tax';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { w8benForm, w9Form } from './tax-fixtures';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ roles: ['admin'] });
});
afterAll(async () => system?.close());

describe('tax routes', () => {
  it('the owner signs a W-9, reads the standing and downloads the PDF; another account cannot', async () => {
    // The default policy (block payouts without a W-9), whatever another case saved.
    const put = await system.request('/api/admin/tax/settings', {
      method: 'PUT',
      cookie: admin.cookie,
      json: DEFAULT_TAX_SETTINGS,
    });
    expect(put.status).toBe(200);
    const artist = await system.signedInUser();
    const bad = await system.request('/api/tax/forms', {
      method: 'POST',
      cookie: artist.cookie,
      json: w9Form('Uma States', { tin: '666-12-3456' }),
    });
    expect(bad.status).toBe(422);
    expect((await readJson(bad)).error.message).toBe(TAX_MESSAGES.ssn);
    const none = await readJson(await system.request('/api/tax/standing', { cookie: artist.cookie }));
    expect(none.standing).toMatchObject({
      state: 'none',
      summary:
        'No tax form on file. Payouts are on hold until you sign Form W-9 (or Form W-8 if you are not a US person).',
      form: null,
    });
    const signed = await system.request('/api/tax/forms', {
      method: 'POST',
      cookie: artist.cookie,
      json: w9Form('Uma States'),
      headers: { 'user-agent': 'journey-browser' },
    });
    expect(signed.status).toBe(201);
    const { standing } = await readJson(signed);
    expect(standing).toMatchObject({
      state: 'w9_certified',
      summary: 'Your Form W-9 is on file: no US tax is withheld from your payouts.',
      form: { kind: 'w9', tinMasked: '•••••6789', signatureName: 'Uma States' },
    });
    const pdf = await system.request(`/api/tax/forms/${standing.form.id}/pdf`, { cookie: artist.cookie });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const other = await system.signedInUser();
    expect(
      (await system.request(`/api/tax/forms/${standing.form.id}/pdf`, { cookie: other.cookie })).status,
    ).toBe(404);
  });

  it('the admin sets the policy and a treaty rate, lists and invalidates a W-8, and downloads the CSV', async () => {
    const put = await system.request('/api/admin/tax/settings', {
      method: 'PUT',
      cookie: admin.cookie,
      json: { regime: 'us_withholding_agent', noW9Policy: 'withhold', scope: 'all' },
    });
    expect(await readJson(put)).toEqual({
      regime: 'us_withholding_agent',
      noW9Policy: 'withhold',
      scope: 'all',
    });
    const rate = await system.request('/api/admin/tax/treaty-rates', {
      method: 'POST',
      cookie: admin.cookie,
      json: { country: 'FR', ratePercent: '5', article: '12(2)', effectiveFrom: '2030-01-01' },
    });
    expect(rate.status).toBe(201);
    const rates = (
      await readJson(await system.request('/api/admin/tax/treaty-rates', { cookie: admin.cookie }))
    ).rates;
    expect(rates.filter((row: { country: string }) => row.country === 'FR')).toMatchObject([
      { ratePercent: '0', effectiveTo: '2029-12-31' },
      { ratePercent: '5', effectiveFrom: '2030-01-01', effectiveTo: null },
    ]);

    const artist = await system.signedInUser();
    const w8 = await system.request('/api/tax/forms', {
      method: 'POST',
      cookie: artist.cookie,
      json: w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }),
    });
    const { standing } = await readJson(w8);
    expect(standing.summary).toMatch(
      /^Your Form W-8BEN is on file: 0% US tax is withheld\. It is valid until \d{4}-12-31\.$/,
    );
    const list = (await readJson(await system.request('/api/admin/tax/forms', { cookie: admin.cookie })))
      .forms;
    expect(list[0]).toMatchObject({
      id: standing.form.id,
      email: artist.email,
      status: 'active',
      label: 'Form W-8BEN of Dora Deutsch',
    });
    const invalidated = await system.request(`/api/admin/tax/forms/${standing.form.id}/invalidate`, {
      method: 'POST',
      cookie: admin.cookie,
      json: { reason: 'a US mailing address came to light' },
    });
    expect(invalidated.status).toBe(200);
    const after = await readJson(await system.request('/api/tax/standing', { cookie: artist.cookie }));
    expect(after.standing).toMatchObject({
      state: 'w8_invalid',
      summary:
        'Your Form W-8 can no longer be used (a US mailing address came to light): 30% US tax is withheld until you sign a new one.',
    });
    const csv = await system.request('/api/admin/tax/reports/2026/1042-s', { cookie: admin.cookie });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toContain('box7a_federal_tax_withheld');
  });

  it('a payee registers a VAT number (refused when malformed) and lists their self-billing invoices', async () => {
    const artist = await system.signedInUser();
    const bad = await system.request('/api/tax/vat', {
      method: 'PUT',
      cookie: artist.cookie,
      json: { vatNumber: '?', ratePercent: '19' },
    });
    expect(bad.status).toBe(422);
    expect((await readJson(bad)).error.message).toBe('Enter the VAT or GST number, such as DE123456789.');
    const good = await system.request('/api/tax/vat', {
      method: 'PUT',
      cookie: artist.cookie,
      json: { vatNumber: 'fr12345678901', ratePercent: '20' },
    });
    expect(await readJson(good)).toEqual({ vat: { vatNumber: 'FR12345678901', ratePercent: '20' } });
    expect(await readJson(await system.request('/api/tax/invoices', { cookie: artist.cookie }))).toEqual({
      invoices: [],
    });
  });
});

/**
 * Journey (issue 38): the operator pays through PayPal Payouts, against a local PayPal that speaks its
 * documented API. Settings: PayPal with a wrong secret fails "Test connection" with PayPal's refusal, the
 * right one connects. Payouts: the preview names who is paid (PayPal, 0% under a certified W-9) and who is
 * blocked and why (no W-9 under "block"); the run is sent as one PayPal batch; PayPal reports one payout
 * SUCCESS and one FAILED, "Check PayPal now" shows Paid and Returned with the reason; "Pay again" sends the
 * returned one in a run of its own, whose batch creation PayPal answers 500 three times (still one batch);
 * its UNCLAIMED and RETURNED webhooks, each delivered twice and out of order, give the money back once.
 *
 * A run pays every balance due, so this journey runs with the site-wide ones (after the others), not
 * beside journeys whose balances it would sweep.
 */
import { w9Form } from '../apps/server/src/modules/tax/tax-fixtures';
import { type PaypalFake, startPaypalFake } from '../apps/server/src/test-support/paypal-fake';
import { e2eEnv } from './support/env';
import { apiAs, expect, pageAs, type SeededUser, seed, seriousA11yViolations, test } from './support/test';

let fake: PaypalFake;
/** The payee the first journey paid through PayPal: the second finds them on the year's 1099-MISC. */
let paidPayee: SeededUser | null = null;

// The second journey reads what the first paid, and switches the tax regime: one after the other.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  fake = await startPaypalFake();
});

test.afterAll(async () => {
  await fake?.close();
});

async function payee(balanceCents: number, hasW9: boolean): Promise<SeededUser> {
  const user = await seed.user({ plan: 'basic', balanceCents });
  const saved = await apiAs(user, 'PUT', '/api/wallet/payment-settings', {
    payment_method: 'paypal',
    payment_details: { paypal_email: `receiver.${user.userId.slice(0, 8)}@example.com` },
  });
  expect(saved.status).toBe(200);
  if (hasW9) await seed.taxForm({ userId: user.userId, form: w9Form('Payee Person') });
  return user;
}

test('an admin sets up PayPal, previews and runs payouts, and follows their outcome', async ({ browser }) => {
  test.setTimeout(120_000);
  const paid = await payee(7_500, true);
  const failing = await payee(6_000, true);
  const blocked = await payee(5_500, false);
  const { page, context, user: admin } = await pageAs(browser, { roles: ['admin'] });

  await page.goto('/admin/settings');
  const card = page.getByTestId('payout-settings');
  await expect(card.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  const paypal = card.getByTestId('provider-paypal');
  await paypal.getByRole('checkbox', { name: 'Pay PayPal payees through PayPal Payouts' }).check();
  await paypal.getByLabel('Client ID', { exact: true }).fill(fake.clientId);
  await paypal.getByLabel('Client secret', { exact: true }).fill('not-the-secret');
  await paypal.getByLabel('Webhook ID', { exact: true }).fill(fake.webhookId);
  await paypal.getByLabel('API base URL', { exact: true }).fill(fake.url);
  await paypal.getByRole('button', { name: 'Save PayPal settings' }).click();
  await expect(paypal.getByLabel('Client secret', { exact: true })).toHaveValue('');
  await expect(paypal).toContainText('Enabled · client ID …0001');
  await paypal.getByRole('button', { name: 'Test connection' }).click();
  await expect(paypal.getByTestId('provider-test-paypal')).toContainText(
    'Failed: PayPal refused the credentials (HTTP 401)',
  );
  await paypal.getByLabel('Client ID', { exact: true }).fill(fake.clientId);
  await paypal.getByLabel('Client secret', { exact: true }).fill(fake.clientSecret);
  await paypal.getByLabel('Webhook ID', { exact: true }).fill(fake.webhookId);
  await paypal.getByRole('button', { name: 'Save PayPal settings' }).click();
  // Saved: the form empties the credentials it sent (a test before that would use the old ones).
  await expect(paypal.getByLabel('Client secret', { exact: true })).toHaveValue('');
  await paypal.getByRole('button', { name: 'Test connection' }).click();
  await expect(paypal.getByTestId('provider-test-paypal')).toContainText(
    'Connected: PayPal accepted the credentials.',
  );
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Preview a run' }).click();
  const preview = page.getByTestId('payout-preview');
  const previewRow = (user: SeededUser) => preview.getByTestId('preview-row').filter({ hasText: user.email });
  await expect(previewRow(paid)).toContainText('PayPal Payouts');
  await expect(previewRow(paid)).toContainText('$75.00');
  await expect(previewRow(paid)).toContainText('0%');
  await expect(previewRow(failing)).toContainText('$60.00');
  await expect(previewRow(blocked)).toContainText(
    'Blocked: No Form W-9 on file: payouts are on hold until a certified Form W-9',
  );
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Run payouts now' }).click();
  await page
    .getByRole('alertdialog', { name: 'Run payouts now?' })
    .getByRole('button', { name: 'Run payouts' })
    .click();
  await expect(page).toHaveURL(/\/admin\/payouts\/[0-9a-f-]{36}$/);
  const runId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('run-state')).toHaveText('Sent', { timeout: 30_000 });
  const item = (user: SeededUser) => page.locator(`[data-testid="run-item"][data-email="${user.email}"]`);
  await expect(item(paid)).toContainText('Sent');
  await expect(item(paid)).toContainText('FAKEITEM');
  await expect(item(failing)).toContainText('Sent');
  await expect(item(blocked)).toContainText('Blocked');
  await expect(page.getByRole('list', { name: 'Provider batches' })).toContainText(
    `PayPal Payouts: tunedrop-${runId}-paypal → FAKEBATCH`,
  );

  // PayPal's word, read by polling: one paid, one failed (its money back on the payee's balance).
  fake.setStatus(`${runId}:${paid.userId}`, 'SUCCESS');
  fake.setStatus(`${runId}:${failing.userId}`, 'FAILED');
  await page.getByRole('button', { name: 'Check PayPal now' }).click();
  await expect(item(paid)).toContainText('Paid');
  await expect(item(failing)).toContainText('Returned: PayPal: failed');
  paidPayee = paid;
  const back = await apiAs(failing, 'GET', '/api/payouts');
  expect(back.json).toMatchObject({ balanceCents: 6_000 });
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Paid again: a run of that payee alone, sent to PayPal under its own batch. PayPal answers its creation
  // 500 three times (the first having made the batch): retried, it is still exactly one batch.
  const callsBefore = fake.createCalls();
  fake.failCreations(3);
  await item(failing)
    .getByRole('button', { name: `Pay again: ${failing.email}` })
    .click();
  await expect(page).not.toHaveURL(new RegExp(runId));
  await expect(page.getByTestId('run-state')).toHaveText('Sent', { timeout: 30_000 });
  await expect(page.getByTestId('run-item')).toHaveCount(1);
  await expect(item(failing)).toContainText('Sent');
  expect(fake.createCalls()).toBe(callsBefore + 4);
  expect(fake.batches).toHaveLength(2);
  const againRunId = page.url().split('/').pop() ?? '';

  // PayPal's webhooks: UNCLAIMED then RETURNED, each delivered twice and out of order, give the money back once.
  const key = `${againRunId}:${failing.userId}`;
  const unclaimed = fake.webhook(key, 'UNCLAIMED', { eventId: `WH-UNCLAIMED-${againRunId}` });
  const returned = fake.webhook(key, 'RETURNED', { eventId: `WH-RETURNED-${againRunId}` });
  for (const hook of [unclaimed, returned, unclaimed, returned]) {
    const delivered = await fetch(`${e2eEnv.baseUrl}/api/payouts/webhooks/paypal`, {
      method: 'POST',
      headers: hook.headers,
      body: hook.body,
    });
    expect(delivered.status).toBe(200);
  }
  await page.reload();
  await expect(item(failing)).toContainText('Returned');
  const once = await apiAs(failing, 'GET', '/api/payouts');
  expect(once.json).toMatchObject({ balanceCents: 6_000 });

  // PayPal off again: the journeys after this one pay by the bank file.
  const off = await apiAs(admin, 'PUT', '/api/admin/payouts/providers', {
    provider: 'paypal',
    enabled: false,
  });
  expect(off.status).toBe(200);
  await context.close();
});

test("the admin's Tax card: signed forms, the year's 1099-MISC with the payout, and a non-US payee's self-billing invoice", async ({
  browser,
}) => {
  const { page, context, user: admin } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/settings');
  const card = page.getByTestId('admin-tax');
  await expect(card.getByRole('heading', { name: 'Tax', exact: true })).toBeVisible();
  const year = new Date().getUTCFullYear();
  await card.getByLabel('Tax year', { exact: true }).selectOption(String(year));
  await expect(card).toContainText(`Year-end files for ${year}:`);
  const paid = paidPayee;
  if (!paid) throw new Error('the payouts journey did not pay anyone');
  await expect(
    card.getByRole('table', { name: 'Signed tax forms' }).getByRole('row', { name: new RegExp(paid.email) }),
  ).toContainText('Form W-9');

  // The year's 1099-MISC holds the payout the first journey made (royalties $75.00, nothing withheld);
  // the server refuses a report whose totals differ from the journal's paid and withheld totals.
  const href1099 = await card.getByRole('link', { name: '1099-MISC (CSV)' }).getAttribute('href');
  expect(href1099).toBe(`/api/admin/tax/reports/${year}/1099-misc`);
  const report = await page.request.get(href1099 ?? '');
  expect(report.status()).toBe(200);
  expect(report.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const lines = (await report.text()).trim().split(/\r?\n/);
  expect(lines[0]).toBe(
    'tax_year,recipient_name,recipient_tin,recipient_address,email,box2_royalties,box4_federal_income_tax_withheld,filing_required',
  );
  const row = lines.find((line) => line.includes(paid.email));
  expect(row).toContain(',75.00,0.00,yes');
  const href1042 = await card.getByRole('link', { name: '1042-S (CSV)' }).getAttribute('href');
  expect((await page.request.get(href1042 ?? '')).status()).toBe(200);
  expect(await seriousA11yViolations(page)).toEqual([]);

  // A non-US operator: the payee registered for VAT gets a self-billing invoice when the payout is paid.
  await card.getByLabel('Tax regime', { exact: true }).selectOption('non_us');
  await card.getByRole('button', { name: 'Save tax settings' }).click();
  await expect(page.getByText('Tax settings saved.')).toBeVisible();
  const vatPayee = await seed.user({ plan: 'basic', balanceCents: 8_000 });
  expect(
    (
      await apiAs(vatPayee, 'PUT', '/api/wallet/payment-settings', {
        payment_method: 'bank',
        payment_details: {
          account_name: 'Vera Vat',
          account_number: '000123456789',
          routing_number: '021000021',
          bank_name: 'First Bank',
        },
      })
    ).status,
  ).toBe(200);
  expect(
    (await apiAs(vatPayee, 'PUT', '/api/tax/vat', { vatNumber: 'DE123456789', ratePercent: '19' })).status,
  ).toBe(200);
  const run = await seed.payoutRun({ userId: vatPayee.userId });
  expect(run.totals).toMatchObject({ payees: 1, blocked: 0 });
  await expect
    .poll(
      async () =>
        ((await apiAs(vatPayee, 'GET', '/api/payouts')).json as { payouts: { state: string }[] }).payouts[0]
          ?.state,
      {
        timeout: 30_000,
      },
    )
    .toBe('sent');
  const payouts = (await apiAs(vatPayee, 'GET', '/api/payouts')).json as { payouts: { id: string }[] };
  expect(
    (
      await apiAs(admin, 'POST', `/api/admin/payouts/items/${payouts.payouts[0]?.id}/mark`, {
        outcome: 'paid',
      })
    ).status,
  ).toBe(200);

  await page.reload();
  const invoices = page.getByTestId('admin-invoices');
  await invoices.locator('summary').click();
  const invoice = invoices.getByRole('row', { name: new RegExp(vatPayee.email) });
  await expect(invoice).toContainText('$80.00');
  await expect(invoice).toContainText('$15.20 (19%)');
  await expect(invoice).toContainText('$95.20');
  const pdfHref = await invoice.getByRole('link', { name: /^PDF SB-\d{6}$/ }).getAttribute('href');
  const pdf = await page.request.get(pdfHref ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const mine = (await apiAs(vatPayee, 'GET', '/api/tax/invoices')).json as {
    invoices: { totalCents: number }[];
  };
  expect(mine.invoices.map((item) => item.totalCents)).toEqual([9_520]);

  // Back to the US regime the other journeys expect.
  const back = await apiAs(admin, 'PUT', '/api/admin/tax/settings', {
    regime: 'us_withholding_agent',
    noW9Policy: 'block',
    scope: 'us_territory',
  });
  expect(back.status).toBe(200);
  await context.close();
});

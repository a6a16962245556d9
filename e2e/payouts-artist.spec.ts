/**
 * Journey (issue 38): an artist's Payouts page. With no payout yet it says so, and names what stops the
 * next payout in plain words: no payout method, then (a US person by default) no Form W-9 under the
 * operator's "block" policy. With a bank account saved and a W-9 signed it shows the next payout's figures;
 * a run pays the balance through the bank file, the payout shows Sent with the file's reference, then Paid
 * once the operator marks it (the bank's confirmation), and the balance is $0.00. A change to PayPal then
 * waits for confirmation by email (record 314): the page says the bank account stays in force, Resend mails
 * a new link, the replaced link is refused, the new one confirms once and starts the hold.
 */
import { w9Form } from '../apps/server/src/modules/tax/tax-fixtures';
import { payoutConfirmationPath } from './support/payout-details';
import { apiAs, expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an artist sets up payouts, sees what blocks them, then a payout sent and paid', async ({ browser }) => {
  const { page, context, user } = await pageAs(browser, {
    plan: 'pro',
    balanceCents: 12_345,
    totalEarningsCents: 20_000,
  });
  await page.goto('/dashboard/payouts');
  await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  await expect(page.getByTestId('payouts-empty')).toHaveText(
    'No payouts yet. Each payout appears here once a payout run pays your balance.',
  );
  await expect(page.getByTestId('payout-balance')).toHaveText('$123.45');
  await expect(page.getByTestId('payout-minimum')).toHaveText('$20.00');
  await expect(page.getByTestId('payout-method')).toHaveText(
    'None yet: add one under Payment Settings below.',
  );
  const blockers = page.getByTestId('payout-blockers');
  await expect(blockers).toContainText('What stops your next payout');
  await expect(blockers).toContainText('No payout details: add a payout method on the Payouts page.');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The method is set on this page; the next blocker is the missing tax form.
  await page.getByRole('radio', { name: 'Bank Account' }).check();
  await page.getByLabel('Account Name').fill('Pat Payee');
  await page.getByLabel('Account Number').fill('000123456789');
  await page.getByLabel('Routing Number').fill('021000021');
  await page.getByLabel('Bank Name').fill('First Bank');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByTestId('payout-method')).toHaveText('Bank account •••• 6789 (First Bank)');
  await expect(blockers).toContainText('payouts are on hold until a certified Form W-9');
  await expect(blockers).not.toContainText('No payout details');

  await seed.taxForm({ userId: user.userId, form: w9Form('Pat Payee') });
  await page.reload();
  await expect(page.getByTestId('tax-standing')).toHaveText(
    'Your Form W-9 is on file: no US tax is withheld from your payouts.',
  );
  const next = page.getByTestId('next-payout');
  await expect(next).toContainText('$123.45 from your balance: you receive $123.45.');
  await expect(page.getByTestId('payout-blockers')).toHaveCount(0);

  // The run pays the whole balance; the page follows the payout while it is on its way.
  const run = await seed.payoutRun({ userId: user.userId });
  expect(run.totals).toMatchObject({ payees: 1, blocked: 0 });
  await page.reload();
  const row = page.getByTestId('payout-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Sent on', { timeout: 30_000 });
  await expect(row).toContainText(`${run.runId}:${user.userId}`);
  await expect(page.getByTestId('payout-balance')).toHaveText('$0.00');
  await expect(page.getByTestId('payouts-empty')).toHaveCount(0);

  // The operator marks it paid (the bank file's confirmation); the page shows it without a reload.
  const admin = await seed.user({ roles: ['admin'] });
  const payouts = (await (await page.request.get('/api/payouts')).json()) as { payouts: { id: string }[] };
  const marked = await apiAs(admin, 'POST', `/api/admin/payouts/items/${payouts.payouts[0]?.id}/mark`, {
    outcome: 'paid',
  });
  expect(marked.status).toBe(200);
  await expect(row).toContainText('Paid on', { timeout: 15_000 });
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // A change of payout details waits for the owner's confirmation by email (record 314): the bank account
  // stays in force, the page says so with Resend; the mailed link confirms once and starts the hold.
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByLabel('PayPal Email').fill('pat.new@example.com');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  const pending = page.getByTestId('pending-payout-details');
  await expect(pending).toContainText('Your new payout details (PayPal');
  await expect(pending).toContainText('until it is opened, payouts still go to Bank account •••• 6789');
  await expect(page.getByTestId('payout-method')).toHaveText('Bank account •••• 6789 (First Bank)');
  expect(await seriousA11yViolations(page)).toEqual([]);
  const first = await payoutConfirmationPath(user.email);
  await pending.getByRole('button', { name: 'Resend' }).click();
  const link = await payoutConfirmationPath(user.email, first);

  // The replaced link is refused in plain words; the new one confirms, once.
  await page.goto(first);
  await page.getByRole('button', { name: 'Confirm new payout details' }).click();
  const card = page.getByTestId('confirm-payout-details');
  await expect(card.getByRole('alert')).toHaveText(
    'This confirmation link was already used or replaced by a newer one. Open the Payouts page to see your payout details.',
  );
  await page.goto(link);
  await expect(card).toContainText('Payouts will go to PayPal');
  await card.getByRole('button', { name: 'Confirm new payout details' }).click();
  await expect(card.getByRole('status')).toContainText(
    'Your new payout details are confirmed. To protect your money, payouts are on hold until',
  );
  await expect(page.getByTestId('payout-method')).toContainText('PayPal');
  await expect(page.getByTestId('pending-payout-details')).toHaveCount(0);
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm new payout details' }).click();
  await expect(page.getByTestId('confirm-payout-details').getByRole('alert')).toContainText(
    'already used or replaced',
  );
  await context.close();
});

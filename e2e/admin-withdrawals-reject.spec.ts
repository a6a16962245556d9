/** Journey: an admin rejects a withdrawal with a reason; the artist's balance is restored. */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a withdrawal rejected with a reason restores the artist balance', async ({ browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const artist = await pageAs(browser, {
    plan: 'pro',
    artistName: `Payee ${tag}`,
    email: `payee-${tag}@example.com`,
    balanceCents: 9000,
  });
  const saved = await artist.context.request.put('/api/wallet/payment-settings', {
    data: { payment_method: 'paypal', payment_details: { paypal_email: `payee-${tag}@paypal.example` } },
  });
  expect(saved.status()).toBe(200);
  const requested = await artist.context.request.post('/api/wallet/withdrawals', {
    data: { amount: '60.00' },
  });
  expect(requested.status()).toBe(201);
  await artist.page.goto('/dashboard/royalties');
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$30.00');
  await expect(artist.page.getByTestId('pending-balance')).toHaveText('$60.00');

  const admin = await pageAs(browser, { roles: ['admin'] });
  const page = admin.page;
  await page.goto('/admin/withdrawals');
  await expect(page.getByRole('heading', { name: 'Withdrawal Management' })).toBeVisible();
  await page.getByLabel('Search by artist name or email').fill(`payee ${tag}`);
  const card = page.getByTestId('withdrawal-card').filter({ hasText: `Payee ${tag}` });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('$60.00');
  await expect(card).toContainText(`payee-${tag}@paypal.example`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await card.getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject Withdrawal' });
  await dialog.getByRole('button', { name: 'Reject Withdrawal' }).click();
  await expect(page.getByText('Rejection reason required')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText('Please provide a reason for rejecting this request.');
  await expect(
    page.locator('[data-sonner-toast]').getByText('Please provide a reason for rejecting this request.'),
  ).toBeVisible();
  await dialog.getByLabel('Reason').fill('PayPal address does not accept payments');
  await dialog.getByRole('button', { name: 'Reject Withdrawal' }).click();
  await expect(
    page.getByText(`$60.00 has been returned to payee-${tag}@example.com's balance.`),
  ).toBeVisible();
  await expect(card).toHaveCount(0);

  await page.getByRole('tab', { name: /Completed/ }).click();
  const done = page.getByTestId('withdrawal-card').filter({ hasText: `Payee ${tag}` });
  await expect(done).toContainText('Rejected');
  await expect(done).toContainText('Reason: PayPal address does not accept payments');
  await admin.context.close();

  await artist.page.reload();
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$90.00');
  await expect(artist.page.getByTestId('pending-balance')).toHaveText('$0.00');
  await expect(artist.page.getByText('You have no pending withdrawal requests.')).toBeVisible();
  await artist.context.close();
});

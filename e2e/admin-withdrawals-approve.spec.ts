/**
 * Journey: an admin approves a withdrawal, which pays it out (issue 36's "a withdrawal approved and paid"):
 * the artist's pending balance empties, the amount counts as withdrawn in their analytics, and the ledger
 * journey that runs last finds the journal whole.
 */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a withdrawal approved is paid out: pending empties and the amount counts as withdrawn', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const artist = await pageAs(browser, {
    plan: 'pro',
    artistName: `Paid ${tag}`,
    email: `paid-${tag}@example.com`,
    balanceCents: 12_345,
  });
  const saved = await artist.context.request.put('/api/wallet/payment-settings', {
    data: { payment_method: 'paypal', payment_details: { paypal_email: `paid-${tag}@paypal.example` } },
  });
  expect(saved.status()).toBe(200);
  const requested = await artist.context.request.post('/api/wallet/withdrawals', {
    data: { amount: '100.45' },
  });
  expect(requested.status()).toBe(201);
  await artist.page.goto('/dashboard/royalties');
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$23.00');
  await expect(artist.page.getByTestId('pending-balance')).toHaveText('$100.45');

  const admin = await pageAs(browser, { roles: ['admin'] });
  const page = admin.page;
  await page.goto('/admin/withdrawals');
  await expect(page.getByRole('heading', { name: 'Withdrawal Management' })).toBeVisible();
  await page.getByLabel('Search by artist name or email').fill(`paid ${tag}`);
  const card = page.getByTestId('withdrawal-card').filter({ hasText: `Paid ${tag}` });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('$100.45');
  await card.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Approve Withdrawal' });
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`$100.45 to paid-${tag}@example.com is marked as completed.`)).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.getByRole('tab', { name: /Completed/ }).click();
  const done = page.getByTestId('withdrawal-card').filter({ hasText: `Paid ${tag}` });
  await expect(done).toContainText('Completed');
  await expect(done).toContainText('$100.45');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();

  await artist.page.reload();
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$23.00');
  await expect(artist.page.getByTestId('pending-balance')).toHaveText('$0.00');
  // Analytics read the journal (record 259): the payment is what was withdrawn.
  const analytics = await artist.context.request.get('/api/analytics?range=30d');
  expect(analytics.status()).toBe(200);
  const report = (await analytics.json()) as { totals: { withdrawnCents: number; balanceCents: number } };
  expect(report.totals).toMatchObject({ withdrawnCents: 10_045, balanceCents: 2300 });
  await artist.context.close();
});

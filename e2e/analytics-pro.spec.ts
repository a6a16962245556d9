/** Journey: a Pro artist reads their analytics and exports withdrawals; a basic artist is sent to /dashboard. */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a Pro artist sees earnings, releases and withdrawal history; basic artists are sent away', async ({
  browser,
}) => {
  const pro = await pageAs(browser, { plan: 'pro', balanceCents: 5000 });
  const { page } = pro;
  await page.goto('/dashboard/royalties');
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByLabel('PayPal Email').fill('pro@example.com');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByTestId('saved-payment-method')).toContainText('PayPal');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await page.getByRole('dialog', { name: 'Request Withdrawal' }).getByLabel('Amount (USD)').fill('25');
  await page.getByRole('dialog').getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByTestId('pending-balance')).toHaveText('$25.00');

  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Earnings over time' })).toBeVisible();
  await expect(page.getByTestId('earnings-chart').locator('.recharts-surface')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Releases by status' })).toBeVisible();
  const history = page.getByRole('table').filter({ hasText: 'Requested' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history).toContainText('$25.00');
  await expect(history).toContainText('Pending');
  await page.getByText('Last 30 days').click();
  await expect(page.getByText('Earnings · Last 30 days')).toBeVisible();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^withdrawals-\d{4}-\d{2}-\d{2}\.csv$/);
  const fs = await import('node:fs/promises');
  const csv = await fs.readFile((await download.path()) as string, 'utf8');
  expect(csv).toContain('requested_at,amount,status,payment_method,processed_at,rejection_reason');
  expect(csv).toContain(',25.00,pending,paypal,');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await pro.context.close();

  const basic = await pageAs(browser, { plan: 'basic' });
  await basic.page.goto('/dashboard/analytics');
  await expect(basic.page).toHaveURL(/\/dashboard$/);
  await expect(basic.page.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
  await basic.context.close();
});

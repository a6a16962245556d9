/** Journey: checkout → sandbox Cancel → 'Payment Canceled' → Try Again reaches the sandbox again. */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('canceling at the sandbox shows Payment Canceled, and Try Again starts over', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { subscription: 'inactive', plan: 'basic' });
  await page.goto('/checkout?plan=basic');
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_/);
  await expect(page.getByTestId('sandbox-plan')).toHaveText('Basic');
  await expect(page.getByTestId('sandbox-price')).toHaveText('$9.99 per month');
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=basic&canceled=true$/);
  await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Signup' })).toHaveAttribute(
    'href',
    '/signup?plan=basic',
  );

  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_/);
  await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled();
  const me = (await (await page.request.get('/api/me')).json()) as {
    profile: { subscriptionStatus: string };
  };
  expect(me.profile.subscriptionStatus).toBe('inactive');
  await context.close();
});

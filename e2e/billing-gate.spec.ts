/** Journey: the subscription gate sends non-subscribers to the account page; analytics needs Pro. */
import { expect, pageAs, test } from './support/test';

test('without a subscription the dashboard redirects to the account page with the message', async ({
  browser,
}) => {
  const { page, context } = await pageAs(browser, { subscription: 'inactive', plan: 'basic' });
  // Upload is gated; My Songs and Royalties stay open after a lapse (record 120, artist-experience.spec.ts).
  await page.goto('/dashboard/upload');
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByText('Please subscribe to access the dashboard.')).toBeVisible();
  await expect(page.getByText('Choose a plan below to get started.')).toBeVisible();
  const plan = page.getByTestId('current-plan');
  await expect(plan.getByRole('button', { name: 'Subscribe to Basic' })).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Subscribe to Pro' })).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Manage Subscription' })).toHaveCount(0);

  await page.goto('/admin/releases');
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByText('Please subscribe to access the dashboard.')).toBeVisible();
  await context.close();
});

test('a canceled subscription whose end has passed is gated too', async ({ browser }) => {
  const ended = new Date(Date.now() - 86_400_000).toISOString();
  const { page, context } = await pageAs(browser, { subscription: 'canceled', subscriptionEnd: ended });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByText('Please subscribe to access the dashboard.')).toBeVisible();
  await expect(
    page.getByTestId('current-plan').getByRole('button', { name: 'Subscribe to Pro' }),
  ).toBeVisible();
  await context.close();
});

test('analytics sends basic users to the dashboard; Pro and free access pass', async ({ browser }) => {
  const basic = await pageAs(browser, { plan: 'basic' });
  await basic.page.goto('/dashboard/analytics');
  await expect(basic.page).toHaveURL(/\/dashboard$/);
  await basic.context.close();

  const pro = await pageAs(browser, { plan: 'pro' });
  await pro.page.goto('/dashboard/analytics');
  await expect(pro.page).toHaveURL(/\/dashboard\/analytics$/);
  await pro.context.close();

  const free = await pageAs(browser, { plan: 'basic', subscription: 'inactive', roles: ['free_access'] });
  await free.page.goto('/dashboard/analytics');
  await expect(free.page).toHaveURL(/\/dashboard\/analytics$/);
  await free.context.close();
});

/** Journey: Manage Subscription opens the sandbox portal in a new tab; canceling there shows the warning. */
import { longDate, subscribeInSandbox } from './support/billing';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('cancel at period end in the portal, then resume', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { subscription: 'inactive', plan: 'basic' });
  await subscribeInSandbox(page, 'basic');
  const me = (await (await page.request.get('/api/me')).json()) as { profile: { subscriptionEnd: string } };
  const endDate = longDate(me.profile.subscriptionEnd);

  await page.goto('/dashboard/account');
  const plan = page.getByTestId('current-plan');
  await expect(plan.getByText(`Renews on ${endDate}`)).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Upgrade to Pro' })).toBeVisible();

  const [portal] = await Promise.all([
    context.waitForEvent('page'),
    plan.getByRole('button', { name: 'Manage Subscription' }).click(),
  ]);
  await portal.waitForURL(/\/sandbox\/portal$/);
  await expect(portal.getByRole('heading', { name: 'Manage your subscription' })).toBeVisible();
  await expect(portal.getByTestId('portal-plan')).toHaveText('Basic · $9.99/month');
  expect(await seriousA11yViolations(portal)).toEqual([]);
  await portal.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(portal.getByText('Cancels at period end')).toBeVisible();

  // The account tab was not reloaded: the change arrives live.
  await expect(plan.getByRole('alert')).toHaveText(
    `Your subscription has been canceled and will end on ${endDate}. You will need to resubscribe to upload new releases.`,
  );
  await expect(plan.getByTestId('subscription-status')).toHaveText('Canceled');
  await expect(plan.getByRole('button', { name: 'Manage Subscription' })).toBeVisible();
  await expect(plan.getByRole('button', { name: /Subscribe to/ })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  // Still inside the paid period: the dashboard stays open.
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();

  await portal.getByRole('button', { name: 'Resume subscription' }).click();
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(plan.getByText(`Renews on ${endDate}`)).toBeVisible();
  await expect(plan.getByRole('alert')).toHaveCount(0);
  await context.close();
});

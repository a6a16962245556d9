/** Journey: a plan change made in one tab shows in a second open tab without a reload. */
import { longDate } from './support/billing';
import { expect, pageAs, test } from './support/test';

test('subscribing and switching plan in one tab updates the other tab live', async ({ browser }) => {
  const { page: watcher, context } = await pageAs(browser, { subscription: 'inactive', plan: 'basic' });
  await watcher.goto('/dashboard/account');
  const plan = watcher.getByTestId('current-plan');
  await expect(plan.getByRole('button', { name: 'Subscribe to Pro' })).toBeVisible();
  await expect(watcher.getByTestId('sidebar-plan')).toHaveText('No active plan');
  await watcher.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });

  // The other tab subscribes to Pro through the sandbox.
  const buyer = await context.newPage();
  await buyer.goto('/checkout?plan=pro');
  await buyer.getByRole('button', { name: 'Pay' }).click();
  await expect(buyer.getByText('Payment successful!')).toBeVisible({ timeout: 15_000 });
  // The success page then reloads /dashboard (spec 01): let it land, or it can win over the next goto.
  await buyer.waitForURL(/\/dashboard$/);

  await expect(watcher.getByTestId('sidebar-plan')).toContainText('Pro');
  await expect(plan.getByTestId('current-plan-name')).toHaveText('Pro');
  await expect(plan.getByText(/Renews on /)).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Subscribe to Pro' })).toHaveCount(0);

  // A switch back to Basic in the portal is scheduled for the next cycle; the watcher sees it too.
  const me = (await (await buyer.request.get('/api/me')).json()) as { profile: { subscriptionEnd: string } };
  await buyer.goto('/sandbox/portal');
  await buyer.getByRole('button', { name: 'Switch to Basic' }).click();
  await expect(buyer.getByTestId('portal-pending-plan')).toHaveText('Basic');
  await expect(plan.getByTestId('pending-plan')).toHaveText(
    `Your plan changes to Basic on ${longDate(me.profile.subscriptionEnd)}.`,
  );
  await expect(plan.getByTestId('current-plan-name')).toHaveText('Pro');
  expect(await watcher.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
    true,
  );
  await context.close();
});

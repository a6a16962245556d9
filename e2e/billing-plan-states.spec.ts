/** Journey: the Current Plan section in each subscription state, and for free-access accounts. */
import { expect, pageAs, test } from './support/test';

test('past due, canceling with no known end, and free access', async ({ browser }) => {
  const pastDue = await pageAs(browser, { subscription: 'past_due' });
  await pastDue.page.goto('/dashboard/account');
  await expect(pastDue.page.getByTestId('current-plan').getByRole('alert')).toHaveText(
    'Payment past due - please update payment method',
  );
  await pastDue.context.close();

  const canceling = await pageAs(browser, {
    subscription: 'canceled',
    subscriptionEnd: null,
    roles: ['admin'],
  });
  await canceling.page.goto('/dashboard/account');
  await expect(canceling.page.getByTestId('current-plan').getByRole('alert')).toHaveText(
    'Your subscription is set to cancel at the period end. You will need to resubscribe to upload new releases.',
  );
  await canceling.context.close();

  const free = await pageAs(browser, { subscription: 'inactive', plan: 'basic', roles: ['free_access'] });
  await free.page.goto('/dashboard/account');
  const plan = free.page.getByTestId('current-plan');
  await expect(plan.getByText('Free Access', { exact: true })).toBeVisible();
  await expect(plan.getByRole('button', { name: /Subscribe to/ })).toHaveCount(0);
  await expect(plan.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
  // free_access bypasses the gate.
  await free.page.goto('/dashboard');
  await expect(free.page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await free.context.close();

  const admin = await pageAs(browser, { subscription: 'active', plan: 'basic', roles: ['admin'] });
  await admin.page.goto('/dashboard/account');
  const adminPlan = admin.page.getByTestId('current-plan');
  await expect(adminPlan.getByText('Free Access', { exact: true })).toBeVisible();
  await expect(adminPlan.getByText(/Renews on /)).toBeVisible();
  await expect(adminPlan.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
  await expect(adminPlan.getByRole('button', { name: 'Manage Subscription' })).toBeVisible();
  await admin.context.close();
});

import { expect, pageAs, test } from './support/test';

test('an artist opening /admin/releases is sent to /dashboard with Access denied', async ({ browser }) => {
  const { page } = await pageAs(browser);
  await page.goto('/admin/releases');
  await expect(page.getByText('Access denied')).toBeVisible();
  await expect(page.getByText("You don't have admin or moderator privileges.")).toBeVisible();
  await expect(page).toHaveURL('/dashboard');
});

test('a moderator cannot use the admin-only audit log; an admin can', async ({ browser }) => {
  const { page } = await pageAs(browser, { roles: ['moderator'] });
  await page.goto('/admin/audit');
  await expect(page.getByText('You need admin privileges to access this page.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit Log' })).toHaveCount(0);

  const admin = await pageAs(browser, { roles: ['admin'] });
  await admin.page.goto('/admin/audit');
  await expect(admin.page.getByTestId('admin-role')).toHaveText('Administrator');
  await expect(admin.page.getByText('Full system access')).toBeVisible();
  await expect(admin.page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
});

test('nobody signed in is sent to /login', async ({ page }) => {
  await page.goto('/admin/releases');
  await expect(page).toHaveURL(/\/login/);
});

test('an artist without a subscription is still told Access denied first', async ({ browser }) => {
  const { page } = await pageAs(browser, { subscription: 'inactive' });
  await page.goto('/admin/releases');
  await expect(page.getByText("You don't have admin or moderator privileges.")).toBeVisible();
  await expect(page).toHaveURL('/dashboard/account');
});

test('a moderator without a subscription reviews releases (the role is checked, not the payment)', async ({
  browser,
}) => {
  const { page } = await pageAs(browser, { roles: ['moderator'], subscription: 'inactive' });
  await page.goto('/admin/releases');
  await expect(page.getByTestId('admin-role')).toHaveText('Moderator');
  await expect(page).toHaveURL('/admin/releases');
  await expect(page.getByText('Please subscribe to access the dashboard.')).toHaveCount(0);
  await expect(page.getByText('Failed to fetch releases')).toHaveCount(0);
});

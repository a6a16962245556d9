/** Journey: an admin finds a user, grants free access, bans with a reason and unbans them. */
import { expect, pageAs, seed, test } from './support/test';

test('an admin manages a user: free access, ban with a reason, unban', async ({ browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  await seed.user({
    email: `managed-${tag}@example.com`,
    artistName: `Managed ${tag}`,
    plan: 'basic',
    isSignedIn: false,
  });
  const { page, context, user: admin } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await page.getByLabel('Search users by email, artist name or full name').fill(`managed-${tag}`);
  await expect(page.getByTestId('count-all')).toHaveText('1');
  await expect(page.getByTestId('count-basic')).toHaveText('1');
  await expect(page.getByTestId('count-free_access')).toHaveText('0');
  const card = page.getByTestId('user-card').filter({ hasText: `Managed ${tag}` });

  await card.getByRole('button', { name: 'Grant Free Access' }).click();
  await expect(page.getByText(`managed-${tag}@example.com now has free access.`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Revoke Free Access' })).toBeVisible();
  await expect(page.getByTestId('count-free_access')).toHaveText('1');

  await card.getByRole('button', { name: 'Ban' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ban User' });
  await dialog.getByRole('button', { name: 'Ban User' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please provide a reason for banning this user.');
  await expect(
    page.locator('[data-sonner-toast]').getByText('Please provide a reason for banning this user.'),
  ).toBeVisible();
  await dialog.getByLabel('Reason').fill('Uploading music they do not own');
  await dialog.getByRole('button', { name: 'Ban User' }).click();
  await expect(card).toContainText('Uploading music they do not own');
  await page.getByRole('tab', { name: /Banned/ }).click();
  await expect(page.getByTestId('user-card').filter({ hasText: `Managed ${tag}` })).toHaveCount(1);
  await page
    .getByTestId('user-card')
    .filter({ hasText: `Managed ${tag}` })
    .getByRole('button', { name: 'Unban' })
    .click();
  await expect(page.getByText(`managed-${tag}@example.com has been unbanned.`)).toBeVisible();
  await expect(page.getByTestId('count-banned')).toHaveText('0');

  // An admin's own Ban button is disabled.
  await page.getByRole('tab', { name: /All/ }).click();
  await page.getByLabel('Search users by email, artist name or full name').fill(admin.email);
  const own = page.getByTestId('user-card').filter({ hasText: admin.email });
  await expect(own.getByRole('button', { name: 'Ban' })).toBeDisabled();
  await context.close();
});

import { expect, pageAs, seed, test } from './support/test';

test('an artist deletes a pending release after confirming', async ({ browser }) => {
  const { page, user } = await pageAs(browser);
  await seed.release({ userId: user.userId, title: 'Keep Me' });
  const { releaseId } = await seed.release({ userId: user.userId, title: 'Delete Me' });

  await page.goto(`/dashboard/edit-release/${releaseId}`);
  await page.getByRole('button', { name: 'Delete Release' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(
    dialog.getByText('Are you sure you want to delete this release? This action cannot be undone.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`/dashboard/edit-release/${releaseId}`);

  await page.getByRole('button', { name: 'Delete Release' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Release deleted successfully')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/songs');
  await expect(page.getByRole('heading', { name: 'Keep Me' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Delete Me' })).toHaveCount(0);
});

test('an artist without releases sees the empty state', async ({ browser }) => {
  const { page } = await pageAs(browser);
  await page.goto('/dashboard/songs');
  await expect(page.getByRole('heading', { name: 'No Songs Yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload Music' }).first()).toHaveAttribute(
    'href',
    '/dashboard/upload',
  );
});

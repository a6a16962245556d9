import { expect, pageAs, seed, test } from './support/test';

test('an artist edits a pending release and sees the change in My Songs', async ({ browser }) => {
  const { page, user } = await pageAs(browser, { plan: 'pro', artistName: 'Edit Artist' });
  const { releaseId } = await seed.release({ userId: user.userId, title: 'First Draft', trackCount: 2 });
  await seed.release({ userId: user.userId, title: 'Already Live', status: 'live' });

  await page.goto('/dashboard/songs');
  const live = page.getByRole('listitem').filter({ hasText: 'Already Live' });
  await expect(live.getByRole('link', { name: 'Edit Release' })).toHaveCount(0);
  const draft = page.getByRole('listitem').filter({ hasText: 'First Draft' });
  await expect(draft.getByText('2 tracks')).toBeVisible();
  await draft.getByRole('link', { name: 'Edit Release' }).click();

  await expect(page).toHaveURL(`/dashboard/edit-release/${releaseId}`);
  await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
  await page.getByLabel('Release Title').fill('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Release title is required')).toBeVisible();

  await page.getByLabel('Release Title').fill('Final Cut');
  await page.getByLabel('Primary Artists').fill('Edit Artist, , Second Voice');
  await page.getByLabel('Featured Artists (optional)').fill(' , Guest');
  await page.getByLabel('Genre').selectOption('Jazz');
  await page.getByLabel('Label Name').fill('Night Owl Records');
  await page.getByRole('button', { name: 'Save Changes' }).click();

  await expect(page.getByText('Release updated successfully')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/songs');
  const edited = page.getByRole('listitem').filter({ hasText: 'Final Cut' });
  await expect(edited.getByText('Edit Artist, Second Voice')).toBeVisible();

  // The page loads the saved values back.
  await edited.getByRole('link', { name: 'Edit Release' }).click();
  await expect(page.getByLabel('Featured Artists (optional)')).toHaveValue('Guest');
  await expect(page.getByLabel('Genre')).toHaveValue('Jazz');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL('/dashboard/songs');
});

test('a release that is no longer editable cannot be opened for editing', async ({ browser }) => {
  const { page, user } = await pageAs(browser);
  const { releaseId } = await seed.release({
    userId: user.userId,
    title: 'Approved One',
    status: 'approved',
  });
  await page.goto(`/dashboard/edit-release/${releaseId}`);
  await expect(page.getByText('This release cannot be edited in its current status.')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/songs');

  await page.goto('/dashboard/edit-release/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Failed to load release')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/songs');
});

import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a moderator selects two pending releases and approves them together after a confirmation', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const artist = await seed.user({ artistName: 'Bulk Artist', email: `bulk-artist-${tag}@example.com` });
  await seed.release({ userId: artist.userId, title: `Bulk One ${tag}` });
  await seed.release({ userId: artist.userId, title: `Bulk Two ${tag}` });
  await seed.release({ userId: artist.userId, title: `Bulk Stays ${tag}` });

  const { page } = await pageAs(browser, { roles: ['moderator'] });
  await page.goto(`/admin/releases?q=${tag}`);
  await expect(page.getByTestId('count-pending')).toHaveText('3');
  const toolbar = page.getByRole('toolbar', { name: 'Bulk review' });
  await expect(toolbar.getByRole('button', { name: 'Approve 0' })).toBeDisabled();

  await page.getByRole('checkbox', { name: `Select "Bulk One ${tag}"` }).check();
  await page.getByRole('checkbox', { name: `Select "Bulk Two ${tag}"` }).check();
  await expect(toolbar).toContainText('2 releases selected');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Cancel leaves all three pending.
  await toolbar.getByRole('button', { name: 'Approve 2' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Approve 2 releases' });
  await expect(dialog).toContainText('2 releases will be approved.');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('count-pending')).toHaveText('3');

  await toolbar.getByRole('button', { name: 'Approve 2' }).click();
  await dialog.getByRole('button', { name: 'Approve 2 releases' }).click();
  await expect(page.getByText('2 releases approved')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Bulk One ${tag}` })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: `Bulk Two ${tag}` })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: `Bulk Stays ${tag}` })).toBeVisible();
  await expect(page.getByTestId('count-pending')).toHaveText('1');
  await expect(toolbar).toContainText('None selected');

  // "Select all on this page" picks the one left.
  await toolbar.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByRole('checkbox', { name: `Select "Bulk Stays ${tag}"` })).toBeChecked();

  await page.getByRole('tab', { name: /Approved Releases/ }).click();
  await expect(page.getByRole('heading', { name: `Bulk One ${tag}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Bulk Two ${tag}` })).toBeVisible();
});

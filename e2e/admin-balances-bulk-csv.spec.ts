/** Journey: an admin uploads a balance CSV, verifies it, applies it, and the balances are the file's. */
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a bulk balance update goes from upload to applied balances', async ({ browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const first = await seed.user({
    email: `bulk-a-${tag}@example.com`,
    artistName: `Bulk A ${tag}`,
    balanceCents: 1000,
  });
  const second = await seed.user({
    email: `bulk-b-${tag}@example.com`,
    artistName: `Bulk B ${tag}`,
    balanceCents: 500,
  });
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/bulk-balance');
  await expect(page.getByRole('heading', { name: 'Balance Management' })).toBeVisible();

  // The template is offered as a download.
  const templatePromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Template' }).click();
  const template = await templatePromise;
  expect(template.suggestedFilename()).toBe('balance-update-template.csv');

  // A file that is not a CSV is refused.
  await page
    .getByLabel('Upload CSV')
    .setInputFiles({ name: 'balances.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByText('Please upload a CSV file')).toBeVisible();

  const csv = [
    'user_id_or_email,new_balance',
    `${first.email.toUpperCase()},125.50`,
    `${second.userId},40`,
    'nobody-here@example.com,10',
    `bad-${tag}@example.com,-3`,
  ].join('\r\n');
  await page
    .getByLabel('Upload CSV')
    .setInputFiles({ name: 'balances.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByText('CSV parsing errors')).toBeVisible();
  await expect(page.getByText('1 errors found')).toBeVisible();
  await expect(page.getByRole('list', { name: 'CSV errors' })).toContainText(
    'Line 5: Balance -3 is negative; balances cannot be below 0.',
  );
  await expect(page.getByTestId('csv-count-pending')).toHaveText('3');
  await expect(page.getByTestId('csv-count-errors')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Apply 0 Updates' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply 0 Updates' }).click();
  await expect(page.getByText('There are no verified updates to apply')).toBeVisible();

  await page.getByRole('button', { name: 'Verify All' }).click();
  await expect(page.getByTestId('csv-count-verified')).toHaveText('2');
  await expect(page.getByTestId('csv-count-errors')).toHaveText('2');
  await expect(page.getByTestId('csv-count-pending')).toHaveText('0');
  const preview = page.getByTestId('csv-preview');
  await expect(preview).toContainText('$10.00 → $125.50');
  await expect(preview).toContainText('$5.00 → $40.00');
  await expect(preview).toContainText('User not found');
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Apply 2 Updates' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Apply 2 Updates' }).click();
  await expect(page.getByTestId('csv-count-applied')).toHaveText('2');
  await expect(page.getByText('2 balances updated.')).toBeVisible();

  // The single-edit search reads the balances back from the server.
  await page.getByLabel('Search users by email or artist name').fill(`bulk-a-${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Found 1 user(s)')).toBeVisible();
  const card = page.getByTestId('balance-user');
  await expect(card.getByTestId('user-available')).toHaveText('$125.50');
  await expect(card.getByTestId('user-total')).toHaveText('$125.50');
  await page.getByLabel('Search users by email or artist name').fill(`Bulk B ${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('balance-user').getByTestId('user-available')).toHaveText('$40.00');
  await context.close();
});

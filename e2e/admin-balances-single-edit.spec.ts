/** Journey: an admin finds one artist and edits their balances inline; the artist's wallet shows them. */
import { expect, pageAs, seed, test } from './support/test';

test('an admin edits one artist balance inline', async ({ browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const artist = await seed.user({
    email: `single-${tag}@example.com`,
    artistName: `Single ${tag}`,
    balanceCents: 2000,
  });
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/bulk-balance');
  const search = page.getByRole('button', { name: 'Search', exact: true });
  await expect(search).toBeDisabled();
  await page.getByLabel('Search users by email or artist name').fill(`zz-no-one-${tag}`);
  await search.click();
  await expect(page.getByText('Try a different search term')).toBeVisible();

  await page.getByLabel('Search users by email or artist name').fill(`SINGLE ${tag}`);
  await search.click();
  await expect(page.getByText('Found 1 user(s)')).toBeVisible();
  const card = page.getByTestId('balance-user');
  await card.getByRole('button', { name: `Edit balances of ${artist.email}` }).click();
  await expect(card.getByLabel('Available')).toHaveValue('20.00');
  await card.getByLabel('Available').fill('-1');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Invalid values')).toBeVisible();
  // Cancel clears the inputs and goes back to the figures.
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByTestId('user-available')).toHaveText('$20.00');

  await card.getByRole('button', { name: `Edit balances of ${artist.email}` }).click();
  await card.getByLabel('Available').fill('32.50');
  await expect(card.getByTestId('earnings-preview')).toContainText('+$12.50');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Updated ${artist.email}'s balances successfully`)).toBeVisible();
  await expect(card.getByTestId('user-available')).toHaveText('$32.50');
  await expect(card.getByTestId('user-total')).toHaveText('$32.50');
  await context.close();

  const artistPage = await browser.newContext();
  const { signIn } = await import('./support/test');
  await signIn(artistPage, artist);
  const view = await artistPage.newPage();
  await view.goto('/dashboard/royalties');
  await expect(view.getByTestId('available-balance')).toHaveText('$32.50');
  await artistPage.close();
});

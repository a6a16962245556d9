/** Journey: the admin list kit keeps search, tab and page in the URL, pages with the pager, clamps a page past the end. */
import { expect, pageAs, seed, test } from './support/test';

test('search, tab and page live in the URL; Back returns to the previous page; a page past the end falls back', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  // 21 matching users: two pages of 20 on the All tab.
  for (let index = 0; index < 21; index += 1) {
    await seed.user({
      email: `kit-${tag}-${String(index).padStart(2, '0')}@example.com`,
      artistName: `Kit ${tag} ${index}`,
      plan: index === 0 ? 'pro' : 'basic',
      isSignedIn: false,
    });
  }
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/users');
  const search = page.getByLabel('Search users by email, artist name or full name');
  await search.fill(`kit-${tag}`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=kit-${tag}(&|$)`));
  await expect(page.getByTestId('count-all')).toHaveText('21');
  await expect(page.getByTestId('count-pro')).toHaveText('1');

  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText('Page 1 of 2 · 21 users');
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(pager).toContainText('Page 2 of 2');
  await expect(page.getByTestId('user-card')).toHaveCount(1);
  await page.goBack();
  await expect(pager).toContainText('Page 1 of 2');
  await expect(page.getByTestId('user-card')).toHaveCount(20);

  // A tab change goes back to page 1 and is kept in the URL with the search.
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await page.getByRole('tab', { name: /Pro/ }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=kit-${tag}&tab=pro$`));
  await expect(page.getByTestId('user-card')).toHaveCount(1);

  // An opened link restores everything; a page past the end shows the last page.
  await page.goto(`/admin/users?q=kit-${tag}&page=9`);
  await expect(search).toHaveValue(`kit-${tag}`);
  await expect(page.getByRole('tab', { name: /All/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(pager).toContainText('Page 2 of 2');
  await context.close();
});

test('contact requests keep their tab in the URL', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/messages?tab=handled&page=40');
  await expect(page.getByRole('tab', { name: /^Handled/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/admin\/messages\?tab=handled$/);
  await page.getByRole('tab', { name: /^All/ }).click();
  await expect(page).toHaveURL(/\/admin\/messages\?tab=all$/);
  await page.getByRole('tab', { name: /^Open/ }).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
  await context.close();
});

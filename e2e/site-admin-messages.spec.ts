/** An admin reads Contact Us requests at /admin/messages and marks one handled; an artist cannot. */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('an admin sees new contact requests newest first and marks one as handled', async ({
  browser,
  request,
}) => {
  const stamp = Date.now();
  for (const name of [`Older ${stamp}`, `Newer ${stamp}`]) {
    const response = await request.post('/api/contact', {
      data: {
        name,
        companyName: `${name} Label`,
        email: `${stamp}@example.com`,
        links: ['https://label.example', ''],
      },
    });
    expect(response.status()).toBe(201);
  }

  const { page, context } = await pageAs(browser, { roles: ['admin'], fullName: 'Grace Admin' });
  await page.goto('/admin/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Contact Requests' })).toBeVisible();
  const cards = page.getByRole('heading', { level: 3, name: new RegExp(`${stamp}$`) });
  await expect(cards).toHaveText([`Newer ${stamp}`, `Older ${stamp}`]);

  const older = page.getByLabel(`Request from Older ${stamp}`);
  await expect(older).toContainText(`Older ${stamp} Label`);
  await expect(older.getByRole('link', { name: /https:\/\/label\.example/ })).toHaveAttribute(
    'href',
    'https://label.example',
  );
  expect(await seriousA11yViolations(page)).toEqual([]);

  await older.getByRole('button', { name: 'Mark as handled' }).click();
  await expect(page.getByLabel(`Request from Older ${stamp}`)).toHaveCount(0);
  await expect(page.getByLabel(`Request from Newer ${stamp}`)).toBeVisible();

  await page.getByRole('tab', { name: /^Handled/ }).click();
  const handled = page.getByLabel(`Request from Older ${stamp}`);
  await expect(handled).toContainText('by Grace Admin');
  await handled.getByRole('button', { name: 'Reopen' }).click();
  await expect(page.getByLabel(`Request from Older ${stamp}`)).toHaveCount(0);
  await context.close();
});

test('an artist is turned away from the messages page', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { plan: 'pro' });
  await page.goto('/admin/messages');
  await expect(page).toHaveURL(/\/dashboard$/);
  const answer = await page.request.get('/api/admin/messages');
  expect(answer.status()).toBe(403);
  await context.close();
});

/** Journey: the account pages have no serious or critical accessibility violations (axe). */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

for (const path of ['/signup?plan=pro', '/login', '/forgot-password', '/reset-password?token=abc']) {
  test(`${path} passes axe`, async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
}

test('sign-up with live errors and the checklist showing passes axe', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/signup');
  await page.getByLabel('Email').fill('bad email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await expect(page.getByText('Email cannot contain spaces')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await context.close();
});

test('dashboard home and the account sections pass axe', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page, context } = await pageAs(browser, { plan: 'basic' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await expect(page.getByTestId('total-releases')).toHaveText('0');
  await expect(page.getByTestId('plan-type')).toHaveText('Basic');
  await expect(page.getByRole('heading', { name: 'Your Plan' })).toBeVisible();
  await expect(page.getByText(/Need help\? Contact our support team at .+@.+/)).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.goto('/dashboard/account');
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await context.close();
});

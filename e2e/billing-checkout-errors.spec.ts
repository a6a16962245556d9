/** Journey: /checkout without a user goes to /signup; a refused checkout shows 'Something Went Wrong'. */
import { subscribeInSandbox } from './support/billing';
import { expect, pageAs, test } from './support/test';

test('a visitor with no account is sent to sign up', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/checkout?plan=pro');
  await expect(page).toHaveURL(/\/signup\?plan=pro$/);
  await context.close();
});

test('a checkout the server refuses shows Something Went Wrong with its message', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { subscription: 'inactive', plan: 'basic' });
  await subscribeInSandbox(page, 'basic');
  await page.goto('/checkout?plan=basic');
  await expect(page.getByRole('heading', { name: 'Something Went Wrong' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('You are already subscribed to the Basic plan.');
  await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Signup' })).toBeVisible();
  await context.close();
});

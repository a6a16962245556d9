/** Journey: two open tabs follow each other when one signs out and when one signs in. */
import { expect, pageAs, test } from './support/test';

test('signing out in one tab signs out the other; signing in brings both back', async ({ browser }) => {
  const { page: first, context, user } = await pageAs(browser);
  const second = await context.newPage();
  await first.goto('/dashboard');
  await second.goto('/dashboard/account');
  await expect(first.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Account' })).toBeVisible();

  await first.getByRole('button', { name: 'Sign Out' }).click();
  await expect(first).toHaveURL(/\/login$/);
  // No reload in the second tab: it heard the sign-out.
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByRole('heading', { name: 'Sign In' })).toBeVisible();

  await first.getByLabel('Email').fill(user.email);
  await first.getByLabel('Password').fill(user.password);
  await first.getByRole('button', { name: 'Sign In' }).click();
  await expect(first).toHaveURL(/\/dashboard$/);
  await expect(second).toHaveURL(/\/dashboard$/);
  await expect(second.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await context.close();
});

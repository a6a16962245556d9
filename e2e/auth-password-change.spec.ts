/** Journey: change the password in Security, sign out, sign in with the new password. */
import { expect, pageAs, test } from './support/test';

test('password change asks for the current password; the new one signs in', async ({ browser }) => {
  const { page, context, user } = await pageAs(browser);
  await page.goto('/dashboard/account');
  const form = page.getByRole('form', { name: 'Change password' });
  const current = form.getByLabel('Current password');
  const next = form.getByLabel('New password', { exact: true });
  const confirm = form.getByLabel('Confirm new password');
  const submit = form.getByRole('button', { name: 'Update password' });

  await current.fill(user.password);
  await next.fill('Brand!New1');
  await confirm.fill('Brand!New2');
  await submit.click();
  await expect(form.getByText('New passwords do not match.')).toBeVisible();

  await next.fill('short');
  await confirm.fill('short');
  await submit.click();
  await expect(form.getByText('Password must be at least 8 characters long.')).toBeVisible();

  // The sign-up rules hold here too (issue 18): `password` is refused, as at sign-up and reset.
  await next.fill('password');
  await confirm.fill('password');
  await submit.click();
  await expect(form.getByText('Password must contain at least one uppercase letter')).toBeVisible();

  await current.fill('Not!MyPassw0rd');
  await next.fill('Brand!New1');
  await confirm.fill('Brand!New1');
  await submit.click();
  await expect(page.getByText('Invalid password')).toBeVisible();

  await current.fill(user.password);
  await next.fill('Brand!New1');
  await confirm.fill('Brand!New1');
  await submit.click();
  await expect(page.getByText('Password changed', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please try again.');
  await page.getByLabel('Password').fill('Brand!New1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await context.close();
});

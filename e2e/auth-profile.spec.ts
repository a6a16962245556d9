/** Journey: account settings, Profile Information and Email Settings. */
import { expect, pageAs, test } from './support/test';

test('profile update shows the toasts of §8; the email cannot be changed', async ({ browser }) => {
  const { page, context, user } = await pageAs(browser, { fullName: 'Jane Doe', artistName: 'JD' });
  await page.goto('/dashboard/account');
  const profile = page.getByRole('region', { name: 'Profile Information' });
  await expect(profile.getByLabel('Full name')).toHaveValue('Jane Doe');

  const emailField = page.getByRole('region', { name: 'Email Settings' }).getByLabel('Email');
  await expect(emailField).toBeDisabled();
  await expect(emailField).toHaveValue(user.email);
  await expect(page.getByText('Email cannot be changed')).toBeVisible();

  await profile.getByLabel('Full name').fill('Jane Q. Doe');
  await profile.getByLabel('Artist name').fill('JQD');
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile updated', { exact: true })).toBeVisible();
  await expect(page.getByText('Your profile has been updated successfully.')).toBeVisible();

  await page.reload();
  await expect(profile.getByLabel('Full name')).toHaveValue('Jane Q. Doe');
  await expect(profile.getByLabel('Artist name')).toHaveValue('JQD');

  await profile.getByLabel('Artist name').fill('');
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(profile.getByText('Please fill in all required fields')).toBeVisible();

  await page.route('**/api/me/profile', (route) => route.fulfill({ status: 500, body: '' }));
  await profile.getByLabel('Artist name').fill('Someone');
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Failed to update profile. Please try again.')).toBeVisible();
  await context.close();
});

/**
 * Journey (issue 26 finding 8, record 196): an admin sets the lapsed-accounts policy on Admin Settings to
 * "take down after 45 days", sees it saved (and still there after a reload), then sets it back to keep live.
 */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('an admin sets the lapsed-accounts policy and sees it saved', async ({ browser }) => {
  const admin = await pageAs(browser, { roles: ['admin'] });
  await admin.page.goto('/admin/settings');
  const card = admin.page.getByTestId('lapse-policy');
  await expect(card.getByRole('heading', { name: 'Lapsed accounts' })).toBeVisible();
  await expect(card.getByRole('radio', { name: 'Keep live' })).toBeChecked();

  await card.getByRole('radio', { name: 'Take down after' }).check();
  const days = card.getByLabel('Days after the lapse');
  await days.fill('0');
  await card.getByRole('button', { name: 'Save lapsed-account policy' }).click();
  await expect(card.getByRole('alert')).toHaveText('Enter 1 to 365 days.');

  await days.fill('45');
  await card.getByRole('button', { name: 'Save lapsed-account policy' }).click();
  await expect(admin.page.getByText('Lapsed-account policy saved.')).toBeVisible();
  expect(await seriousA11yViolations(admin.page)).toEqual([]);

  await admin.page.reload();
  await expect(card.getByRole('radio', { name: 'Take down after' })).toBeChecked();
  await expect(card.getByLabel('Days after the lapse')).toHaveValue('45');

  // Back to the default, so no other journey meets a takedown policy.
  await card.getByRole('radio', { name: 'Keep live' }).check();
  const saved = admin.page.waitForResponse(
    (response) => response.url().endsWith('/api/admin/lapse-policy') && response.request().method() === 'PUT',
  );
  await card.getByRole('button', { name: 'Save lapsed-account policy' }).click();
  expect((await saved).status()).toBe(200);
  await admin.page.reload();
  await expect(card.getByRole('radio', { name: 'Keep live' })).toBeChecked();
});

/**
 * Journey (issue 26 finding 8, record 196): an admin sets the lapsed-accounts policy on Admin Settings to
 * "take down after 45 days", sees it saved (and still there after a reload), then sets it back to keep live.
 * Issue 44: meanwhile a lapsed artist's banner and lapse mail name the same takedown date and consequence.
 * It changes what every lapsed artist's banner says, so it runs in the site-wide project (alone, last).
 */
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

const DAY = 86_400_000;

/** The policy's daily run now (its job runs at 06:00 UTC). */
async function runLapsePolicy() {
  const response = await fetch(`${e2eEnv.baseUrl}/api/test-fixtures/lapse-policy/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fixtures-token': e2eEnv.fixturesToken },
    body: '{}',
  });
  expect(response.status).toBe(200);
}

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

  // A lapsed artist with a live release: the banner and the lapse mail say the same (issue 44).
  const lapsedAt = new Date(Date.now() - 3 * DAY);
  const takedownDate = new Date(lapsedAt.getTime() + 45 * DAY).toISOString().slice(0, 10);
  const consequence = `Unless you subscribe again, your live releases will be taken down from the stores on ${takedownDate}.`;
  const artist = await pageAs(browser, { subscription: 'canceled', subscriptionEnd: lapsedAt.toISOString() });
  await seed.release({ userId: artist.user.userId, title: 'Lapsed Song', status: 'live' });
  await runLapsePolicy();
  await artist.page.goto('/dashboard/songs');
  const banner = artist.page.getByTestId('lapsed-banner');
  await expect(banner.getByTestId('lapsed-banner-body')).toContainText(consequence);
  await expect(banner).not.toContainText('Your releases, royalties and withdrawals stay available');
  const mail = (await outboxMails(artist.user.email))
    .map((item) => item.text.replace(/=\r?\n/g, ''))
    .find((text) => text.includes('subscription is no longer active'));
  expect(mail).toContain(consequence);
  await artist.context.close();

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

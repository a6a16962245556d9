/**
 * Journey (issue 40, record 291): a label's owner adds a webhook endpoint (a local receiver) on the
 * Webhooks page; an admin approves a release and the receiver gets `release.approved`, whose signature
 * verifies with `standardwebhooks`; the receiver answers 500 once and the same `webhook-id` arrives again;
 * after a secret rotation both secrets verify; Redeliver sends the same message again; an endpoint on a
 * private address is refused; an endpoint answering 410 is disabled and its owner mailed.
 */
import { adminApi } from './support/delivery';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, signIn, test } from './support/test';
import { startWebhookReceiver } from './support/webhook-receiver';

test('webhooks: signed events from an approval, a retry, rotation, redelivery and a 410', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const receiver = await startWebhookReceiver();
  const { received, answers, verify } = receiver;
  const hookUrl = receiver.url;

  const { page, user } = await pageAs(browser, { plan: 'pro', artistName: 'Signal Records' });
  const { releaseId } = await seed.release({ userId: user.userId, title: 'Carrier Wave', status: 'pending' });
  await page.goto('/dashboard/account');
  await page.getByRole('link', { name: 'Manage webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

  // A private address is refused with the delivery targets' rule.
  await page.getByLabel('Endpoint URL').fill('http://10.1.2.3/hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('a private address', { exact: false })).toBeVisible();

  await page.getByLabel('Endpoint URL').fill(hookUrl);
  // Only the approval: its deliveries' events (delivery.queued, …, when a journey beside this one has an
  // enabled store connection) would take the 500 meant for it. Test events reach an endpoint whatever it chose.
  await page.getByRole('checkbox', { name: 'release.approved' }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('Copy this signing secret now. It is shown only once.')).toBeVisible();
  const secret = await page.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByTestId('webhook-secret').getByRole('button', { name: 'Done' }).click();

  // An admin approves; the receiver answers 500 once, then the retry brings the same message.
  answers.push(500);
  const admin = await seed.user({ roles: ['admin'] });
  const adminContext = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  await signIn(adminContext, admin);
  await adminApi(adminContext.request, 'POST', `/api/admin/releases/${releaseId}/approve`, {});
  await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const [first, retry] = received;
  if (!first || !retry) throw new Error('two tries expected');
  expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
  expect(verify(secret, retry)).toMatchObject({ type: 'release.approved', data: { releaseId } });
  const endpoint = page.getByTestId('webhook-endpoint');
  await page.reload();
  await expect(
    endpoint.getByRole('row', { name: /release\.approved.*Delivered.*2.*HTTP 200/ }),
  ).toBeVisible();

  // Rotation: the new secret is shown; for a day both sign.
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = await page.getByLabel('Signing secret').inputValue();
  expect(rotated).not.toBe(secret);
  await expect(endpoint.getByText('The previous secret also signs until', { exact: false })).toBeVisible();
  await page.getByTestId('webhook-secret').getByRole('button', { name: 'Done' }).click();
  received.length = 0;
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  const tested = received[0];
  if (!tested) throw new Error('the test event was not received');
  expect(verify(rotated, tested).type).toBe('webhook.test');
  expect(verify(secret, tested).type).toBe('webhook.test');

  // Redeliver sends the same message again.
  await expect(endpoint.getByRole('row', { name: /webhook\.test.*Delivered/ })).toBeVisible();
  await endpoint.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
  expect(received[1]?.headers['webhook-id']).toBe(tested.headers['webhook-id']);

  // 410 Gone: the endpoint is disabled and its owner mailed.
  answers.push(410);
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(endpoint.getByText('The endpoint answered 410 Gone.', { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await expect
    .poll(
      async () => (await outboxMails(user.email)).some((mail) => mail.text.includes('answered 410 Gone')),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  await adminContext.close();
  await receiver.close();
});

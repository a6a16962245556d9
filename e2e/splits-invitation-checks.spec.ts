/**
 * Journey (issue 22 findings 4, 7 and 8): another artist opening a split invitation mailed to someone else
 * is told which address (masked) must sign in and cannot accept it; the invited address accepts; the owner
 * adds an expense (a description is required) and the payee sees it, described, on their split shares.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

/** A mail file without quoted-printable soft breaks and escapes. */
const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function invitationLink(email: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const mails = await outboxMails(email);
      link =
        mails
          .map((mail) => decode(mail.text).match(/https?:\/\/\S+\/splits\/invitations\/[\w-]+/)?.[0])
          .find(Boolean) ?? '';
      return link !== '';
    })
    .toBe(true);
  return link;
}

test('only the invited address can accept; the payee sees the expenses the owner adds', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const payeeEmail = `payee-${suffix}@example.com`;
  const title = `Checked Shares ${suffix}`;
  const owner = await pageAs(browser, { plan: 'basic', artistName: `Owner ${suffix}` });
  const { releaseId } = await seed.release({ userId: owner.user.userId, title, status: 'live' });
  const saved = await owner.page.request.put(`/api/releases/${releaseId}/splits`, {
    headers: { origin: e2eEnv.baseUrl },
    data: { trackId: null, ownerPercent: '70', payees: [{ email: payeeEmail, percent: '30' }] },
  });
  expect(saved.status()).toBe(200);
  const link = await invitationLink(payeeEmail);

  // Another signed-in artist holding the link: told whose it is (masked), no way to accept.
  const stranger = await pageAs(browser, { plan: 'pro' });
  await stranger.page.goto(link);
  await expect(stranger.page.getByRole('heading', { name: 'Royalty split invitation' })).toBeVisible();
  await expect(stranger.page.getByTestId('invitation-not-yours')).toHaveText(
    'This invitation was sent to p•••@example.com. Sign in with that email address to accept it.',
  );
  await expect(stranger.page.getByRole('button', { name: /^Accept/ })).toHaveCount(0);
  await expect(stranger.page.getByText(payeeEmail)).toHaveCount(0);
  expect(await seriousA11yViolations(stranger.page)).toEqual([]);
  await stranger.context.close();

  // The invited address, signed in with it (no subscription needed), accepts.
  const payee = await pageAs(browser, { subscription: 'inactive', email: payeeEmail });
  await payee.page.goto(link);
  await payee.page.getByRole('button', { name: `Accept as ${payeeEmail}` }).click();
  await expect(payee.page.getByText('Invitation accepted.')).toBeVisible();

  // The owner adds an expense: a description is required.
  const page = owner.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/releases/${releaseId}`);
  const splits = page.getByTestId('splits-section');
  await splits.getByLabel('Amount (USD)').fill('120');
  await splits.getByLabel('Description').fill('.');
  await splits.getByRole('button', { name: 'Add expense' }).click();
  await expect(splits.getByText('Describe the expense (at least 3 letters or digits).')).toBeVisible();
  await splits.getByLabel('Description').fill('Mastering session');
  await splits.getByRole('button', { name: 'Add expense' }).click();
  await expect(splits.getByTestId('recoupment')).toContainText('Expenses $120.00');
  await owner.context.close();

  // The payee sees it with its description on their split shares, and was mailed about it.
  await payee.page.setViewportSize({ width: 1280, height: 900 });
  await payee.page.goto('/dashboard/royalties');
  const expense = payee.page.getByTestId('payee-expense');
  await expect(expense).toContainText(title);
  await expect(expense).toContainText('Mastering session');
  await expect(expense).toContainText('$120.00');
  expect(await seriousA11yViolations(payee.page)).toEqual([]);
  await expect
    .poll(async () =>
      (await outboxMails(payeeEmail)).some((mail) =>
        decode(mail.text).includes('An expense was added to a release you share on Tunedrop'),
      ),
    )
    .toBe(true);
  await payee.context.close();
});

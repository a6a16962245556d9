/**
 * Journey (issue 27, record 175): a collaborator invited to a split signs up from the invitation mail and
 * never meets a plan or a price: no plan picker, no "choose your plan and pay" in the mail, no "Please
 * subscribe" after signing in (they land on Royalties), the operator's payee minimum instead of "$50
 * (Basic plan), upgrade to Pro", and "Payee" rather than "Basic" in the admin users list. At 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

/** A mail file without quoted-printable soft breaks and escapes. */
const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function mailTo(email: string, containing: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const mails = await outboxMails(email);
      text = mails.map((mail) => decode(mail.text)).find((mail) => mail.includes(containing)) ?? '';
      return text !== '';
    })
    .toBe(true);
  return text;
}

function linkIn(text: string, containing: string): string {
  const link = text.match(/https?:\/\/[^\s"<>]+/g)?.find((url) => url.includes(containing));
  if (!link) throw new Error(`no link with ${containing} in:\n${text}`);
  return link;
}

for (const width of [1280, 390]) {
  test(`a split payee at ${width} px signs up from the invitation and never meets a plan or a price`, async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const tag = `${width}-${randomUUID().slice(0, 8)}`;
    const payeeEmail = `payee-${tag}@example.com`;
    const password = 'Str0ng!Tunes';
    const viewport = { width, height: 900 };

    // The operator sets the payee minimum to $25 (Admin Settings).
    const admin = await pageAs(browser, { roles: ['admin'] });
    await admin.page.setViewportSize(viewport);
    await admin.page.goto('/admin/settings');
    const minimum = admin.page.getByLabel('Payee minimum withdrawal (USD)');
    await minimum.fill('0.50');
    await admin.page.getByRole('button', { name: 'Save payee minimum' }).click();
    await expect(admin.page.getByText('Enter an amount from $1.00 to $1,000.00').first()).toBeVisible();
    await minimum.fill('25');
    await admin.page.getByRole('button', { name: 'Save payee minimum' }).click();
    await expect(admin.page.getByText('Payee minimum saved.')).toBeVisible();

    // The owner shares a live release with the collaborator, who is mailed an invitation.
    const owner = await seed.user({ plan: 'pro', artistName: `Owner ${tag}` });
    const { releaseId } = await seed.release({ userId: owner.userId, title: `Tides ${tag}`, status: 'live' });
    const split = await fetch(`${e2eEnv.baseUrl}/api/releases/${releaseId}/splits`, {
      method: 'PUT',
      headers: { cookie: owner.cookie ?? '', origin: e2eEnv.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({
        trackId: null,
        ownerPercent: '60',
        payees: [{ email: payeeEmail, percent: '40' }],
      }),
    });
    expect(split.status).toBe(200);
    const invitation = linkIn(await mailTo(payeeEmail, '/splits/invitations/'), '/splits/invitations/');

    // Signed out, from the mail: the invitation, then a sign-up with no plan and no price.
    const context = await browser.newContext({ baseURL: e2eEnv.baseUrl, viewport });
    const page = await context.newPage();
    await page.goto(invitation);
    await page.getByRole('link', { name: 'Create a free account' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByText('You are creating an account to accept a royalty split.')).toBeVisible();
    await expect(page.getByRole('radio')).toHaveCount(0);
    const form = page.getByRole('form', { name: 'Create your account' });
    await expect(form).not.toContainText(/Basic|Pro\b|\$\d|\/month|plan/i);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(payeeEmail);
    await page.getByLabel('Full name').fill('Pat Payee');
    await page.getByLabel('Artist name').fill('Pat');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

    // The mail speaks of the split, not of plans; its link leads back to the invitation, signed in.
    const mail = await mailTo(payeeEmail, '/api/auth/verify-email');
    expect(mail).toContain('then you come back to the royalty split you were invited to');
    expect(mail).not.toMatch(/choose your plan|and pay/i);
    await page.goto(linkIn(mail, '/api/auth/verify-email'));
    await expect(page).toHaveURL(new URL(invitation).pathname);
    await page.getByRole('button', { name: `Accept as ${payeeEmail}` }).click();
    await expect(page.getByText('Invitation accepted.')).toBeVisible();
    await context.close();

    // Signing in later: the first page is Royalties, with no subscribe gate and the payee minimum.
    const later = await browser.newContext({ baseURL: e2eEnv.baseUrl, viewport });
    const royalties = await later.newPage();
    await royalties.goto('/login');
    await royalties.getByLabel('Email').fill(payeeEmail);
    await royalties.getByLabel('Password').fill(password);
    await royalties.getByRole('button', { name: 'Sign In' }).click();
    await expect(royalties).toHaveURL(/\/dashboard\/royalties$/);
    await expect(royalties.getByRole('heading', { name: 'Royalties and Wallet' })).toBeVisible();
    await expect(royalties.getByText('Please subscribe to access the dashboard.')).toHaveCount(0);
    await expect(royalties.getByTestId('lapsed-banner')).toContainText('Your payee account');
    await expect(royalties.getByTestId('minimum-withdrawal')).toHaveText(
      'Minimum withdrawal: $25.00 (Payee account)',
    );
    await expect(royalties.getByText('Upgrade to Pro for a $20 minimum')).toHaveCount(0);
    await expect(royalties.getByText(/Basic plan|Choose a plan/)).toHaveCount(0);
    expect(await seriousA11yViolations(royalties)).toEqual([]);
    // Home is not theirs: it brings them back here rather than to "Please subscribe".
    await royalties.goto('/dashboard');
    await expect(royalties).toHaveURL(/\/dashboard\/royalties$/);
    await later.close();

    // The admin sees a payee, not a Basic account.
    await admin.page.goto('/admin/users');
    await admin.page.getByLabel('Search users by email, artist name or full name').fill(payeeEmail);
    const card = admin.page.getByTestId('user-card').filter({ hasText: payeeEmail });
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Payee', { exact: true })).toBeVisible();
    await expect(card.getByText('Basic', { exact: true })).toHaveCount(0);
    expect(await seriousA11yViolations(admin.page)).toEqual([]);
    await admin.context.close();
  });
}

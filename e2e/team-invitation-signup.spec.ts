/**
 * Journeys of issue 43 finding 10 and issue 44 finding 3 (records 229, 230), at 1280 px:
 * - someone invited to a team with no account goes from the invitation mail through sign-up and the
 *   verification mail to the account's dashboard, and never meets a plan, a price or a checkout, nor when
 *   they sign in again in a new browser; the admin's users list calls them a team member and staff "Staff",
 *   never "Basic";
 * - a member of a Basic account reads the Royalties page's minimum and a release's Content ID card with no
 *   plan and no upgrade;
 * - an admin changing another account's split is asked for a reason, and the collaborator whose share
 *   changed gets a mail with it.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The first link containing `part` in a mail to `email`, once it is in the outbox. */
async function linkTo(email: string, part: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const texts = (await outboxMails(email)).map((mail) => decode(mail.text));
      link =
        texts
          .flatMap((text) => text.match(/https?:\/\/[^\s"<>]+/g) ?? [])
          .find((url) => url.includes(part)) ?? '';
      return link !== '';
    })
    .toBe(true);
  return link;
}

/** Prices, plans and plan offers that a team member must never see. */
const PLAN_TEXT =
  /\$\d+(\.\d\d)?\s*\/\s*month|Choose a plan|Upgrade to Pro|Checkout|Plan Type|(Basic|Pro) plan/i;

test('an invited member signs up from the invitation and lands in the account, with no plan or price', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const ownerName = `Crew Label ${suffix}`;
  const owner = await pageAs(browser, { plan: 'pro', artistName: ownerName });
  const email = `new-member-${suffix}@example.com`;
  const invited = await owner.page.request.post('/api/team/invitations', {
    data: { email, role: 'catalog' },
    headers: { origin: e2eEnv.baseUrl },
  });
  expect(invited.status()).toBe(201);

  const context = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  const page = await context.newPage();
  await page.goto(await linkTo(email, '/team/invitations/'));
  await expect(page.getByRole('heading', { name: 'Team invitation' })).toBeVisible();
  await page.getByRole('link', { name: 'Create your account to join' }).click();
  await expect(page).toHaveURL(/\/signup\?team=[A-Za-z0-9_-]+$/);
  await expect(page.getByText('You are creating an account to join a team.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Plan' })).toHaveCount(0);
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill('Nia Member');
  await page.getByLabel('Artist name').fill('Nia');
  await page.getByLabel('Password', { exact: true }).fill('Str0ng!Tunes');
  await page.getByLabel('Confirm password').fill('Str0ng!Tunes');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

  // The verification link signs them in and returns to the invitation, never to a checkout.
  await page.goto(await linkTo(email, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/team\/invitations\/[A-Za-z0-9_-]+$/);
  await page.getByRole('button', { name: `Join as ${email}` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Team account', { exact: true })).toBeVisible();
  await expect(page.getByTestId('sidebar-plan')).toHaveText(ownerName);
  // The home page names their role, not the owner's plan (issue 44 finding 3).
  await expect(page.getByTestId('team-role')).toHaveText('Catalog');
  await expect(page.getByTestId('plan-type')).toHaveCount(0);
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  await page.goto('/dashboard/account');
  await expect(page.getByTestId('team-account-card')).toContainText(`You act for ${ownerName} as Catalog.`);
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  await context.close();

  // Another day, another browser: signing in lands on the team's dashboard, never the plan picker.
  const later = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  const again = await later.newPage();
  await again.goto('/login');
  await again.getByLabel('Email').fill(email);
  await again.getByLabel('Password', { exact: true }).fill('Str0ng!Tunes');
  await again.getByRole('button', { name: 'Sign In' }).click();
  await expect(again).toHaveURL(/\/dashboard$/);
  await expect(again.getByTestId('sidebar-plan')).toHaveText(ownerName);
  await expect(again.getByTestId('team-role')).toHaveText('Catalog');
  await expect(again.getByText(PLAN_TEXT)).toHaveCount(0);
  await later.close();

  // The admin's users list: the member is a team member of the account and staff are "Staff", not "Basic".
  const admin = await pageAs(browser, { roles: ['admin'], subscription: 'inactive' });
  await admin.page.goto('/admin/users');
  const search = admin.page.getByLabel('Search users by email, artist name or full name');
  await search.fill(email);
  const memberCard = admin.page.getByTestId('user-card').filter({ hasText: email });
  await expect(memberCard).toContainText(`Team member of ${ownerName}`);
  await expect(memberCard).not.toContainText('Basic');
  // Counted under their own tabs, not Basic (record 274).
  await expect(admin.page.getByTestId('count-team')).toHaveText('1');
  await expect(admin.page.getByTestId('count-basic')).toHaveText('0');
  await admin.page.getByRole('tab', { name: /Team members/ }).click();
  await expect(memberCard).toContainText(`Team member of ${ownerName}`);
  await admin.page.getByRole('tab', { name: /All/ }).click();
  await search.fill(admin.user.email);
  const staffCard = admin.page.getByTestId('user-card').filter({ hasText: admin.user.email });
  await expect(staffCard).toContainText('Staff');
  await expect(staffCard).not.toContainText('Basic');
  await expect(admin.page.getByTestId('count-staff')).toHaveText('1');
  await expect(admin.page.getByTestId('count-basic')).toHaveText('0');
  await expect(admin.page.getByTestId('count-team')).toHaveText('0');
  await admin.context.close();
});

test('a member of a Basic account reads the withdrawal minimum with no plan and no upgrade', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const suffix = randomUUID().slice(0, 8);
  const ownerName = `Basic Crew ${suffix}`;
  const owner = await pageAs(browser, { plan: 'basic', artistName: ownerName });
  const email = `finance-member-${suffix}@example.com`;
  const invited = await owner.page.request.post('/api/team/invitations', {
    data: { email, role: 'finance' },
    headers: { origin: e2eEnv.baseUrl },
  });
  expect(invited.status()).toBe(201);
  const { releaseId } = await seed.release({
    userId: owner.user.userId,
    title: `Basic Song ${suffix}`,
    status: 'live',
  });
  await owner.context.close();

  const member = await pageAs(browser, { email, subscription: 'inactive', artistName: 'Own Name' });
  const { page } = member;
  await page.goto(await linkTo(email, '/team/invitations/'));
  await page.getByRole('button', { name: `Join as ${email}` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('team-role')).toHaveText('Finance');
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  // The owner's Basic plan sets the minimum; the member is told the amount, not the plan or an upgrade.
  await page.goto('/dashboard/royalties');
  await expect(page.getByTestId('minimum-withdrawal')).toHaveText(
    'Minimum withdrawal: $50.00 (this account’s minimum)',
  );
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  // A release of the account: Content ID is not in its plan, and the member is not offered an upgrade.
  await page.goto(`/dashboard/releases/${releaseId}`);
  await expect(page.getByTestId('content-id-pro-gate')).toContainText(
    'YouTube Content ID is not included in this account. Its owner can add it.',
  );
  await expect(page.getByText(PLAN_TEXT)).toHaveCount(0);
  await member.context.close();
});

test('an admin’s split change asks for a reason, and the collaborator whose share changed is mailed', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const suffix = randomUUID().slice(0, 8);
  const owner = await seed.user({ plan: 'pro', artistName: `Split Owner ${suffix}` });
  const title = `Shared Song ${suffix}`;
  const { releaseId } = await seed.release({ userId: owner.userId, title, status: 'live' });
  const payee = `split-payee-${suffix}@example.com`;
  const headers = { cookie: owner.cookie ?? '', origin: e2eEnv.baseUrl };
  const saved = await fetch(`${e2eEnv.baseUrl}/api/releases/${releaseId}/splits`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ trackId: null, ownerPercent: '70', payees: [{ email: payee, percent: '30' }] }),
  });
  expect(saved.status).toBe(200);

  const admin = await pageAs(browser, { roles: ['admin'] });
  await admin.page.goto(`/admin/releases/${releaseId}/splits`);
  await expect(admin.page.getByRole('heading', { name: 'Release splits' })).toBeVisible();
  await expect(admin.page.getByText(`${title}, owned by ${owner.email}`)).toBeVisible();
  await admin.page.getByLabel('The owner’s share (%)').fill('100');
  await admin.page.getByRole('button', { name: 'Remove collaborator 1' }).click();
  await admin.page.getByRole('button', { name: 'Save split' }).click();
  await expect(
    admin.page.getByText(
      'Give a reason for changing this account’s split: it is logged and mailed to the collaborators.',
    ),
  ).toBeVisible();
  expect(await seriousA11yViolations(admin.page)).toEqual([]);
  await admin.page.getByLabel(/Reason for this change/).fill('Duplicate of the label’s own deal');
  await admin.page.getByRole('button', { name: 'Save split' }).click();
  await expect(admin.page.getByText('Split saved')).toBeVisible();
  await expect(admin.page.getByTestId('split-current').first()).toContainText('100.00%');

  await expect
    .poll(async () =>
      (await outboxMails(payee))
        .map((mail) => decode(mail.text))
        .some((text) => text.includes('Your share: 30.00%') && text.includes('Duplicate of the label')),
    )
    .toBe(true);
});

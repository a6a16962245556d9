/**
 * Journey (issue 27, record 202), at 1280 and 390 px: an owner invites a Finance and a Catalog member from
 * /dashboard/team; each accepts from the mail's link and lands in the owner's account. Finance saves the
 * payment details, sees the statements and withdraws from the owner's balance, sees no upload, edit or
 * takedown buttons and is refused a release edit by the server; Catalog edits the release, sees no
 * withdrawal button and is refused a withdrawal by the server (record 205). Then the owner transfers
 * ownership to Catalog after a confirmation and is an Admin, and Finance leaves the account.
 * Records 229, 314: Finance's new payout details wait until the owner confirms them from the mailed link,
 * then hold withdrawals (the dialog and the server say until when) and appear in the admin audit trail with
 * the member and the account. Record 230: joining
 * lands on the account's dashboard, whose sidebar names the team account and no plan or price.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { payoutConfirmationPath } from './support/payout-details';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function invitationLink(email: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const mails = await outboxMails(email);
      const text = mails.map((mail) => decode(mail.text)).find((mail) => mail.includes('/team/invitations/'));
      link = text?.match(/https?:\/\/[^\s"<>]+\/team\/invitations\/[A-Za-z0-9_-]+/)?.[0] ?? '';
      return link !== '';
    })
    .toBe(true);
  return new URL(link).pathname;
}

async function invite(page: Page, email: string, role: 'Finance' | 'Catalog') {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role').selectOption({ label: role });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  await expect(page.getByTestId('team-invitations')).toContainText(email);
}

async function join(browser: Browser, width: number, email: string) {
  const member = await pageAs(browser, { email, subscription: 'inactive', artistName: 'Member Own' });
  await member.page.setViewportSize({ width, height: 900 });
  await member.page.goto(await invitationLink(email));
  await expect(member.page.getByRole('heading', { name: 'Team invitation' })).toBeVisible();
  await member.page.getByRole('button', { name: `Join as ${email}` }).click();
  // Straight into the account (record 230).
  await expect(member.page).toHaveURL(/\/dashboard$/);
  return member.page;
}

async function tryEdit(page: Page, releaseId: string, title: string) {
  await page.goto(`/dashboard/edit-release/${releaseId}`);
  await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
  await page.getByLabel('Release Title').fill(title);
  await page.getByRole('button', { name: 'Save Changes' }).click();
}

for (const width of [1280, 390]) {
  test(`at ${width} px, Finance withdraws but cannot edit releases, Catalog edits but cannot withdraw`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const suffix = randomUUID().slice(0, 8);
    const ownerName = `Label ${suffix}`;
    const owner = await pageAs(browser, { plan: 'basic', artistName: ownerName, balanceCents: 200_00 });
    const { releaseId } = await seed.release({ userId: owner.user.userId, title: `Team Song ${suffix}` });
    await owner.page.setViewportSize({ width, height: 900 });
    await owner.page.goto('/dashboard/team');
    await expect(owner.page.getByRole('heading', { name: 'Team' })).toBeVisible();
    const financeEmail = `finance-${suffix}@example.com`;
    const catalogEmail = `catalog-${suffix}@example.com`;
    await invite(owner.page, financeEmail, 'Finance');
    await invite(owner.page, catalogEmail, 'Catalog');
    await expect(owner.page.getByText('2 of 2 team places used on your plan')).toBeVisible();
    expect(await seriousA11yViolations(owner.page)).toEqual([]);

    // Finance: statements and a withdrawal from the owner's balance; a release edit is refused.
    const finance = await join(browser, width, financeEmail);
    if (width >= 768) {
      await expect(finance.getByText('Team account', { exact: true })).toBeVisible();
      await expect(finance.getByTestId('sidebar-plan')).toHaveText(ownerName);
      await expect(finance.getByText(/\$\d+(\.\d\d)?\/month|Upgrade to Pro|Choose a plan/)).toHaveCount(0);
    }
    await finance.goto('/dashboard/royalties');
    await expect(finance.getByRole('heading', { name: 'Royalties and Wallet' })).toBeVisible();
    await expect(finance.getByTestId('available-balance')).toHaveText('$200.00');
    await expect(finance.getByRole('heading', { name: 'Statements' })).toBeVisible();
    if (width < 768) await finance.getByRole('button', { name: 'Open menu' }).click();
    await expect(finance.getByLabel('Account', { exact: true }).filter({ visible: true })).toHaveValue(
      owner.user.userId,
    );
    if (width < 768) await finance.getByRole('button', { name: 'Close menu' }).click();
    await finance.getByRole('radio', { name: 'PayPal' }).check();
    await finance.getByLabel('PayPal Email').fill('label.pay@example.com');
    await finance.getByRole('button', { name: 'Save Payment Information' }).click();
    // A member's new payout details wait for the owner's confirmation by email (record 314); nothing is in
    // force meanwhile. The owner confirms from the mailed link; withdrawals are held from then (72 h).
    await expect(finance.getByText('Check the owner’s email')).toBeVisible();
    await expect(finance.getByTestId('saved-payment-method')).toHaveText('No payment method saved yet.');
    await owner.page.goto(await payoutConfirmationPath(owner.user.email));
    await owner.page.getByRole('button', { name: 'Confirm new payout details' }).click();
    await expect(owner.page.getByTestId('confirm-payout-details')).toContainText('payouts are on hold until');
    await owner.page.goto('/dashboard/team');
    await finance.reload();
    await expect(finance.getByTestId('saved-payment-method')).toContainText('Saved: PayPal');
    await finance.getByRole('button', { name: 'Request Withdrawal' }).click();
    const dialog = finance.getByRole('dialog', { name: 'Request Withdrawal' });
    await expect(dialog.getByRole('alert')).toContainText('withdrawals are on hold until');
    await dialog.getByLabel('Amount (USD)').fill('60');
    await dialog.getByRole('button', { name: 'Request Withdrawal' }).click();
    await expect(finance.getByText('Withdrawals on hold').first()).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(finance.getByTestId('available-balance')).toHaveText('$200.00');
    if (width >= 768) {
      // The admin audit trail names the member and the account they acted for.
      const admin = await pageAs(browser, { roles: ['admin'] });
      await admin.page.goto('/admin/audit');
      await admin.page.getByLabel('User (email or id)').fill(financeEmail);
      await admin.page.getByRole('button', { name: 'Filter' }).click();
      const row = admin.page.getByTestId('audit-row').filter({ hasText: 'Changed payout details' });
      await expect(row).toContainText(financeEmail);
      await expect(row).toContainText(`Team member, for account ${owner.user.email}`);
      await admin.context.close();
    }
    // No catalogue actions for Finance (record 205): no upload entry, no edit or takedown on My Songs.
    await finance.goto('/dashboard/songs');
    await expect(finance.getByText(`Team Song ${suffix}`)).toBeVisible();
    await expect(finance.getByRole('link', { name: 'Edit Release' })).toHaveCount(0);
    await expect(finance.getByRole('button', { name: 'Request Takedown' })).toHaveCount(0);
    await expect(finance.getByRole('link', { name: 'Upload Music' })).toHaveCount(0);
    // The release page reads its splits but offers Finance no way to change them; no profile to add either.
    await finance.goto(`/dashboard/releases/${releaseId}`);
    await expect(finance.getByTestId('splits-read-only')).toHaveText(
      'Your role on this account (Finance) does not allow this.',
    );
    await finance.goto('/dashboard/artists');
    await expect(finance.getByRole('heading', { name: 'Artist profiles' })).toBeVisible();
    await expect(finance.getByRole('button', { name: 'Add artist profile' })).toHaveCount(0);
    await tryEdit(finance, releaseId, 'Edited By Finance');
    await expect(finance.getByText('Your role on this account (Finance) does not allow this.')).toBeVisible();

    // Catalog: the edit is saved; a withdrawal is refused.
    const catalog = await join(browser, width, catalogEmail);
    await tryEdit(catalog, releaseId, `Edited By Catalog ${suffix}`);
    await expect(catalog.getByText('Release updated successfully')).toBeVisible();
    await expect(catalog.getByText(`Edited By Catalog ${suffix}`)).toBeVisible();
    await catalog.goto('/dashboard/royalties');
    await expect(catalog.getByTestId('available-balance')).toHaveText('$200.00');
    await expect(catalog.getByRole('heading', { name: 'Statements' })).toBeVisible();
    await expect(catalog.getByRole('button', { name: 'Request Withdrawal' })).toHaveCount(0);
    const refused = await catalog.request.post('/api/wallet/withdrawals', {
      data: { amount: 60 },
      headers: { origin: new URL(catalog.url()).origin },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toBe(
      'Your role on this account (Catalog) does not allow this.',
    );

    // The owner sees both members on the team.
    await owner.page.reload();
    const members = owner.page.getByTestId('team-members');
    await expect(members).toContainText(financeEmail);
    await expect(members).toContainText(catalogEmail);

    // The owner hands the account to Catalog, after a confirmation, and is an Admin from then on.
    await owner.page.getByRole('button', { name: `Make ${catalogEmail} the owner` }).click();
    const confirm = owner.page.getByRole('alertdialog', { name: 'Transfer ownership' });
    await confirm.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect(owner.page.getByText('now owns this account. You are an Admin.')).toBeVisible();
    await expect(owner.page.getByText('Your role: Admin.')).toBeVisible();
    await expect(owner.page.getByRole('button', { name: /^Make .* the owner$/ })).toHaveCount(0);

    // Finance leaves the account, after a confirmation, and is back on their own.
    await finance.goto('/dashboard/team');
    await finance.getByRole('button', { name: 'Leave account' }).click();
    await finance
      .getByRole('alertdialog', { name: 'Leave account' })
      .getByRole('button', { name: 'Leave account' })
      .click();
    // Back on their own (unpaid) account, whose gate may show its own toast in place of 'You left …'.
    await expect
      .poll(async () => (await (await finance.request.get('/api/me')).json()).account)
      .toEqual({ id: expect.any(String), role: 'owner' });
    await expect(finance.getByRole('alertdialog', { name: 'Leave account' })).toBeHidden();
    await owner.page.reload();
    await expect(owner.page.getByTestId('team-members')).not.toContainText(financeEmail);
  });
}

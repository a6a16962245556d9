/**
 * Journey (issue 37, record 202): the owner changes a member's role on /dashboard/team with the keyboard,
 * in a dialog that says what the new role may do; the member's own Team page shows the new role. Keeping
 * the same role is refused in the dialog, and so is a member who left meanwhile (the server's message).
 */
import { randomUUID } from 'node:crypto';
import { expect, outboxMails, pageAs, seriousA11yViolations, test } from './support/test';

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

test("the owner changes a member's role from the Team page, with the keyboard", async ({ browser }) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const owner = await pageAs(browser, { plan: 'basic', artistName: `Label ${suffix}` });
  const email = `catalog-${suffix}@example.com`;
  await owner.page.goto('/dashboard/team');
  await owner.page.getByLabel('Email').fill(email);
  await owner.page.getByLabel('Role').selectOption({ label: 'Catalog' });
  await owner.page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.page.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const member = await pageAs(browser, { email, subscription: 'inactive', artistName: 'Member Own' });
  await member.page.goto(await invitationLink(email));
  await member.page.getByRole('button', { name: `Join as ${email}` }).click();
  await expect(member.page).toHaveURL(/\/dashboard$/);

  await owner.page.reload();
  const row = owner.page.getByTestId('team-members').getByRole('listitem').filter({ hasText: email });
  await expect(row).toContainText('Catalog');
  await row.getByRole('button', { name: `Change the role of ${email}` }).focus();
  await owner.page.keyboard.press('Enter');
  const dialog = owner.page.getByRole('dialog', { name: 'Change role' });
  await expect(dialog).toContainText(`(${email}) is Catalog now.`);
  await expect(dialog.getByLabel('New role')).toBeFocused();
  expect(await seriousA11yViolations(owner.page)).toEqual([]);

  // The same role is not a change: said in the dialog, which stays open.
  await dialog.getByRole('button', { name: 'Change role' }).focus();
  await owner.page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('Choose a role other than the current one.');

  await dialog.getByLabel('New role').selectOption({ label: 'Finance' });
  await expect(dialog.getByTestId('change-role-rights')).toHaveText(
    'Finance: Royalties, statements, withdrawals and payment settings.',
  );
  await dialog.getByRole('button', { name: 'Change role' }).focus();
  await owner.page.keyboard.press('Enter');
  await expect(owner.page.getByText(/is now Finance\.$/)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Finance');
  // Focus goes back to the button that opened the dialog.
  await expect(row.getByRole('button', { name: `Change the role of ${email}` })).toBeFocused();

  // The member acts with the new role.
  await member.page.goto('/dashboard/team');
  await expect(member.page.getByText('Your role: Finance.')).toBeVisible();

  // A member who left meanwhile: the server's refusal is shown in the dialog.
  await row.getByRole('button', { name: `Change the role of ${email}` }).click();
  const left = await member.page.request.post('/api/team/leave', { data: { accountId: owner.user.userId } });
  expect(left.status()).toBe(200);
  await dialog.getByLabel('New role').selectOption({ label: 'Viewer' });
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That member is not on this team.');
  await expect(dialog).toBeVisible();
  await owner.context.close();
  await member.context.close();
});

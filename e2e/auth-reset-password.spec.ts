/** Journey: forgot password → mail link → new password under the sign-up rules → old session gone → sign in. */
import { expect, outboxMails, pageAs, test } from './support/test';

function firstLink(eml: string): string {
  const decoded = eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const link = decoded.match(/https?:\/\/[^\s"<>]+/)?.[0];
  if (!link) throw new Error(`no link in mail:\n${eml}`);
  return link;
}

test('reset password: same answer for any address; the new password obeys the rules; old sessions end', async ({
  browser,
}) => {
  const { page: signedIn, context: oldDevice, user } = await pageAs(browser);
  await signedIn.goto('/dashboard');
  await expect(signedIn.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();

  const context = await browser.newContext();
  const page = await context.newPage();
  const answer =
    'If an account exists for this email, we have sent a link to reset your password. The link is valid for one hour.';
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(answer)).toBeVisible();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(answer)).toBeVisible();

  let mails: { text: string }[] = [];
  await expect
    .poll(async () => {
      mails = await outboxMails(user.email);
      return mails.length;
    })
    .toBe(1);
  await page.goto(firstLink(mails[0]?.text ?? ''));
  await expect(page).toHaveURL(/\/reset-password\?token=/);

  const password = page.getByLabel('New password', { exact: true });
  await password.fill('Password123!');
  await expect(page.getByText('Please use a stronger password')).toBeVisible();
  const localPart = user.email.split('@')[0] ?? '';
  await password.fill(`Q${localPart}1!`);
  await page.getByLabel('Confirm new password').fill(`Q${localPart}1!`);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password cannot contain your email address');

  await password.fill('N3w!Melodies');
  await page.getByLabel('Confirm new password').fill('N3w!Melodies');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed.', { exact: false })).toBeVisible();

  // The device that was signed in before is signed out.
  await signedIn.reload();
  await expect(signedIn).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('N3w!Melodies');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
  await oldDevice.close();
});

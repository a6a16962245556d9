/** Journey: sign up with live validation → the verification mail → its link signs in and lands on checkout. */
import { expect, outboxMails, test } from './support/test';

/** The first link of a mail file, undoing quoted-printable soft breaks and escapes. */
function firstLink(eml: string): string {
  const decoded = eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const link = decoded.match(/https?:\/\/[^\s"<>]+/)?.[0];
  if (!link) throw new Error(`no link in mail:\n${eml}`);
  return link;
}

test('sign-up → mail link → signed in on /checkout?plan=pro', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `signup-${Date.now()}@example.com`;

  await page.goto('/signup?plan=pro');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Pro/ })).toBeChecked();
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  await expect(page.getByTestId('dot-background').locator('span')).toHaveCount(20);

  const submit = page.getByRole('button', { name: 'Create account' });
  await expect(submit).toBeDisabled();

  // Live checks, in the order of §5.
  const emailField = page.getByLabel('Email');
  await emailField.fill('bad email');
  await expect(page.getByText('Email cannot contain spaces')).toBeVisible();
  await emailField.fill('jane@example');
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await emailField.fill(email);
  await expect(page.getByText('Please enter a valid email address')).toBeHidden();

  const password = page.getByLabel('Password', { exact: true });
  await password.fill('short');
  await expect(page.getByText('Password must be between 8 and 32 characters')).toBeVisible();
  await password.fill('lowercase1!');
  await expect(page.getByText('Password must contain at least one uppercase letter')).toBeVisible();
  await password.fill(`X${email.split('@')[0]}1!`);
  await expect(page.getByText('Password cannot contain your email address')).toBeVisible();
  await password.fill('Password123!');
  await expect(page.getByText('Please use a stronger password')).toBeVisible();
  await password.fill('Str0ng!Tunes');
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  await expect(checklist.locator('li[data-met="false"]')).toHaveCount(0);

  const confirm = page.getByLabel('Confirm password');
  await confirm.fill('Str0ng!Tunez');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(submit).toBeDisabled();
  await confirm.fill('Str0ng!Tunes');
  await expect(submit).toBeEnabled();

  // Blank names: the message appears on the email field.
  await submit.click();
  await expect(page.getByText('Please fill in all required fields')).toBeVisible();
  await page.getByLabel('Full name').fill('Jane Doe');
  await page.getByLabel('Artist name').fill('JD');
  await submit.click();

  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await expect(
    page.getByText(
      'Please check your email to verify your account. Click the link in the email to proceed to payment.',
    ),
  ).toBeVisible();

  let mails: { text: string }[] = [];
  await expect
    .poll(async () => {
      mails = await outboxMails(email);
      return mails.length;
    })
    .toBe(1);
  const link = firstLink(mails[0]?.text ?? '');
  expect(new URL(link).pathname).toBe('/api/auth/verify-email');

  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  await page.goto(link);
  await expect.poll(() => visited.some((url) => new URL(url).pathname === '/checkout')).toBe(true);
  const landed = new URL(visited.find((url) => new URL(url).pathname === '/checkout') ?? '');
  expect(landed.search).toBe('?plan=pro');

  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(200);
  expect((await me.json()).user).toMatchObject({ email, emailVerified: true });
  await context.close();
});

test('a taken address is reported on the email field; ?plan= other than basic or pro is ignored', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `taken-${Date.now()}@example.com`;
  await page.request.post('/api/auth/signup', {
    data: {
      email,
      fullName: 'First',
      artistName: 'First',
      password: 'Str0ng!Tunes',
      confirmPassword: 'Str0ng!Tunes',
      plan: 'basic',
    },
  });
  await page.goto('/signup?plan=enterprise');
  await expect(page.getByRole('radio', { name: /Basic/ })).toBeChecked();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill('Second');
  await page.getByLabel('Artist name').fill('Second');
  await page.getByLabel('Password', { exact: true }).fill('Str0ng!Tunes');
  await page.getByLabel('Confirm password').fill('Str0ng!Tunes');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('This email is already registered. Please sign in instead.')).toBeVisible();
  await context.close();
});

/**
 * Journey: sign up with live validation → the verification mail → its link signs in and lands on checkout;
 * the same link a second time is refused on the sign-in page.
 */
import { expect, outboxMails, seriousA11yViolations, test } from './support/test';

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

  // Spec 01 §5's first messages: a field left empty shows its own message once the user leaves it.
  const submit = page.getByRole('button', { name: 'Create account' });
  await expect(submit).toBeEnabled();
  await expect(page.getByText('Complete every requirement to continue.')).toHaveCount(0);
  await page.getByLabel('Email').focus();
  await page.getByLabel('Email').blur();
  await expect(page.getByText('Email is required', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Password', { exact: true }).focus();
  await page.getByLabel('Password', { exact: true }).blur();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();
  await page.getByLabel('Confirm password').focus();
  await page.getByLabel('Confirm password').blur();
  await expect(page.getByText('Please confirm your password', { exact: true })).toBeVisible();
  // The checklist stays beside the messages.
  await expect(page.getByRole('list', { name: 'Password requirements' })).toBeVisible();

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
  // A submit with a failing rule sends nothing and keeps the message in view.
  await submit.click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await confirm.fill('Str0ng!Tunes');
  await expect(page.getByText('Passwords do not match')).toBeHidden();

  // Blank names: the message appears on the email field.
  await submit.click();
  await expect(page.getByText('Please fill in all required fields')).toBeVisible();
  await page.getByLabel('Full name').fill('Jane Doe');
  await page.getByLabel('Artist name').fill('JD');
  await expect(page.getByText('Please fill in all required fields')).toBeHidden();
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

test('a verification link works once: opened again it signs nobody in and the sign-in page says why', async ({
  browser,
}) => {
  const first = await browser.newContext();
  const page = await first.newPage();
  const email = `once-${Date.now()}@example.com`;
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email,
      fullName: 'Once',
      artistName: 'Once',
      password: 'Str0ng!Tunes',
      confirmPassword: 'Str0ng!Tunes',
      plan: 'basic',
    },
  });
  expect(signup.status()).toBe(201);
  let mails: { text: string }[] = [];
  await expect
    .poll(async () => {
      mails = await outboxMails(email);
      return mails.length;
    })
    .toBe(1);
  const link = firstLink(mails[0]?.text ?? '');
  const verified = await page.request.get(link, { maxRedirects: 0 });
  expect(verified.headers().location).toBe('/checkout?plan=basic');
  await first.close();

  // Opened again (decision 143), in another browser.
  const second = await browser.newContext();
  const again = await second.newPage();
  await again.goto(link);
  await expect(again).toHaveURL(/\/login\?error=EMAIL_LINK_USED$/);
  await expect(again.getByRole('alert')).toHaveText(
    'This link has already been used or is not valid. If your email is not confirmed yet, sign in to get a new link.',
  );
  expect((await again.request.get('/api/me')).status()).toBe(401);
  expect(await seriousA11yViolations(again)).toEqual([]);
  await second.close();
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

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`an empty sign-up submitted on ${viewport.name} shows every field's spec message and passes axe`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Email is required', { exact: true })).toBeVisible();
    await expect(page.getByText('Password is required', { exact: true })).toBeVisible();
    await expect(page.getByText('Please confirm your password', { exact: true })).toBeVisible();
    // Focus moves to the first field in error, so a keyboard or screen-reader user lands on it.
    await expect(page.getByLabel('Email')).toBeFocused();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Left without a name: once a valid address is in, §5 puts the names message on the email field.
    await page.getByLabel('Email').fill(`nameless-${Date.now()}@example.com`);
    await page.getByLabel('Full name').focus();
    await page.getByLabel('Full name').blur();
    await expect(page.getByText('Please fill in all required fields')).toBeVisible();
    await context.close();
  });
}

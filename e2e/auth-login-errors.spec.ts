/** Journey: every sign-in message of spec 01 §5 and §8, the resend of the verification link, and success. */
import { expect, outboxMails, seed, test } from './support/test';

test('each sign-in error, then a successful sign-in lands on the dashboard', async ({ browser }) => {
  const verified = await seed.user({ isSignedIn: false });
  const unverified = await seed.user({ isSignedIn: false, isEmailVerified: false });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');

  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  const submit = page.getByRole('button', { name: 'Sign In' });
  const alert = page.getByRole('alert');

  await submit.click();
  await expect(alert).toHaveText('Please enter your email and password');

  await email.fill(verified.email);
  await password.fill('Wrong!Passw0rd');
  await submit.click();
  await expect(alert).toHaveText('Invalid email or password. Please try again.');

  await email.fill(unverified.email);
  await password.fill(unverified.password);
  await submit.click();
  await expect(alert).toHaveText(
    'Please verify your email address before signing in. Check your inbox for a confirmation link.',
  );
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'a new link is on its way' })).toBeVisible();
  await expect.poll(async () => (await outboxMails(unverified.email)).length).toBe(1);

  // Too many attempts: a clear message.
  await page.route('**/api/auth/sign-in/email', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: '{"message":"Too many requests. Please try again later."}',
    }),
  );
  await email.fill(verified.email);
  await password.fill(verified.password);
  await submit.click();
  await expect(alert).toHaveText('Too many attempts. Please wait a few minutes and try again.');

  // A network failure: the catalogue's exception text.
  await page.unroute('**/api/auth/sign-in/email');
  await page.route('**/api/auth/sign-in/email', (route) => route.abort('failed'));
  await submit.click();
  await expect(alert).toHaveText('An unexpected error occurred. Please try again.');
  await page.unroute('**/api/auth/sign-in/email');

  await submit.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();

  // Remember me was unchecked: the session cookie ends with the browser.
  const session = (await context.cookies()).find((cookie) => cookie.name === 'tunedrop.session_token');
  expect(session?.expires).toBe(-1);
  await context.close();
});

test('Remember me keeps the session cookie for 30 days', async ({ browser }) => {
  const user = await seed.user({ isSignedIn: false });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const session = (await context.cookies()).find((cookie) => cookie.name === 'tunedrop.session_token');
  const days = ((session?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29);
  await context.close();
});

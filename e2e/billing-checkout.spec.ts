/** Journey: sign-up → verification link → checkout → sandbox Pay → 'Payment successful!' → 'Renews on'. */
import { firstLink, longDate } from './support/billing';
import { expect, outboxMails, test } from './support/test';

test('a new artist pays in the sandbox and lands on an active subscription', async ({ browser }) => {
  const context = await browser.newContext();
  // The page reloads one second after the success toast: on a busy machine a polling assertion could miss
  // that second. Every page of the context reports the toasts' texts as they render, across the reload.
  const toastTexts: string[] = [];
  await context.exposeBinding('reportToastText', (_source, text: string) => {
    toastTexts.push(text);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { reportToastText: (text: string) => void }).reportToastText;
    new MutationObserver(() => {
      for (const toast of Array.from(document.querySelectorAll('[data-sonner-toast]'))) {
        report(toast.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const page = await context.newPage();
  const email = `buyer-${Date.now()}@example.com`;

  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email,
      fullName: 'Pat Buyer',
      artistName: 'Pat',
      password: 'Str0ng!Tunes',
      confirmPassword: 'Str0ng!Tunes',
      plan: 'pro',
    },
  });
  expect(signup.ok()).toBe(true);
  let mails: { text: string }[] = [];
  await expect
    .poll(async () => {
      mails = await outboxMails(email);
      return mails.length;
    })
    .toBe(1);

  // The link verifies, signs in, lands on /checkout?plan=pro, which hands over to the sandbox's page.
  await page.goto(firstLink(mails[0]?.text ?? ''));
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_/);
  await expect(page.getByRole('heading', { name: 'Subscribe to Tunedrop Pro' })).toBeVisible();
  await expect(page.getByTestId('sandbox-plan')).toHaveText('Pro');
  await expect(page.getByTestId('sandbox-price')).toHaveText('$19.99 per month');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();

  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/dashboard\?success=true$/);
  await expect(page.getByText('Activating subscription...', { exact: true })).toBeVisible();
  await expect
    .poll(() =>
      toastTexts.some(
        (text) =>
          text.includes('Payment successful!') &&
          text.includes('Your subscription is now active. Welcome to Tunedrop!'),
      ),
    )
    .toBe(true);
  // A full-page redirect to /dashboard one second later.
  await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '', { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await expect(page.getByTestId('sidebar-plan')).toContainText('Pro');

  const me = (await (await page.request.get('/api/me')).json()) as {
    profile: { subscriptionEnd: string };
  };
  await page.getByRole('link', { name: 'Account' }).click();
  const plan = page.getByTestId('current-plan');
  await expect(plan.getByText(`Renews on ${longDate(me.profile.subscriptionEnd)}`)).toBeVisible();
  await expect(plan.getByTestId('subscription-status')).toHaveText('Active');
  await expect(plan.getByRole('button', { name: 'Manage Subscription' })).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
  await context.close();
});

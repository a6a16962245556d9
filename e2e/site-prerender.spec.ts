/// <reference lib="dom" />
/**
 * The public pages arrive prerendered (record 128): their text is in the HTML itself, readable without
 * JavaScript; once React hydrates the markup there is no console error (a hydration mismatch reports
 * one) and the pages work: menu, Contact Us, the sign-in form, a signed-in visitor.
 */
import type { Page } from '@playwright/test';
import { expect, pageAs, test } from './support/test';

/**
 * Collects console errors and uncaught page errors from the moment the page opens, less one that comes
 * before and without prerendering: GET /api/me answering 401 to a visitor. (zod's probe for eval, which
 * the Content Security Policy reported on the sign-in and sign-up pages, is off: lib/zod-jitless.ts.)
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    const isKnown = text.includes('status of 401');
    if (message.type() === 'error' && !isKnown) errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const hydrated = (page: Page) => expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);

test('the public pages come as HTML with their text in it', async ({ request }) => {
  const expected: [string, string[]][] = [
    ['/', ['Your music on 150+ platforms.', 'How It Works', 'Why Artists Choose Tunedrop']],
    ['/pricing', ['Simple pricing for every release plan', '$9.99', '$19.99', 'Frequently Asked Questions']],
    ['/terms', ['Terms of Service', 'Rights and Ownership']],
    ['/privacy', ['Privacy Policy', 'Information We Collect']],
    ['/login', ['Sign In', 'Remember me', 'Forgot password?']],
    ['/signup', ['Create your account', 'Confirm password']],
  ];
  for (const [pagePath, texts] of expected) {
    const response = await request.get(pagePath);
    expect(response.status(), pagePath).toBe(200);
    expect(response.headers()['cache-control'], pagePath).toBe('no-cache');
    const html = await response.text();
    for (const text of texts) expect(html, `${pagePath}: ${text}`).toContain(text);
    // The stylesheet is inlined, so nothing blocks the first paint but the HTML.
    expect(html, pagePath).not.toContain('rel="stylesheet"');
  }
  // Every other page is the empty shell the client renders.
  const shell = await (await request.get('/dashboard')).text();
  expect(shell).toContain('<div id="root"></div>');
});

test('without JavaScript the home and pricing pages still read and link', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Your music on 150+ platforms.');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole('article', { name: 'Pro' })).toContainText('$19.99');
  await context.close();
});

test('before the scripts run, the sign-in and sign-up forms cannot be sent by the browser itself', async ({
  browser,
}) => {
  // A native submit would be a GET with the password in the address bar, the history and the server log.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  await page.getByLabel('Email').fill('fast@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Typed-before-the-scripts1!');
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.getByLabel('Password', { exact: true }).press('Enter');
  // No fixed wait: a native submit would start its request while the key is handled, before the
  // navigation the test starts next; so once /signup has loaded, no request may have carried the password.
  await page.goto('/signup');
  expect(requested.filter((url) => url.includes('Typed-before'))).toEqual([]);
  expect(requested.filter((url) => new URL(url).pathname === '/login')).toEqual([]);
  await expect(page.getByRole('button', { name: 'Create account' })).toBeDisabled();
  await context.close();
});

test('what a visitor types into the prerendered sign-in form before the scripts run is kept and sent', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByLabel('Email').fill('early@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Typed-early1!');
  releaseScripts();
  await hydrated(page);
  await expect(page.getByLabel('Email')).toHaveValue('early@example.com');
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Sent with what was typed: the server's answer, not the form's 'Please enter your email and password'.
  await expect(page.getByText('Invalid email or password. Please try again.')).toBeVisible();
  await context.close();
});

test('after hydration the pages work and nothing was logged as an error', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  const errors = watchErrors(page);

  await page.goto('/');
  await hydrated(page);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Home' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeHidden();
  // The footer's support address arrives after hydration (GET /api/config).
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'support@tunedrop.local' }),
  ).toBeVisible();

  await page.goto('/pricing');
  await hydrated(page);
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();

  await page.goto('/login');
  await hydrated(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter your email and password');

  await page.goto('/signup?plan=pro');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

  expect(errors).toEqual([]);
  await context.close();
});

test('a signed-in visitor gets the hydrated home page, and /login still sends them on', async ({
  browser,
}) => {
  const { page, context } = await pageAs(browser);
  const errors = watchErrors(page);
  await page.goto('/');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Your music on 150+ platforms.');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' }),
  ).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard/);
  expect(errors).toEqual([]);
  await context.close();
});

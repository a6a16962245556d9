/**
 * Journey (issue 27, record 203): an admin renames the product and changes the accent colour on Admin
 * Settings; the home page (prerendered again with the brand) shows them at 1280 and 390 px, a mail in the
 * outbox and a statement name the product; with no enabled YouTube target the admin is warned that the
 * pricing page's "YouTube Content ID protection" is not backed. The brand is reset at the end (journeys
 * share one database). It changes what every page shows, so playwright.config.ts runs it alone after the
 * other journeys (project `site-wide`). Issue 44: with a 15% fee the home page says what artists keep, and no
 * public page shows "Tunedrop" through the brand. To run it by itself: `npm run test:e2e -- --no-deps e2e/brand-settings.spec.ts`.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

const DEFAULT_BRAND = {
  productName: 'Tunedrop',
  accentColor: '#7c3aed',
  supportEmail: '',
  privacyEmail: '',
  platformsClaim: '150+',
};

test('a brand change shows on the home page, in a mail and on a statement; an unbacked Content ID claim warns', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 6);
  const name = `Harbour Sound ${suffix}`;
  const adminUser = await seed.user({ roles: ['admin'] });
  const headers = {
    cookie: adminUser.cookie ?? '',
    origin: e2eEnv.baseUrl,
    'content-type': 'application/json',
  };
  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${e2eEnv.baseUrl}${route}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });

  // Content ID needs an enabled YouTube target: any another journey left enabled is switched off, then back on.
  const targets = (await (await api('/api/admin/delivery/targets')).json()) as {
    items: { id: string; profile: string; enabled: boolean }[];
  };
  const youtube = targets.items.filter((target) => target.profile === 'youtube' && target.enabled);
  for (const target of youtube) {
    const answer = await api(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ enabled: false }),
    });
    expect(answer.status).toBe(200);
  }

  const admin = await pageAs(browser, { roles: ['admin'] });
  try {
    await admin.page.setViewportSize({ width: 1280, height: 900 });
    await admin.page.goto('/admin/settings');
    const card = admin.page.getByTestId('brand-settings');
    await expect(card.getByTestId('brand-warnings')).toContainText(
      'The pricing page promises "YouTube Content ID protection", but no enabled delivery target has the YouTube profile.',
    );
    // A colour white text cannot be read on is refused by the shared schema.
    await card.getByLabel('Accent colour').fill('#fde047');
    await card.getByRole('button', { name: 'Save brand' }).click();
    await expect(
      card.getByText('Pick a darker colour: white text on it must reach a contrast of 4.5:1.'),
    ).toBeVisible();
    await card.getByLabel('Product name').fill(name);
    await card.getByLabel('Accent colour').fill('#0f766e');
    await card.getByRole('button', { name: 'Save brand' }).click();
    await expect(admin.page.getByText('Brand saved.')).toBeVisible();
    expect(await seriousA11yViolations(admin.page)).toEqual([]);

    // The warning is on the other admin pages too.
    await admin.page.goto('/admin/releases');
    await expect(admin.page.getByTestId('brand-warnings')).toContainText('YouTube Content ID protection');

    // The home page, prerendered again with the brand, for a visitor.
    const visitor = await browser.newContext({ baseURL: e2eEnv.baseUrl });
    const page = await visitor.newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await expect(page.getByRole('heading', { name: `Why Artists Choose ${name}` })).toBeVisible();
      await expect(page).toHaveTitle(`${name}: music distribution for independent artists`);
      await expect(page.getByRole('link', { name: 'Start Releasing' })).toHaveCSS(
        'background-color',
        'rgb(15, 118, 110)',
      );
      await expect(page.locator('footer')).toContainText(`${name}. All rights reserved.`);
    }
    // The markup itself carries the brand (no script needed to show it).
    const html = await (await fetch(`${e2eEnv.baseUrl}/`)).text();
    expect(html).toContain(`Why Artists Choose ${name}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Issue 44: with a 15% fee the home page says what the artist keeps, not "100%" revenue share...
    const fees = await api('/api/admin/finance/fees', {
      method: 'PUT',
      body: JSON.stringify({ basic: '15', pro: '15', payee: '0' }),
    });
    expect(fees.status).toBe(200);
    await page.goto('/');
    const stats = page.locator('main dl').first();
    await expect(stats).toContainText('Revenue you keep85%');
    await expect(stats).not.toContainText('100%');
    await expect(stats).not.toContainText('Revenue share');
    await expect(
      page.getByText('85% of the revenue your music earns: our distribution fee is 15%.'),
    ).toBeVisible();
    await expect(page.getByText('24-48 hours on Pro (Basic: 7-14 days)').first()).toBeVisible();
    // The pricing page names the fee under each plan's price, before anyone subscribes.
    await page.goto('/pricing');
    await expect(page.getByTestId('plan-fee')).toHaveText([
      'Plus a 15% distribution fee: you keep 85% of your earnings',
      'Plus a 15% distribution fee: you keep 85% of your earnings',
    ]);
    // ...and no public page shows "Tunedrop" through the operator's brand, in its text or its title.
    for (const publicPath of ['/', '/pricing', '/terms', '/privacy', '/login', '/signup']) {
      await page.goto(publicPath);
      await expect(page.getByText(name).first()).toBeVisible();
      await expect(page.locator('body'), publicPath).not.toContainText('Tunedrop');
      expect(await page.title(), publicPath).not.toContain('Tunedrop');
    }
    await visitor.close();

    // A mail: the password reset names the product.
    const artist = await pageAs(browser, { plan: 'pro', balanceCents: 1234 });
    const reset = await fetch(`${e2eEnv.baseUrl}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { origin: e2eEnv.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email: artist.user.email, redirectTo: '/reset-password' }),
    });
    expect(reset.status).toBe(200);
    let mails: { text: string }[] = [];
    await expect
      .poll(async () => {
        mails = await outboxMails(artist.user.email);
        return mails.length;
      })
      .toBe(1);
    const mail = (mails[0]?.text ?? '').replace(/\r?\n[ \t]+/g, ' ');
    expect(mail).toContain(`Subject: Reset your ${name} password`);

    // A statement: the seeded balance's opening line (2000-01) gives a statement, headed with the product.
    const pdf = await artist.page.request.get('/api/royalties/statements/2000-01.pdf');
    expect(pdf.status()).toBe(200);
    const file = path.join(os.tmpdir(), `brand-statement-${suffix}.pdf`);
    await fs.writeFile(file, await pdf.body());
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    await fs.rm(file, { force: true });
    expect(text).toContain(`${name} royalty statement`);
  } finally {
    await api('/api/admin/finance/fees', {
      method: 'PUT',
      body: JSON.stringify({ basic: '0', pro: '0', payee: '0' }),
    });
    const resetBrand = await api('/api/admin/brand', { method: 'PUT', body: JSON.stringify(DEFAULT_BRAND) });
    expect(resetBrand.status).toBe(200);
    for (const target of youtube) {
      await api(`/api/admin/delivery/targets/${target.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ enabled: true }),
      });
    }
  }
  // Back to the spec's brand: the home page is the built one again.
  const html = await (await fetch(`${e2eEnv.baseUrl}/`)).text();
  expect(html).toContain('Why Artists Choose Tunedrop');
  expect(html).not.toContain('name="site-brand"');
});

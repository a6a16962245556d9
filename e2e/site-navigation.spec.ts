/// <reference lib="dom" />
/** A visitor moves around the public site: navigation, calls to action, plans, legal pages, footer. */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('the top navigation links to every public page and highlights the current one', async ({ page }) => {
  await page.goto('/');
  await expect(nav(page).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

  await nav(page).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(nav(page).getByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');

  await nav(page).getByRole('link', { name: 'Terms' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  await expect(nav(page).getByRole('link', { name: 'Terms' })).toHaveAttribute('aria-current', 'page');

  await nav(page).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  await nav(page).getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the bar turns solid after 20px of scroll', async ({ page }) => {
  await page.goto('/');
  const header = page.locator('header[data-solid]');
  await expect(header).toHaveAttribute('data-solid', 'false');
  await page.evaluate(() => window.scrollTo(0, 10));
  await expect(header).toHaveAttribute('data-solid', 'false');
  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(header).toHaveAttribute('data-solid', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-solid', 'false');
});

test('on a phone the navigation collapses into a menu', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto('/');
  await expect(nav(page).getByRole('link', { name: 'Pricing' })).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(menu).toBeHidden();
  await context.close();
});

test('both hero buttons and both closing buttons go to the pricing page', async ({ page }) => {
  await page.goto('/');
  const hero = page.locator('section[aria-labelledby="hero-title"]');
  const closing = page.locator('section[aria-labelledby="closing-title"]');
  const heroLinks = hero.getByRole('link');
  const closingLinks = closing.getByRole('link');
  await expect(heroLinks).toHaveCount(2);
  await expect(closingLinks).toHaveCount(2);
  for (const link of [...(await heroLinks.all()), ...(await closingLinks.all())]) {
    await expect(link).toHaveAttribute('href', '/pricing');
  }
  await closing.getByRole('link', { name: 'Compare Plans' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  // The pricing page starts at the top even when reached from the bottom of the home page.
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goto('/');
  await hero.getByRole('link', { name: 'Start Releasing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('the home page shows the four steps, the four reasons and a scroll-to-top button after 100px', async ({
  page,
}) => {
  await page.goto('/');
  const steps = page.locator('section[aria-labelledby="how-it-works"]');
  await expect(steps.getByRole('heading', { level: 3 })).toHaveText([
    'Upload',
    'Prepare',
    'Review',
    'Release',
  ]);
  const reasons = page.locator('section[aria-labelledby="why-artists"]');
  await expect(reasons.getByRole('heading', { level: 2 })).toContainText('Why Artists Choose');
  await expect(reasons.getByRole('heading', { level: 3 })).toHaveText([
    'Global Reach',
    'Fast Release',
    'Pro Analytics',
    'Full Control',
  ]);
  await expect(page.getByText('150+', { exact: true })).toBeVisible();

  const toTop = page.getByRole('button', { name: 'Scroll to top' });
  await expect(toTop).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 90));
  await expect(toTop).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 600));
  await expect(toTop).toBeVisible();
  await toTop.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(toTop).toHaveCount(0);
});

test('each plan offers Get Started with its plan and lists every row of the comparison', async ({ page }) => {
  await page.goto('/pricing');
  const basic = page.getByRole('article', { name: 'Basic' });
  const pro = page.getByRole('article', { name: 'Pro' });
  await expect(basic).toContainText('$9.99');
  await expect(pro).toContainText('$19.99');
  await expect(pro).toContainText('Most Popular');
  await expect(basic).not.toContainText('Most Popular');
  for (const text of [
    '1 artist profile',
    'Unlimited singles, EPs and albums',
    '150+',
    '7-14 days',
    '2-3 business days',
  ]) {
    await expect(basic).toContainText(text);
  }
  for (const text of [
    'Unlimited artist profiles',
    '150+',
    '1-2 days',
    'revenue tracking',
    'real-time reports',
    'ISRC and UPC',
    'YouTube Content ID',
    '1 business day',
  ]) {
    await expect(pro).toContainText(text);
  }
  await expect(
    page.locator('section[aria-labelledby="how-it-works"]').getByRole('heading', { level: 3 }),
  ).toHaveText(['Upload Music', 'Add Details', 'Choose Stores', 'Release']);
  const faq = page.locator('section[aria-labelledby="faq-title"]');
  await faq.getByText('What audio format do my tracks need to be in?').click();
  await expect(faq.getByText('16-bit or 24-bit, at 44.1kHz')).toBeVisible();

  await expect(basic.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
    'href',
    '/signup?plan=basic',
  );
  await pro.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/signup\?plan=pro$/);
  await page.goBack();
  await page.getByRole('article', { name: 'Basic' }).getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/signup\?plan=basic$/);
});

test('the legal pages have their sections and contact lines, and the footer links to them', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Tunedrop`);
  await expect(footer.getByRole('link', { name: 'support@tunedrop.local' })).toHaveAttribute(
    'href',
    'mailto:support@tunedrop.local',
  );
  await footer.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.locator('main h2')).toHaveText([
    /Introduction$/,
    /Service Description$/,
    /Rights and Ownership$/,
    /Content Guidelines$/,
    /Payment Terms$/,
    /Termination$/,
    /Updates to Terms$/,
  ]);
  await expect(page.getByRole('heading', { name: 'Rights and Ownership', exact: true })).toBeVisible();
  await expect(page.locator('main').getByRole('link', { name: 'support@tunedrop.local' })).toBeVisible();

  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.locator('main h2')).toHaveText([
    /Information We Collect$/,
    /How We Use Your Information$/,
    /Information Sharing$/,
    /Data Security$/,
    /International Data Transfers$/,
    /Your Rights$/,
  ]);
  await expect(page.locator('main').getByRole('link', { name: 'privacy@tunedrop.local' })).toHaveAttribute(
    'href',
    'mailto:privacy@tunedrop.local',
  );

  await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('each public page has one h1, its own title and description, and no dashboard or admin code', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const seen = new Set<string>();
  for (const path of ['/', '/pricing', '/terms', '/privacy']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('main')).toHaveCount(1);
    const title = await page.title();
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(title).toContain('Tunedrop');
    expect(description?.length ?? 0).toBeGreaterThan(40);
    const key = `${title}|${description}`;
    expect(seen.has(key), `${path} repeats another page's title and description`).toBe(false);
    seen.add(key);
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => /dashboard|admin|account|builder|royalties|songs/.test(script))).toEqual(
    [],
  );
  // The scripts go out compressed.
  const asset = await page.request.get(scripts[0] ?? '', { headers: { 'accept-encoding': 'gzip' } });
  expect(asset.headers()['content-encoding']).toBe('gzip');
});

test('at 375px wide no page scrolls or overflows sideways', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  for (const path of ['/', '/pricing', '/terms', '/privacy']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const offenders: string[] = [];
      for (const element of Array.from(document.querySelectorAll('body *'))) {
        const rect = element.getBoundingClientRect();
        if (rect.width <= 1 || rect.height <= 1) continue; // screen-reader-only text
        if (element.closest('[aria-hidden="true"]')) continue; // decoration
        if (rect.right > width + 1 || rect.left < -1) {
          offenders.push(`${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
        }
      }
      return { scrollWidth: document.documentElement.scrollWidth, width, offenders: offenders.slice(0, 5) };
    });
    expect(overflow.scrollWidth, path).toBeLessThanOrEqual(overflow.width);
    expect(overflow.offenders, path).toEqual([]);
  }
  await context.close();
});

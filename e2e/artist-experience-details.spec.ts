/**
 * Journeys for issue 18 point 6, the smaller artist-experience problems, at 1280 px and 390 px with axe on
 * the changed pages: the sidebar's plan card, Manage Subscription on a granted subscription, Upgrade to
 * Pro's confirmation, the first-release prompt, toasts clear of headings, the 404 page, an artist name
 * typed but not added, discarding a draft, the track tabs' scroll cue and the audit table on a phone.
 */
import type { Browser, Page } from '@playwright/test';
import { longDate, subscribeInSandbox } from './support/billing';
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, type SeedUserOptions, seed, seriousA11yViolations, test } from './support/test';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

async function pageAt(browser: Browser, viewport: Viewport, options: SeedUserOptions) {
  const opened = await pageAs(browser, options);
  await opened.page.setViewportSize({ width: viewport.width, height: viewport.height });
  return opened;
}

/** The sidebar as the user sees it: the aside on desktop, the opened menu on a phone. */
async function sidebar(page: Page, viewport: Viewport) {
  if (viewport.width >= 768) return page.locator('aside');
  await page.getByRole('button', { name: 'Open menu' }).click();
  return page.locator('#dashboard-mobile-menu');
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} width`, () => {
    test('the sidebar tells an unpaid or banned account the truth about its plan', async ({ browser }) => {
      test.setTimeout(90_000);
      // Unpaid, on the Pro plan: no price it does not pay, no Analytics link.
      const unpaid = await pageAt(browser, viewport, { plan: 'pro', subscription: 'inactive' });
      await unpaid.page.goto('/dashboard/account');
      await expect(unpaid.page.getByRole('heading', { name: 'Current Plan' })).toBeVisible();
      let side = await sidebar(unpaid.page, viewport);
      await expect(side.getByTestId('sidebar-plan')).toHaveText('No active plan');
      await expect(side.getByText('$19.99/month')).toHaveCount(0);
      await expect(side.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
      await expect(side.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute(
        'href',
        '/dashboard/account',
      );
      expect(await seriousA11yViolations(unpaid.page)).toEqual([]);
      await unpaid.context.close();

      // Banned, paying for Basic: no "Upgrade to Pro" in the sidebar nor on the home page.
      const banned = await pageAt(browser, viewport, {
        plan: 'basic',
        subscription: 'active',
        banReason: 'Copyright strikes',
      });
      await banned.page.goto('/dashboard');
      await expect(banned.page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
      side = await sidebar(banned.page, viewport);
      await expect(side.getByTestId('sidebar-plan')).toContainText('Basic');
      await expect(banned.page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveCount(0);
      await banned.context.close();

      // A paying Basic artist still sees the price and the upgrade.
      const paying = await pageAt(browser, viewport, { plan: 'basic', subscription: 'active' });
      await paying.page.goto('/dashboard');
      side = await sidebar(paying.page, viewport);
      await expect(side.getByTestId('sidebar-plan')).toHaveText('Basic $9.99/month');
      await expect(side.getByRole('link', { name: 'Upgrade to Pro' })).toBeVisible();
      await paying.context.close();
    });

    test('a brand-new artist is prompted to upload a first release; the toast keeps headings clear', async ({
      browser,
    }) => {
      const { page, context, user } = await pageAt(browser, viewport, { plan: 'basic' });
      await page.goto('/dashboard');
      const prompt = page.getByRole('region', { name: 'Upload your first release' });
      await expect(prompt).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await prompt.getByRole('link', { name: 'Start your first release' }).click();
      await expect(page).toHaveURL(/\/dashboard\/upload$/);
      await expect(page.getByRole('heading', { name: 'Upload Music' })).toBeVisible();

      // With a release, the prompt is gone.
      await seed.release({ userId: user.userId, title: 'Already Out' });
      await page.goto('/dashboard');
      await expect(page.getByTestId('total-releases')).toHaveText('1');
      await expect(page.getByRole('region', { name: 'Upload your first release' })).toHaveCount(0);

      // A toast (here the one of a saved profile) never covers the page heading.
      await page.goto('/dashboard/account');
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toBeVisible();
      await page.getByLabel('Artist name').fill('Renamed Artist');
      await page
        .getByRole('button', { name: /Save|Update Profile/ })
        .first()
        .click();
      const toast = page.locator('[data-sonner-toast]').first();
      await expect(toast).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      const [toastBox, headingBox] = [await toast.boundingBox(), await heading.boundingBox()];
      if (!toastBox || !headingBox) throw new Error('no box for the toast or the heading');
      const overlaps =
        toastBox.x < headingBox.x + headingBox.width &&
        headingBox.x < toastBox.x + toastBox.width &&
        toastBox.y < headingBox.y + headingBox.height &&
        headingBox.y < toastBox.y + toastBox.height;
      expect(overlaps).toBe(false);
      await context.close();
    });

    test('an unknown route shows a designed not-found page with a way home', async ({ browser }) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto('/dashboard/no-such-page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
      await expect(page).toHaveTitle(/Page not found/);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await context.close();
    });
  });
}

test('Manage Subscription on a subscription granted by an admin gives a clear answer', async ({
  browser,
}) => {
  const { page, context } = await pageAs(browser, { plan: 'basic', subscription: 'active' });
  await page.goto('/dashboard/account');
  await page.getByTestId('current-plan').getByRole('button', { name: 'Manage Subscription' }).click();
  await expect(
    page.getByText(
      'Your subscription was granted by the Tunedrop team, so there is no billing to manage. Contact support to change it.',
    ),
  ).toBeVisible();
  await expect(page.getByText('Choose a plan first', { exact: false })).toHaveCount(0);
  await context.close();
});

for (const viewport of VIEWPORTS) {
  test(`Upgrade to Pro asks first and says it takes effect at the next billing cycle (${viewport.name})`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const { page, context } = await pageAt(browser, viewport, { plan: 'basic', subscription: 'inactive' });
    await subscribeInSandbox(page, 'basic');
    const me = (await (await page.request.get('/api/me')).json()) as { profile: { subscriptionEnd: string } };
    const endDate = longDate(me.profile.subscriptionEnd);
    await page.goto('/dashboard/account');
    const plan = page.getByTestId('current-plan');
    await plan.getByRole('button', { name: 'Upgrade to Pro' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Upgrade to Pro?' });
    await expect(dialog).toContainText(
      `Your plan changes to Pro on ${endDate}, at the start of your next billing cycle. Nothing is charged now`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await (await page.request.get('/api/me')).json()).profile.plan).toBe('basic');
    await plan.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.getByRole('button', { name: 'Upgrade at next billing cycle' }).click();
    await expect(page.getByText('Plan change scheduled')).toBeVisible();
    await expect(plan.getByText(`Your plan changes to Pro on ${endDate}.`)).toBeVisible();
    await context.close();
  });
}

for (const viewport of VIEWPORTS) {
  test(`builder: an unadded artist name is flagged on its field; a draft can be discarded (${viewport.name})`, async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const media = mediaDir();
    const { page, context } = await pageAt(browser, viewport, { plan: 'pro', artistName: 'Tab Crowd' });
    await page.goto('/dashboard/release-builder');
    await page.getByLabel('Release Title').fill('Many Tabs');
    await page.getByLabel('Genre').selectOption('Pop');
    await page.getByLabel('Release Date', { exact: true }).fill('2032-05-05');
    await page.getByLabel('Copyright Holder').fill('Tab Crowd');
    await page.getByLabel('Publishing Holder').fill('Tab Crowd');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('tabs.png'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();
    await expect(page.getByRole('heading', { name: 'Tracks' })).toBeVisible();

    // Tabs that fit show no cue; eight tabs overflow (on a phone for sure) and a cue says so.
    const cue = page.getByTestId('track-tabs-scroll-cue');
    const tabs = page.getByRole('list', { name: 'Tracks' });
    if (viewport.width >= 768) {
      await page.getByLabel('Number of Tracks').selectOption('2');
      await expect(page.getByTestId('track-tab')).toHaveCount(2);
      await expect(cue).toHaveCount(0);
    }
    await page.getByLabel('Number of Tracks').selectOption('8');
    await expect(page.getByTestId('track-tab')).toHaveCount(8);
    const overflow = await tabs.evaluate((list) => list.scrollWidth - list.clientWidth);
    if (viewport.width < 768) expect(overflow).toBeGreaterThan(0);
    if (overflow > 0) await expect(cue).toHaveText('Swipe sideways to see all 8 tracks');
    else await expect(cue).toHaveCount(0);
    // The page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );

    // A name typed in Primary Artists but never added, then Continue: the message is on that field.
    const primary = page.getByRole('group', { name: 'Primary Artists' });
    await page.getByLabel('Track Title').fill('First Tab');
    await answerAiUse(page);
    await primary.getByLabel('Artist Name').fill('Typed Only');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    const nameField = primary.getByLabel('Artist Name');
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(
      primary.getByText('"Typed Only" is not added yet. Press Add Primary Artist to add it.'),
    ).toBeVisible();
    await expect(primary.getByText('At least one primary artist is required')).toHaveCount(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
    await expect(primary.getByRole('listitem')).toHaveText(['Typed Only']);
    await expect(primary.getByText('is not added yet', { exact: false })).toHaveCount(0);
    await expect(page.getByTestId('save-state')).toHaveText('Draft saved');

    // The upload page says a draft exists; discarding asks first, and Keep draft keeps it.
    await page.goto('/dashboard/upload');
    const notice = page.getByRole('region', { name: 'You have a draft in progress' });
    await expect(notice).toContainText('"Many Tabs" is saved at step 2 of 4.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await notice.getByRole('button', { name: 'Discard draft' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Discard this draft?' });
    await expect(confirm).toContainText('"Many Tabs" and everything entered in it');
    await confirm.getByRole('button', { name: 'Keep draft' }).click();
    await expect(notice).toBeVisible();
    await notice.getByRole('link', { name: 'Continue draft' }).click();
    await expect(page.getByRole('heading', { name: 'Tracks' })).toBeVisible();

    // Discard from the builder itself: confirmed, the builder starts again empty and the draft is gone.
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page
      .getByRole('alertdialog', { name: 'Discard this draft?' })
      .getByRole('button', { name: 'Discard draft' })
      .click();
    await expect(page.getByText('Draft discarded')).toBeVisible();
    await expect(page.getByLabel('Release Title')).toHaveValue('');
    await page.goto('/dashboard/upload');
    await expect(page.getByRole('heading', { name: 'Upload Music' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'You have a draft in progress' })).toHaveCount(0);
    media.remove();
    await context.close();
  });
}

test('on a phone the audit table scrolls in its own box, with a cue, and the page does not', async ({
  browser,
}) => {
  const artist = await seed.user({ plan: 'basic' });
  const { releaseId } = await seed.release({ userId: artist.userId, title: 'Audited', status: 'pending' });
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  const approved = await page.request.post(`/api/admin/releases/${releaseId}/approve`);
  expect(approved.status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/audit');
  const box = page.getByTestId('audit-table-scroll');
  await expect(box.getByRole('table')).toBeVisible();
  await expect(page.getByTestId('audit-scroll-cue')).toHaveText('Scroll sideways to see every column');
  const sizes = await box.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
    right: element.getBoundingClientRect().right,
  }));
  expect(sizes.scrollWidth).toBeGreaterThan(sizes.clientWidth);
  expect(sizes.right).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The last column can be scrolled into view inside the box.
  await box.evaluate((element) => {
    element.scrollLeft = element.scrollWidth;
  });
  const lastHeader = box.getByRole('columnheader').last();
  const headerBox = await lastHeader.boundingBox();
  expect(headerBox && headerBox.x + headerBox.width).toBeLessThanOrEqual(391);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await context.close();
});

/// <reference lib="dom" />
/** axe-core finds no serious or critical problem on the public pages, on desktop and phone, or with the modal open. */
import { expect, seriousA11yViolations, test } from './support/test';

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]) {
  test(`public pages at ${viewport.width}px have no serious accessibility violations`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    const page = await context.newPage();
    for (const path of ['/', '/pricing', '/terms', '/privacy']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('support@tunedrop.local');
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    if (viewport.width < 768) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.locator('#mobile-menu')).toBeVisible();
      expect(await seriousA11yViolations(page), 'mobile menu open').toEqual([]);
    }
    await context.close();
  });
}

test('the Contact Us modal is accessible and keeps focus inside', async ({ browser }) => {
  // Reduced motion: axe must see the button's final colours, not a frame of its colour transition.
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Add another link' }).click();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Tabbing cycles inside the dialog.
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
  }
  await page.route('**/api/contact', (route) => route.fulfill({ status: 500, body: '' }));
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Ana');
  await dialog.getByRole('textbox', { name: 'Artist/Label/Company Name' }).fill('Ana Music');
  await dialog.getByRole('textbox', { name: 'Email Address' }).fill('ana@example.com');
  await dialog.getByRole('button', { name: 'Send Message' }).click();
  await expect(dialog.getByRole('button', { name: 'Error - Try Again' })).toBeVisible();
  expect(await seriousA11yViolations(page), 'error state').toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Contact Us' })).toBeFocused();
  await context.close();
});

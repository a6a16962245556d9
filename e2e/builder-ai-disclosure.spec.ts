/**
 * Journey (issue 41, record 295): a release cannot be submitted until each track's AI use is answered (an
 * assisted answer needs what AI helped with); the summary shows it; a moderator filters review by AI use
 * and sees each track's answer; after approval the store's package carries the disclosure in the form ERN
 * 4.3 allows, and the message validates against the vendored XSD.
 */
import { validateErn43 } from '../apps/server/src/test-support/ddex';
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import {
  adminApi,
  CODE_SETTINGS,
  retireTarget,
  runWorker,
  STORE_DPID,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('AI use is asked per track before submission, filtered at review and delivered in the ERN', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const media = mediaDir();
  const store = storeFolder();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser, { plan: 'basic', artistName: 'Vera Volt' });
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Circuit Hymns ${tag}`;
  let targetId: string | null = null;
  try {
    await adminApi(admin.page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    targetId = (
      await adminApi<{ id: string }>(admin.page.request, 'POST', '/api/admin/delivery/targets', {
        name: uniqueName('AI Store'),
        url: store.url,
        dpid: STORE_DPID,
        platforms: ['deezer'],
        profile: 'release',
      })
    ).id;

    const page = artist.page;
    await page.goto('/dashboard/release-builder');
    await page.getByLabel('Release Title').fill(title);
    await page.getByLabel('Genre').selectOption('Electronic');
    await page.getByLabel('Release Date', { exact: true }).fill('2031-04-01');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('volt.png'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();

    // Everything but the AI question: the step refuses to go on and says why.
    await page.getByLabel('Track Title').fill('Wired Choir');
    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('wired.wav', 1));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add Songwriter' }).click();
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Vera');
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Volt');
    await page.getByRole('button', { name: 'Add Producer' }).click();
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('First Name').fill('Ohm');
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('Last Name').fill('Law');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await expect(page.getByText('Tell us how AI was used on this track')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Summary' })).toHaveCount(0);

    // Assisted without saying with what: refused too; then vocals.
    await answerAiUse(page, 'AI-assisted');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await expect(page.getByText('Choose what AI helped with on this track')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await answerAiUse(page, 'AI-assisted', ['Vocals']);
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
    await expect(page.getByTestId('summary-track')).toContainText('AI use: AI-assisted: Vocals');
    await page.getByRole('button', { name: 'Continue to Distribution' }).click();
    await page.getByRole('button', { name: 'Deezer', exact: true }).click();
    await page.getByRole('button', { name: 'Submit Release' }).click();
    await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
      timeout: 30_000,
    });

    // Review: the filter finds it under AI-assisted and not under "No AI used"; the card says what AI did.
    await admin.page.goto(`/admin/releases?q=${tag}`);
    const card = admin.page
      .getByRole('listitem')
      .filter({ has: admin.page.getByRole('heading', { name: title }) });
    await expect(card).toBeVisible();
    await admin.page.getByLabel('AI use').selectOption({ label: 'No AI used' });
    await expect(admin.page).toHaveURL(/ai=none/);
    await expect(card).toHaveCount(0);
    await admin.page.getByLabel('AI use').selectOption({ label: 'AI-assisted' });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Show metadata' }).click();
    await expect(card.getByText('AI-assisted: Vocals')).toBeVisible();
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.page
      .getByRole('alertdialog', { name: 'Approve Release' })
      .getByRole('button', { name: 'Approve and Deliver' })
      .click();
    await expect(card).toBeHidden();

    // The store's package: the disclosure on the recording, and a message valid against the XSD.
    await runWorker();
    const delivered = await waitForPackage(store.dir, (item) => item.xml.includes(title));
    expect(delivered.xml).toMatch(
      /<Role Namespace="[A-Z0-9]+" UserDefinedValue="AI:Vocalist">UserDefined<\/Role>/,
    );
    expect(delivered.xml).toContain('<DisplayCreditText>AI-assisted: Vocals</DisplayCreditText>');
    const validation = validateErn43(delivered.xml);
    expect(validation.status, validation.report).toBe(0);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    store.remove();
    media.remove();
  }
});

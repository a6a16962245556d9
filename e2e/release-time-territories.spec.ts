/**
 * Issue 26 finding 7 (record 199): an artist picks one moment worldwide and "everywhere except" two
 * countries in the builder, with the picker's errors on the way; the summary, the release page and the
 * moderator's review card show them. Edit Release changes them back.
 */
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('an artist releases at one moment everywhere except Germany and France; the page and the review card say so', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const media = mediaDir();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Moment ${tag}`;
  const { page } = await pageAs(browser, { plan: 'basic', artistName: 'Time Zone Artist' });
  await page.goto('/dashboard/release-builder');
  await expect(page.getByRole('heading', { name: 'Release Details' })).toBeVisible();

  // The defaults: local midnight, worldwide.
  const time = page.getByRole('group', { name: 'Release time' });
  const where = page.getByRole('group', { name: 'Territories' });
  await expect(time.getByRole('radio', { name: 'Local midnight in each country' })).toBeChecked();
  await expect(where.getByRole('radio', { name: 'Worldwide' })).toBeChecked();

  await page.getByLabel('Release Title').fill(title);
  await page.getByLabel('Genre').selectOption('Electronic');
  await page.getByLabel('Release Date', { exact: true }).fill('2031-01-15');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover(`${tag}.png`));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });

  // One moment worldwide: 18:00 in Berlin is 17:00 UTC in January.
  await time.getByRole('radio', { name: 'One moment worldwide' }).check();
  await page.getByLabel('Time', { exact: true }).fill('18:00');
  await page.getByLabel('Time zone').selectOption('Europe/Berlin');
  await expect(page.getByText('Goes live everywhere at 2031-01-15 17:00 UTC.')).toBeVisible();

  // Everywhere except: an empty list and an unknown code are refused with clear words.
  await where.getByRole('radio', { name: 'Everywhere except these countries' }).check();
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await expect(
    page.getByText('Choose at least one country to leave out, or choose Worldwide.'),
  ).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Countries to leave out' });
  await picker.fill('XX');
  await picker.press('Enter');
  await expect(page.getByText('Unknown country code: XX.', { exact: false })).toBeVisible();
  await expect(picker).toHaveAttribute('aria-invalid', 'true');

  // By name with the keyboard, then by code.
  await picker.fill('germ');
  await expect(page.getByRole('option', { name: 'Germany (DE)' })).toHaveAttribute('aria-selected', 'true');
  await picker.press('Enter');
  await picker.fill('FR');
  await picker.press('Enter');
  const chosen = page.getByRole('list', { name: /Countries to leave out: 2 chosen/ });
  await expect(chosen.getByRole('listitem')).toHaveText(['Germany (DE)', 'France (FR)']);
  await expect(page.getByText('Unknown country code')).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Mobile: the fields fit a phone's width (no sideways scrolling).
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(picker).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await expect(page.getByRole('heading', { name: 'Tracks' })).toBeVisible();
  await page.getByLabel('Track Title').fill('First Hour');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav(`${tag}.wav`, 1));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Add Songwriter' }).click();
  const writer = page.getByRole('group', { name: 'Songwriter 1' });
  await writer.getByLabel('First Name').fill('Ada');
  await writer.getByLabel('Last Name').fill('Writer');
  await page.getByRole('button', { name: 'Add Producer' }).click();
  const producer = page.getByRole('group', { name: 'Producer 1' });
  await producer.getByLabel('First Name').fill('Max');
  await producer.getByLabel('Last Name').fill('Beats');
  await page.getByRole('button', { name: 'Continue to Summary' }).click();

  const releaseTime = 'One moment worldwide: 2031-01-15 18:00 Europe/Berlin (2031-01-15 17:00 UTC)';
  const territories = 'Everywhere except: Germany (DE), France (FR)';
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(page.getByText(releaseTime)).toBeVisible();
  await expect(page.getByText(territories)).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Distribution' }).click();
  await page.getByRole('button', { name: 'Spotify', exact: true }).click();
  await page.getByRole('button', { name: 'Submit Release' }).click();
  await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
    timeout: 30_000,
  });

  // The release page.
  await page.goto('/dashboard/songs');
  await page.getByRole('link', { name: `View ${title}` }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText(releaseTime)).toBeVisible();
  await expect(page.getByText(territories)).toBeVisible();
  const releaseUrl = page.url();

  // The moderator's review card, and its metadata panel.
  const { page: moderator } = await pageAs(browser, { roles: ['moderator'] });
  await moderator.goto(`/admin/releases?q=${tag}`);
  const card = moderator
    .getByRole('listitem')
    .filter({ has: moderator.getByRole('heading', { name: title }) });
  await expect(card.getByTestId('release-availability')).toHaveText(
    `Release time: ${releaseTime} · Territories: ${territories}`,
  );
  await card.getByRole('button', { name: 'Show metadata' }).click();
  await expect(card.getByRole('definition').filter({ hasText: territories })).toBeVisible();
  expect(await seriousA11yViolations(moderator)).toEqual([]);

  // Edit Release: back to local midnight and only Japan; the page shows it.
  await page.goto(releaseUrl.replace('/dashboard/releases/', '/dashboard/edit-release/'));
  await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
  await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await page
    .getByRole('group', { name: 'Release time' })
    .getByRole('radio', { name: 'Local midnight in each country' })
    .check();
  await page
    .getByRole('group', { name: 'Territories' })
    .getByRole('radio', { name: 'Only these countries' })
    .check();
  const only = page.getByRole('combobox', { name: 'Countries to release in' });
  await page.getByRole('button', { name: 'Remove Germany (DE)' }).click();
  await page.getByRole('button', { name: 'Remove France (FR)' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(
    page.getByText('Choose at least one country to release in, or choose Worldwide.'),
  ).toBeVisible();
  await only.fill('japan');
  await only.press('Enter');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Release updated successfully')).toBeVisible();
  await page.goto(releaseUrl);
  await expect(page.getByText('Local midnight in each country on 2031-01-15')).toBeVisible();
  await expect(page.getByText('Only: Japan (JP)')).toBeVisible();
  media.remove();
});

/**
 * Issue 26 (record 181): the builder and Edit Release say what © and ℗ mean where they are typed, and
 * warn (without refusing) about a ℗ holder that reads like a music publisher and a release date less
 * than 14 days away.
 */
import { fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

/** The browser's calendar day `days` from now, as the date input takes it (same machine, same zone). */
const localDay = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

test('step 1 explains © and ℗ and warns about a close date and a publisher, without blocking', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const media = mediaDir();
  const { page } = await pageAs(browser, { plan: 'pro', artistName: 'Guide Artist' });
  await page.goto('/dashboard/release-builder');

  // The help is the input's description, so a screen reader hears it too.
  await expect(page.getByLabel('Publishing Holder')).toHaveAccessibleDescription(
    /℗ line: who owns the sound recording .* Not your music publisher/,
  );
  await expect(page.getByLabel('Copyright Holder')).toHaveAccessibleDescription(
    /© line: who owns the copyright in the release itself/,
  );

  await page.getByLabel('Publishing Holder').fill('Moonlight Publishing');
  const publisherWarning = page.getByText('"Moonlight Publishing" looks like a music publisher.');
  await expect(publisherWarning).toBeVisible();
  await page.getByLabel('Publishing Holder').fill('Moonlight Records');
  await expect(publisherWarning).toBeHidden();

  const date = page.getByLabel('Release Date', { exact: true });
  await date.fill(localDay(0));
  await expect(page.getByText('The release date is today. Stores ask for 1 to 4 weeks')).toBeVisible();
  await date.fill(localDay(30));
  await expect(page.getByText(/Stores ask for 1 to 4 weeks/)).toBeHidden();
  await date.fill(localDay(5));
  const dateWarning = page.getByText('The release date is only 5 days away.', { exact: false });
  await expect(dateWarning).toBeVisible();
  await expect(date).toHaveAccessibleDescription(/only 5 days away/);

  // A warning, not a refusal: with everything else filled in, Continue goes on to the tracks.
  await page.getByLabel('Release Title').fill('Close Call');
  await page.getByLabel('Genre').selectOption('Pop');
  await page.getByLabel('Copyright Holder').fill('Moonlight Records');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('close-call.jpg', 3000, 'jpeg'));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await expect(page.getByLabel('Track Title')).toBeVisible();
});

test('Edit Release explains ℗ and warns when the release date is close', async ({ browser }) => {
  const { page, user } = await pageAs(browser, { plan: 'pro', artistName: 'Edit Guide' });
  const close = await seed.release({ userId: user.userId, title: 'Soon Out', releaseDate: localDay(5) });
  const far = await seed.release({ userId: user.userId, title: 'Later Out', releaseDate: localDay(60) });

  await page.goto(`/dashboard/edit-release/${close.releaseId}`);
  await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
  await expect(page.getByText('The release date is only 5 days away.', { exact: false })).toBeVisible();
  await expect(page.getByLabel('Publishing Holder')).toHaveAccessibleDescription(
    /℗ line: who owns the sound recording/,
  );
  await page.getByLabel('Publishing Holder').fill('Edit Guide Publishing');
  await expect(page.getByText('"Edit Guide Publishing" looks like a music publisher.')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.goto(`/dashboard/edit-release/${far.releaseId}`);
  await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
  await expect(page.getByLabel('Release Title')).toHaveValue('Later Out');
  await expect(page.getByText(/Stores ask for 1 to 4 weeks/)).toHaveCount(0);
});

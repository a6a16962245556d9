/**
 * Journey (issue 41, record 297): an artist puts the Spotify artist id and the Spotify artist key on the
 * profile, and in the builder sees which artist page each store gets, making "new artist profile on Apple
 * Music" an explicit choice; after approval the store's ERN carries the Spotify artist URI and the artist key
 * on the artist's party, and validates against the vendored XSD.
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

const SPOTIFY_ID = '0OdUWJ0sBjDrqHygGUXeCF';
const ARTIST_KEY = 'app-key_journey_0123';

test('the Spotify artist id and artist key reach the ERN; new-on-store is an explicit choice', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const media = mediaDir();
  const store = storeFolder();
  const tag = Math.random().toString(36).slice(2, 8);
  const artistName = `Rhea Stone ${tag}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser, { plan: 'basic', artistName });
  let targetId: string | null = null;
  try {
    await adminApi(admin.page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    targetId = (
      await adminApi<{ id: string }>(admin.page.request, 'POST', '/api/admin/delivery/targets', {
        name: uniqueName('Profile Store'),
        url: store.url,
        dpid: STORE_DPID,
        platforms: ['spotify'],
        profile: 'release',
      })
    ).id;

    // The profile: the Spotify id as a link, the artist key; a bad Deezer id is refused with its reason.
    const page = artist.page;
    await page.goto('/dashboard/artists');
    await page.getByRole('button', { name: `Edit ${artistName}` }).click();
    await page
      .getByLabel('Spotify artist id (optional)')
      .fill(`https://open.spotify.com/artist/${SPOTIFY_ID}`);
    await page.getByLabel('Spotify artist key (optional)').fill(ARTIST_KEY);
    await page.getByLabel('Deezer artist id (optional)').fill('not-an-id');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(
      page.getByText('Enter a Deezer artist id (digits) or a deezer.com artist link'),
    ).toBeVisible();
    await page.getByLabel('Deezer artist id (optional)').fill('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText(`Spotify ${SPOTIFY_ID}`, { exact: false })).toBeVisible();
    await expect(page.getByText('Spotify artist key on file', { exact: false })).toBeVisible();

    // The builder says which artist page each store gets; Apple Music is chosen new, explicitly.
    await page.goto('/dashboard/release-builder');
    const stores = page.getByTestId('store-profiles');
    await expect(stores).toContainText(
      `Spotify: existing artist page ${SPOTIFY_ID} (pre-approved with your artist key)`,
    );
    await expect(stores).toContainText('Apple Music: not chosen.');
    await stores.getByRole('button', { name: 'New artist profile on Apple Music' }).click();
    await expect(stores).toContainText('Apple Music: new artist profile on Apple Music');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const title = `Stone Garden ${tag}`;
    await page.getByLabel('Release Title').fill(title);
    await page.getByLabel('Genre').selectOption('Pop');
    await page.getByLabel('Release Date', { exact: true }).fill('2031-07-01');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('stone.png'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();
    await page.getByLabel('Track Title').fill('Quarry');
    await answerAiUse(page);
    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('quarry.wav', 1));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add Songwriter' }).click();
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Rhea');
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Stone');
    await page.getByRole('button', { name: 'Add Producer' }).click();
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('First Name').fill('Flint');
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('Last Name').fill('Rock');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await page.getByRole('button', { name: 'Continue to Distribution' }).click();
    await page.getByRole('button', { name: 'Spotify', exact: true }).click();
    await page.getByRole('button', { name: 'Submit Release' }).click();
    await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
      timeout: 30_000,
    });

    // Approved; the store's message names the artist page and carries the key.
    const found = await adminApi<{ items: { id: string; title: string }[] }>(
      admin.page.request,
      'GET',
      `/api/admin/releases?tab=pending&q=${tag}`,
    );
    const releaseId = found.items.find((item) => item.title === title)?.id;
    await adminApi(admin.page.request, 'POST', `/api/admin/releases/${releaseId}/approve`, {});
    await runWorker();
    const delivered = await waitForPackage(store.dir, (item) => item.xml.includes(title));
    expect(delivered.xml).toContain(
      `<ProprietaryId Namespace="PADPIDA2011072101T">spotify:artist:${SPOTIFY_ID}</ProprietaryId>`,
    );
    expect(delivered.xml).toContain(
      `<ProprietaryId Namespace="SpotifyArtistKey">${ARTIST_KEY}</ProprietaryId>`,
    );
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

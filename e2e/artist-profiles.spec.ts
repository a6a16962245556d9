/**
 * Journey (issue 27, record 201): a Pro artist creates a second artist profile, releases under it (the
 * builder starts with that profile as primary artist), and sees My Songs and statements per profile or for
 * all profiles, through the sidebar's switcher, at 1280 and 390 px; with a 15% fee on the account, each
 * profile's statement (page and PDF) shows its own lines, its part of the fee, its split shares and its net,
 * and the two profiles add up to the account's statement (issue 44 finding 1, record 235).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a Pro artist adds a second profile, releases under it and sees songs and statements per profile', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const media = mediaDir();
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const [isrcMain, isrcSide] = [
    `QZU${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`,
    `QZV${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`,
  ];
  const side = `Dawn Chorus ${suffix}`;
  const { page, user } = await pageAs(browser, { plan: 'pro', artistName: 'Night Owls' });
  await seed.release({
    userId: user.userId,
    title: 'Owl Song',
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [isrcMain],
  });

  // The profiles page: the first profile is the account's artist name; a second is added with its Spotify id.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/artists');
  await expect(page.getByRole('heading', { name: 'Night Owls' })).toBeVisible();
  await expect(page.getByText('First profile')).toBeVisible();
  await page.getByRole('button', { name: 'Add artist profile' }).click();
  await page.getByLabel('Artist name').fill(side);
  await page.getByLabel('Spotify artist id (optional)').fill('not a link');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(
    page.getByText('Enter a Spotify artist id (22 letters and digits)', { exact: false }),
  ).toBeVisible();
  await page
    .getByLabel('Spotify artist id (optional)')
    .fill('https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: side })).toBeVisible();
  await expect(page.getByText('Spotify 0OdUWJ0sBjDrqHygGUXeCF')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  // The new profile is the one chosen in the sidebar.
  const switcher = page.getByLabel('Artist profile', { exact: true });
  await expect(switcher).toHaveValue(/[0-9a-f-]{36}/);
  await expect(switcher.locator('option:checked')).toHaveText(side);

  // An optional image: a file that is not an image is refused with a clear message; a PNG is shown on the
  // card and beside the switcher, served only to the account; removing it asks first.
  const sideCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: side }) });
  const imageInput = page.getByLabel(`Profile image for ${side}`);
  await imageInput.setInputFiles({
    name: 'face.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a png'),
  });
  await expect(sideCard.getByRole('alert')).toHaveText('The profile image must be a JPEG or PNG image.');
  await imageInput.setInputFiles(await media.cover('face.png', 400, 'png'));
  await expect(sideCard.getByRole('button', { name: `Change image for ${side}` })).toBeVisible();
  const cardImage = sideCard.locator('img');
  await expect(cardImage).toHaveAttribute('src', /^\/api\/artist-profiles\/[0-9a-f-]{36}\/image\?v=/);
  await expect.poll(() => cardImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
  await expect(
    page.locator('aside img[src^="/api/artist-profiles/"], nav img[src^="/api/artist-profiles/"]').first(),
  ).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await sideCard.getByRole('button', { name: `Remove image of ${side}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Remove the profile image?');
  await confirm.getByRole('button', { name: 'Remove image' }).click();
  await expect(sideCard.locator('img')).toHaveCount(0);
  await expect(sideCard.getByRole('button', { name: `Add image for ${side}` })).toBeFocused();

  // The builder goes under the chosen profile, its first track crediting it with its Spotify link.
  await page.goto('/dashboard/release-builder');
  await expect(page.getByTestId('releasing-as')).toHaveText(`Artist profile: ${side}`);
  await page.getByLabel('Release Title').fill(`Morning ${suffix}`);
  await page.getByLabel('Genre').selectOption('Pop');
  await page.getByLabel('Release Date', { exact: true }).fill('2031-06-01');
  await page.getByLabel('Copyright Holder').fill(side);
  await page.getByLabel('Publishing Holder').fill(side);
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('morning.jpg', 3000, 'jpeg'));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  const primary = page.getByRole('group', { name: 'Primary Artists' });
  await expect(primary.getByRole('listitem')).toHaveCount(1);
  await expect(primary.getByRole('listitem')).toContainText(side);
  await page.getByLabel('Track Title').fill('First Light');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('first-light.wav', 1));
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
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Distribution' }).click();
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await page.getByRole('button', { name: 'Submit Release' }).click();
  await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
    timeout: 30_000,
  });

  // Earnings on both profiles' releases: $10.00 on the first, $5.00 on the second.
  const headers = { cookie: user.cookie ?? '', origin: e2eEnv.baseUrl };
  const { profiles } = (await (await fetch(`${e2eEnv.baseUrl}/api/artist-profiles`, { headers })).json()) as {
    profiles: { id: string; name: string }[];
  };
  const sideId = profiles.find((profile) => profile.name === side)?.id;
  expect(sideId).toBeTruthy();
  const dawn = await seed.release({
    userId: user.userId,
    title: 'Dawn Single',
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [isrcSide],
    ...(sideId ? { artistProfileId: sideId } : {}),
  });
  // A collaborator's 20% of the side profile's single (record 235: it shows on that profile's statement only).
  const split = await fetch(`${e2eEnv.baseUrl}/api/releases/${dawn.releaseId}/splits`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      trackId: null,
      ownerPercent: '80',
      payees: [{ email: `dawn.collaborator.${suffix}@example.com`, percent: '20' }],
    }),
  });
  expect(split.status).toBe(200);
  // The label's 15% distribution fee (an override on this account only: other journeys run beside this one).
  const admin = await seed.user({ roles: ['admin'] });
  const fee = await fetch(`${e2eEnv.baseUrl}/api/admin/users/${user.userId}/fee`, {
    method: 'PUT',
    headers: { cookie: admin.cookie ?? '', origin: e2eEnv.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ feePercent: '15' }),
  });
  expect(fee.status).toBe(200);
  await postReport(suffix, [
    `2026-01-10\t2025-12\tSpotify\tTest Artist\tOwl Song\t${isrcMain}\t\t1000\t100\tSong\tUS\t0\t10.00`,
    `2026-01-10\t2025-12\tSpotify\tTest Artist\tDawn Single\t${isrcSide}\t\t500\t100\tSong\tGB\t0\t5.00`,
  ]);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard/songs');
    await choose(page, width, side);
    const songs = page.getByRole('main');
    await expect(songs.getByText(`${side}'s releases`)).toBeVisible();
    await expect(songs.getByText(`Morning ${suffix}`)).toBeVisible();
    await expect(songs.getByText('Dawn Single')).toBeVisible();
    await expect(songs.getByText('Owl Song')).toHaveCount(0);

    await page.goto('/dashboard/royalties');
    await expect(page.getByTestId('statements-profile')).toContainText(`Earnings of ${side} only`);
    let statement = page.getByTestId('statement').first();
    await statement.getByRole('button', { name: /^View the .* statement$/ }).click();
    let summary = statement.getByTestId('statement-summary');
    await expect(summary).toContainText(`Gross earnings of ${side}`);
    await expect(summary.getByTestId('statement-row').filter({ hasText: 'Gross earnings' })).toContainText(
      '$5.00',
    );
    // $5.00 less its 15% fee ($0.75), less the collaborator's 20% of the $4.25 left ($0.85): $3.40.
    await expect(summary.getByTestId('statement-row').filter({ hasText: 'Distribution fee' })).toContainText(
      '-$0.75',
    );
    await expect(summary.getByTestId('statement-row').filter({ hasText: 'Split shares paid' })).toContainText(
      '-$0.85',
    );
    await expect(
      summary.getByTestId('statement-row').filter({ hasText: `Net earnings of ${side}` }),
    ).toContainText('$3.40');
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (width === 1280) {
      // The per-artist PDF (issue 44 finding 1): the profile's own line, split and net, not the account's.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        statement.getByRole('link', { name: /^Download the .* statement as PDF$/ }).click(),
      ]);
      const file = path.join(os.tmpdir(), `profile-statement-${suffix}.pdf`);
      await download.saveAs(file);
      const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      await fs.rm(file, { force: true });
      expect(text).toContain(`Artist profile: ${side}`);
      expect(text).toMatch(new RegExp(`Gross earnings of ${side} \\(1 line\\)\\s+500\\s+\\$5\\.00`));
      expect(text).toMatch(/Distribution fee \(15%\)\s+-\$0\.75/);
      expect(text).toMatch(/Split shares paid to collaborators\s+-\$0\.85/);
      expect(text).toMatch(new RegExp(`Net earnings of ${side}\\s+\\$3\\.40`));
      expect(text).toMatch(/Net earnings of the other artist profiles and shares received\s+\$8\.50/);
      expect(text).not.toContain('Owl Song');

      // The first profile's statement: its $10.00, its $1.50 of the fee, no split, net $8.50.
      await choose(page, width, 'Night Owls');
      statement = page.getByTestId('statement').first();
      const own = statement.getByRole('button', { name: /^(View|Hide) the .* statement$/ });
      if ((await own.getAttribute('aria-expanded')) !== 'true') await own.click();
      summary = statement.getByTestId('statement-summary');
      const row = (label: string) => summary.getByTestId('statement-row').filter({ hasText: label });
      await expect(row('Gross earnings')).toContainText('$10.00');
      await expect(row('Distribution fee')).toContainText('-$1.50');
      await expect(row('Split shares paid')).toHaveCount(0);
      await expect(row('Net earnings of Night Owls')).toContainText('$8.50');
    }

    await choose(page, width, 'All profiles');
    await expect(page.getByTestId('statements-profile')).toHaveText('All profiles.');
    statement = page.getByTestId('statement').first();
    // The statement opened above stays open across the switch (its figures reload): open it only if closed.
    const toggle = statement.getByRole('button', { name: /^(View|Hide) the .* statement$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    summary = statement.getByTestId('statement-summary');
    // The account's statement is the sum of its profiles': $15.00, fee -$2.25, split -$0.85, net $11.90.
    const total = (label: string) => summary.getByTestId('statement-row').filter({ hasText: label });
    await expect(total('Gross earnings')).toContainText('$15.00');
    await expect(total('Distribution fee')).toContainText('-$2.25');
    await expect(total('Split shares paid')).toContainText('-$0.85');
    await expect(total('Net earnings')).toContainText('$11.90');
    await page.goto('/dashboard/songs');
    await expect(page.getByRole('main').getByText('Owl Song')).toBeVisible();
    await expect(page.getByRole('main').getByText(`Morning ${suffix}`)).toBeVisible();
  }
  media.remove();
});

/** Picks a profile in the sidebar's switcher (in the menu on a phone), by keyboard-reachable select. */
async function choose(page: import('@playwright/test').Page, width: number, label: string) {
  if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
  const select = page
    .locator('select:visible')
    .filter({ has: page.locator('option', { hasText: 'All profiles' }) });
  await select.selectOption({ label });
  if (width < 768) await page.getByRole('button', { name: 'Close menu' }).click();
}

/** An admin imports and posts a DistroKid-style report of `lines`. */
async function postReport(suffix: string, lines: string[]) {
  const admin = await seed.user({ roles: ['admin'] });
  const headers = { cookie: admin.cookie ?? '', origin: e2eEnv.baseUrl };
  const report = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    ...lines,
  ].join('\r\n');
  const imported = await fetch(
    `${e2eEnv.baseUrl}/api/admin/royalties/imports?filename=profiles-${suffix}.tsv`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: `${report}\r\n`,
    },
  );
  expect(imported.status).toBe(202);
  const { id } = (await imported.json()) as { id: string };
  const phaseOf = async () => {
    const summary = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}`, { headers });
    return ((await summary.json()) as { progress: { phase: string } }).progress.phase;
  };
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('ready');
  const posted = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}/post`, {
    method: 'POST',
    headers,
  });
  expect(posted.status).toBe(202);
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('posted');
}

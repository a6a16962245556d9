/**
 * Issue 43 finding 12 and issue 44 findings 2 and 4 (records 232, 233), second journey: a folder with one
 * unreadable message imports the rest as a job and reports the bad one; the territories and the release
 * moment of Tunedrop's own export (its producer written as StudioProducer) show on the owner's release page;
 * the release is under the profile named like its artist, not the first.
 *
 * Issue 26 finding 10 journey (record 200): a label's export (the official ERN 4.3 single sample with the
 * files a distributor ships) waits in the import folder; an admin imports it on Admin → Catalogue import
 * for a Pro artist account with review skipped, reads the report, and the release goes to a real OpenSSH
 * SFTP store with the UPC and ISRC of its source, never new ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { completedSingle, randomIsrc, randomUpc } from '../apps/server/src/test-support/catalogue-export';
import { startSftpServer } from '../apps/server/src/test-support/sftp';
import { tunedropExportFolder } from '../apps/server/src/test-support/tunedrop-export';
import {
  adminApi,
  CODE_SETTINGS,
  retireTarget,
  runWorker,
  STORE_DPID,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an admin imports an ERN release with review skipped; it reaches an SFTP store with its own codes', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const sftp = await startSftpServer();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const owner = await seed.user({ plan: 'pro', artistName: 'RIOPY' });
  const page = admin.page;
  const folderName = `label-export-${Math.random().toString(36).slice(2, 8)}`;
  const folder = path.join(e2eEnv.dataDir, 'catalogue-import', folderName);
  // Codes of this run (journeys share one database); the message carries them as its own.
  const upc = randomUpc();
  const isrc = randomIsrc();
  let targetId: string | null = null;
  try {
    await adminApi(page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    ({ id: targetId } = await adminApi<{ id: string }>(page.request, 'POST', '/api/admin/delivery/targets', {
      name: uniqueName('Catalogue SFTP store'),
      url: sftp.url(),
      privateKey: sftp.privateKey,
      dpid: STORE_DPID,
      platforms: ['kuack'],
      profile: 'release',
    }));
    await completedSingle(folder, { upc, isrc });

    await page.goto('/admin/catalogue-import');
    await expect(page.getByRole('heading', { name: 'Catalogue import', level: 1 })).toBeVisible();
    await page.getByLabel('Folder').selectOption(folderName);
    await page.getByLabel('Artist account (email)').fill(owner.email);
    await page.getByLabel(/Skip review/).check();
    await page.getByRole('button', { name: 'Import catalogue' }).click();

    await expect(page.getByTestId('catalogue-report-summary')).toContainText('1 imported, 0 refused');
    const entry = page.getByRole('listitem', { name: 'I Love You' });
    await expect(entry).toContainText(`UPC ${upc}`);
    await expect(entry).toContainText('Imported · approved');
    await expect(entry).toContainText('Approved with its codes; queued for delivery to');
    await expect(page.getByRole('link', { name: 'Download report' })).toHaveAttribute(
      'href',
      /\/api\/admin\/catalogue-imports\/[0-9a-f-]{36}\/report\.txt$/,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Kept: the import is listed after a reload, and its report opens again.
    await page.reload();
    await page.getByRole('button', { name: `View report of ${folderName}` }).click();
    await expect(page.getByRole('listitem', { name: 'I Love You' })).toContainText('Imported · approved');

    // Delivered by the ordinary worker to the real SFTP store, with the source's codes.
    await runWorker();
    const sent = await waitForPackage(sftp.root, (item) => item.xml.includes(`<ICPN>${upc}</ICPN>`));
    expect(sent.isTakedown).toBe(false);
    expect(sent.upc).toBe(upc);
    expect(sent.xml).toContain(`<ISRC>${isrc}</ISRC>`);
    expect(sent.xml).toContain('I Love You');
    expect(sent.resources.some((file) => file.name.endsWith('.wav'))).toBe(true);
  } finally {
    if (targetId) await retireTarget(page.request, targetId);
    fs.rmSync(folder, { recursive: true, force: true });
    await admin.context.close();
    await sftp.stop();
  }
});

test('a folder with one bad message imports the rest, keeps territories and the artist profile of the release', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await pageAs(browser, { roles: ['admin'] });
  const owner = await pageAs(browser, { plan: 'pro', artistName: 'Harbour First' });
  const artist = `Mira Vale ${Math.random().toString(36).slice(2, 6)}`;
  const folderName = `mixed-export-${Math.random().toString(36).slice(2, 8)}`;
  const folder = path.join(e2eEnv.dataDir, 'catalogue-import', folderName);
  try {
    const created = await owner.page.request.post('/api/artist-profiles', {
      data: { name: artist },
      headers: { origin: e2eEnv.baseUrl },
    });
    expect(created.status()).toBe(201);
    // Tunedrop's own export of a release sold everywhere but the US and Canada, and a message nested too deep.
    await tunedropExportFolder(path.join(folder, 'good'), {
      title: 'Lanterns',
      artist,
      upc: randomUpc(),
      isrc: randomIsrc(),
      territories: { mode: 'exclude', codes: ['US', 'CA'] },
      releaseStart: { mode: 'worldwide_moment', at: new Date('2027-03-05T16:00:00Z') },
    });
    fs.mkdirSync(path.join(folder, 'bad'), { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'bad', 'nested.xml'),
      `<ern:NewReleaseMessage xmlns:ern="http://ddex.net/xml/ern/43">${'<a>'.repeat(3000)}${'</a>'.repeat(3000)}</ern:NewReleaseMessage>`,
    );

    const page = admin.page;
    await page.goto('/admin/catalogue-import');
    await page.getByLabel('Folder').selectOption(folderName);
    await page.getByLabel('Artist account (email)').fill(owner.user.email ?? '');
    await page.getByRole('button', { name: 'Import catalogue' }).click();
    // Runs as a job: the report fills in and the page says when it is done.
    await expect(page.getByTestId('catalogue-import-status')).toContainText('Done: 2 gone through', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('catalogue-report-summary')).toContainText('1 imported, 1 refused');
    await expect(page.getByRole('listitem', { name: path.join('bad', 'nested.xml') })).toContainText(
      'The message nests elements more than 64 deep; it is refused.',
    );
    await expect(page.getByRole('listitem', { name: 'Lanterns' })).toContainText('Imported · pending');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const { imports } = await adminApi<{ imports: { id: string; source: string }[] }>(
      page.request,
      'GET',
      '/api/admin/catalogue-imports',
    );
    const importId = imports.find((item) => item.source === folderName)?.id ?? '';
    const report = await adminApi<{ releases: { title: string | null; releaseId: string | null }[] }>(
      page.request,
      'GET',
      `/api/admin/catalogue-imports/${importId}`,
    );
    const releaseId = report.releases.find((entry) => entry.title === 'Lanterns')?.releaseId ?? '';

    // The owner's release page shows the territories of the message, and it is under the named profile.
    await owner.page.goto(`/dashboard/releases/${releaseId}`);
    await expect(owner.page.getByText('Everywhere except: Canada (CA), United States (US)')).toBeVisible();
    // The release moment of the message's deals, not local midnight.
    await expect(
      owner.page.getByText('One moment worldwide: 2027-03-05 16:00 UTC (2027-03-05 16:00 UTC)'),
    ).toBeVisible();
    await owner.page.goto('/dashboard/artists');
    await expect(owner.page.getByRole('heading', { name: artist }).locator('..')).toContainText('1 release');
    await expect(owner.page.getByRole('heading', { name: 'Harbour First' }).locator('..')).toContainText(
      '0 releases',
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    await admin.context.close();
    await owner.context.close();
  }
});

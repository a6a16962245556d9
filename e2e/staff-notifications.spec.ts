/**
 * Issue 26 finding 3, staff notifications (record 179): an artist submits a release and the admin's mail
 * about it is in the outbox; the admin turns withdrawal mails off on the Account page, an artist then
 * requests a withdrawal, and no withdrawal mail reaches that admin.
 */
import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { mediaDir, wavBytes } from './support/builder';
import { expect, outboxMails, pageAs, seriousA11yViolations, test } from './support/test';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** One tus upload in a single PATCH, as the builder's client does for a small file. */
async function upload(request: APIRequestContext, kind: 'cover' | 'audio', name: string, body: Buffer) {
  const created = await request.post('/api/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(body.length),
      'Upload-Metadata': `filename ${b64(name)},filetype ${b64('application/octet-stream')},kind ${b64(kind)}`,
    },
  });
  expect(created.status()).toBe(201);
  const location = created.headers().location ?? '';
  const patched = await request.patch(location, {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    data: body,
  });
  expect(patched.status()).toBe(204);
  return location.split('/').pop() ?? '';
}

test('staff mails: a submission reaches the admin; withdrawal mails turned off stay away', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const admin = await pageAs(browser, { roles: ['admin'], email: `staff-admin-${tag}@example.com` });
  const control = await pageAs(browser, { roles: ['admin'], email: `staff-control-${tag}@example.com` });

  // An artist submits a release (through the builder's API, the path the builder page takes).
  const artist = await pageAs(browser, { plan: 'pro', artistName: `Nova ${tag}`, balanceCents: 9000 });
  const media = mediaDir();
  const coverId = await upload(
    artist.context.request,
    'cover',
    'cover.png',
    fs.readFileSync(await media.cover()),
  );
  const audioId = await upload(artist.context.request, 'audio', 'song.wav', wavBytes(1));
  media.remove();
  const year = new Date().getFullYear();
  const title = `Signal ${tag}`;
  const submitted = await artist.context.request.post('/api/builder/releases', {
    data: {
      idempotencyKey: crypto.randomUUID(),
      release: {
        title,
        genre: 'Electronic',
        releaseDate: `${year + 1}-03-01`,
        coverUploadId: coverId,
        copyrightHolder: `Nova ${tag}`,
        publishingHolder: `Nova ${tag}`,
        copyrightYear: year,
        publishingYear: year,
      },
      tracks: [
        {
          title: 'Song 1',
          audioUploadId: audioId,
          explicit: false,
          primaryArtists: [{ name: `Nova ${tag}` }],
          featuredArtists: [],
          songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' }],
          producers: [{ firstName: 'Pat', lastName: 'Producer' }],
          aiDisclosure: { usage: 'none' },
        },
      ],
      platforms: ['spotify'],
    },
  });
  expect(submitted.status()).toBe(201);
  await expect
    .poll(async () => (await outboxMails(admin.user.email)).some((mail) => mail.text.includes(title)), {
      timeout: 30_000,
    })
    .toBe(true);
  const [mail] = (await outboxMails(admin.user.email)).filter((m) => m.text.includes(title));
  expect(mail?.text).toContain('New release to review');

  // The admin turns withdrawal mails off on the Account page.
  const page = admin.page;
  await page.goto('/dashboard/account');
  const card = page.getByRole('heading', { name: 'Notifications', exact: true });
  await expect(card).toBeVisible();
  await expect(page.getByLabel('Release submissions')).toHaveValue('immediate');
  await page.getByLabel('Withdrawal requests').selectOption('off');
  await expect(page.getByText('Withdrawal requests: Off')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Withdrawal requests')).toHaveValue('off');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // An artist asks for a withdrawal: no withdrawal mail for this admin.
  const saved = await artist.context.request.put('/api/wallet/payment-settings', {
    data: { payment_method: 'paypal', payment_details: { paypal_email: `nova-${tag}@paypal.example` } },
  });
  expect(saved.status()).toBe(200);
  const requested = await artist.context.request.post('/api/wallet/withdrawals', {
    data: { amount: '60.00' },
  });
  expect(requested.status()).toBe(201);
  // Another admin, who kept the default (at once), gets it: the outbox was written by then.
  await expect
    .poll(
      async () =>
        (await outboxMails(control.user.email)).some(
          (m) => m.text.includes('Withdrawal requested') && m.text.includes(`Nova ${tag}`),
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  const mails = await outboxMails(admin.user.email);
  expect(mails.filter((m) => m.text.includes('Withdrawal requested'))).toEqual([]);

  // An artist's Account page has no staff card.
  await artist.page.goto('/dashboard/account');
  await expect(artist.page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(artist.page.getByRole('heading', { name: 'Notifications', exact: true })).toHaveCount(0);
});

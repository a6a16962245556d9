import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a banned artist sees Account Banned with the reason and the support address, not the builder', async ({
  browser,
}) => {
  const { page } = await pageAs(browser, { banReason: 'Repeated copyright claims' });
  await page.goto('/dashboard/upload');
  await expect(page.getByRole('heading', { name: 'Account Banned' })).toBeVisible();
  await expect(page.getByText('Your account has been banned from uploading music.')).toBeVisible();
  await expect(page.getByText('Repeated copyright claims')).toBeVisible();
  const config = await (await page.request.get('/api/config')).json();
  await expect(page.getByRole('link', { name: config.supportEmail })).toHaveAttribute(
    'href',
    `mailto:${config.supportEmail}`,
  );
  await expect(page.getByRole('link', { name: 'Start Release Builder' })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The builder itself shows the same screen, and the API refuses an upload.
  await page.goto('/dashboard/release-builder');
  await expect(page.getByRole('heading', { name: 'Account Banned' })).toBeVisible();
  const upload = await page.request.post('/api/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '10',
      'Upload-Metadata': 'kind YXVkaW8=,filename YS53YXY=',
    },
  });
  expect(upload.status()).toBe(403);

  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
});

test('an artist with a subscription gets the way into the builder', async ({ browser }) => {
  const { page } = await pageAs(browser, { plan: 'basic' });
  await page.goto('/dashboard/upload');
  await expect(page.getByText('Global distribution')).toBeVisible();
  await expect(page.getByText('25+ platforms', { exact: false })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Start Release Builder' }).click();
  await expect(page.getByRole('heading', { name: 'Release Builder' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Release builder progress' }).getByRole('listitem'),
  ).toHaveText(['1Release', '2Tracks', '3Summary', '4Platforms', '5Submit']);
  expect(await seriousA11yViolations(page)).toEqual([]);
});

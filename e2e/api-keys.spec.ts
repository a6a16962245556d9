/**
 * Journey (issue 40, records 290 and 292): a label's owner opens Account → API keys, creates a key scoped
 * to the catalogue (shown once), and a system uses it on /api/v1 through the typed client
 * (@tunedrop/api-client): lists the account's releases, is refused the statements with `forbidden_scope`,
 * and a POST retried with the same Idempotency-Key creates one artist profile. The page links the API
 * reference, which renders from the server alone. The page shows the key's last use; revoking it there
 * ends it at the next request.
 */
import { createTunedropClient } from '@tunedrop/api-client';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an owner creates a scoped API key, a system uses it on /api/v1, and the owner revokes it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page, user } = await pageAs(browser, { plan: 'pro', artistName: 'Harbour Records' });
  const { releaseId } = await seed.release({ userId: user.userId, title: 'Tide Tables', status: 'live' });

  await page.goto('/dashboard/account');
  await page.getByRole('link', { name: 'Manage API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  // Nothing chosen: the form says what is missing and makes no key.
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Enter a name for the key.')).toBeVisible();
  await expect(page.getByText('Choose at least one scope.')).toBeVisible();

  await page.getByLabel('Name').fill('Catalogue sync');
  await page.getByRole('checkbox', { name: /catalogue:read/ }).check();
  await page.getByRole('checkbox', { name: /catalogue:write/ }).check();
  await page.getByLabel('Expires').selectOption('90');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-api-key');
  await expect(shown.getByText('Copy this key now. It is shown only once.')).toBeVisible();
  const key = await page.getByLabel('New API key').inputValue();
  expect(key).toMatch(/^td_live_/);
  const listed = page.getByTestId('api-keys');
  await expect(listed.getByText('catalogue:read, catalogue:write')).toBeVisible();
  await expect(listed.getByText('Never used', { exact: false })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByLabel('New API key')).toHaveCount(0);

  // Another system, with the key only (no cookie), through the typed client.
  const api = createTunedropClient({ server: e2eEnv.baseUrl, apiKey: key });
  const releases = await api.GET('/releases');
  expect(releases.response.status).toBe(200);
  expect(releases.data?.items.map((r) => r.id)).toContain(releaseId);
  const statements = await api.GET('/royalties/statements');
  expect(statements.response.status).toBe(403);
  expect(statements.error?.error.code).toBe('forbidden_scope');

  const createProfile = () =>
    api.POST('/artist-profiles', {
      body: { name: 'Harbour Strings' },
      headers: { 'Idempotency-Key': 'harbour-strings-1' },
    });
  const first = await createProfile();
  expect(first.response.status).toBe(201);
  const retried = await createProfile();
  expect(retried.response.status).toBe(201);
  expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
  expect(retried.data?.profile.id).toBe(first.data?.profile.id);
  const profiles = await api.GET('/artist-profiles');
  expect(profiles.data?.profiles.filter((p) => p.name === 'Harbour Strings')).toHaveLength(1);

  // The reference page, linked from the keys page, renders the v1 document with nothing from outside.
  const outside: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().startsWith(e2eEnv.baseUrl)) outside.push(sent.url());
  });
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByRole('heading', { name: 'Tunedrop API' }).first()).toBeVisible();
  await expect(page.getByText('List the account’s releases').first()).toBeVisible();
  expect(outside).toEqual([]);
  await page.goBack();

  // The page shows the key's use; revoking it (asked first) ends it.
  await page.reload();
  await expect(listed.getByText('Last used', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Revoke Catalogue sync' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(listed.getByText('Revoked', { exact: false })).toBeVisible();
  const refused = await api.GET('/releases');
  expect(refused.response.status).toBe(401);
  expect(refused.error?.error.code).toBe('invalid_api_key');
});

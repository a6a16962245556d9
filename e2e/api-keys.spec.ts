/**
 * Journey (issue 40, record 290): a label's owner opens Account → API keys, creates a key scoped to the
 * catalogue (shown once), and a system uses it on /api/v1: lists the account's releases, is refused the
 * statements with `forbidden_scope`, and a POST retried with the same Idempotency-Key creates one artist
 * profile. The page shows the key's last use; revoking it there ends it at the next request.
 */
import { request as playwrightRequest } from '@playwright/test';
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

  // Another system, with the key only (no cookie).
  const api = await playwrightRequest.newContext({
    baseURL: e2eEnv.baseUrl,
    extraHTTPHeaders: { authorization: `Bearer ${key}` },
  });
  const releases = await api.get('/api/v1/releases');
  expect(releases.status()).toBe(200);
  expect(((await releases.json()) as { items: { id: string }[] }).items.map((r) => r.id)).toContain(
    releaseId,
  );
  const statements = await api.get('/api/v1/royalties/statements');
  expect(statements.status()).toBe(403);
  expect(((await statements.json()) as { error: { code: string } }).error.code).toBe('forbidden_scope');

  const createProfile = () =>
    api.post('/api/v1/artist-profiles', {
      data: { name: 'Harbour Strings' },
      headers: { 'idempotency-key': 'harbour-strings-1' },
    });
  const first = await createProfile();
  expect(first.status()).toBe(201);
  const retried = await createProfile();
  expect(retried.status()).toBe(201);
  expect(retried.headers()['idempotent-replayed']).toBe('true');
  const profiles = (await (await api.get('/api/v1/artist-profiles')).json()) as {
    profiles: { name: string }[];
  };
  expect(profiles.profiles.filter((p) => p.name === 'Harbour Strings')).toHaveLength(1);

  const document = await api.get('/api/v1/openapi.json');
  expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0');

  // The page shows the key's use; revoking it (asked first) ends it.
  await page.reload();
  await expect(listed.getByText('Last used', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Revoke Catalogue sync' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(listed.getByText('Revoked', { exact: false })).toBeVisible();
  const refused = await api.get('/api/v1/releases');
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  await api.dispose();
});

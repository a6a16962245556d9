/**
 * Journeys (issue 38, Done-when) that the server tests covered alone: a run pays four payees whose balances
 * come from a posted report with US and German sales (certified W-9 0%; DE W-8BEN with the treaty 0%; BR
 * W-8BEN without a treaty 30% of the US share only; a US payee without a W-9 blocked under "block" and
 * withheld 24% of the US share under "withhold"), previewed and run by the admin on the bank file; then the
 * year's 1099-MISC and 1042-S hold exactly what was paid and withheld; a run killed after PayPal answered and
 * resumed by the admin makes one PayPal batch and pays its payee once. `ledger:verify` holds after each.
 *
 * A run by the admin pays every balance due, and the policy switch changes every preview: this file runs in
 * a project of its own, after the site-wide journeys and before the ledger check.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { w8benForm, w9Form } from '../apps/server/src/modules/tax/tax-fixtures';
import { startPaypalFake } from '../apps/server/src/test-support/paypal-fake';
import { e2eEnv } from './support/env';
import { apiAs, expect, pageAs, type SeededUser, seed, test } from './support/test';

test.describe.configure({ mode: 'serial' });

type Payee = { user: SeededUser; isrc: string };
let payees: Record<'w9' | 'de' | 'br' | 'noW9', Payee> | null = null;

/** `ledger:verify` as the operator runs it, on PGlite through the running server's socket. */
function expectLedgerVerifies() {
  const result = spawnSync(process.execPath, ['apps/server/dist/cli.js', 'ledger:verify'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...e2eEnv.serverEnv },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(`${result.stdout}${result.stderr}`).toContain('every check holds');
  expect(result.status).toBe(0);
}

/** A payee paid by bank transfer, with a live release whose one ISRC the report credits. */
async function payee(suffix: string, tag: string): Promise<Payee> {
  const user = await seed.user({ plan: 'basic', artistName: `Payee ${tag} ${suffix}` });
  const isrc = `QZ${tag.slice(0, 1)}${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  await seed.release({ userId: user.userId, status: 'live', releaseDate: '2020-01-01', isrcs: [isrc] });
  const saved = await apiAs(user, 'PUT', '/api/wallet/payment-settings', {
    payment_method: 'bank',
    payment_details: {
      account_name: `Payee ${tag}`,
      account_number: '000123456789',
      routing_number: '021000021',
      bank_name: 'First Bank',
    },
  });
  expect(saved.status).toBe(200);
  return { user, isrc };
}

/** Posts one DistroKid report crediting each payee $60.00 of US sales and $40.00 of German sales. */
async function postReport(suffix: string, credits: { isrc: string; artist: string }[]) {
  const admin = await seed.user({ roles: ['admin'] });
  const headers = { cookie: admin.cookie ?? '', origin: e2eEnv.baseUrl };
  const report = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    ...credits.flatMap(({ isrc, artist }) => [
      `2026-01-10\t2025-12\tSpotify\t${artist}\tSong\t${isrc}\t\t1000\t100\tSong\tUS\t0\t60.00`,
      `2026-01-10\t2025-12\tSpotify\t${artist}\tSong\t${isrc}\t\t700\t100\tSong\tDE\t0\t40.00`,
    ]),
  ].join('\r\n');
  const imported = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports?filename=tax-${suffix}.tsv`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    body: `${report}\r\n`,
  });
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

test('a run pays four payees: W-9 0%, DE treaty 0%, BR 30% of US sales, no W-9 blocked then 24%', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const found = {
    w9: await payee(suffix, 'WN'),
    de: await payee(suffix, 'DE'),
    br: await payee(suffix, 'BR'),
    noW9: await payee(suffix, 'NW'),
  };
  await seed.taxForm({ userId: found.w9.user.userId, form: w9Form('Uma States') });
  await seed.taxForm({
    userId: found.de.user.userId,
    form: w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }),
  });
  await seed.taxForm({
    userId: found.br.user.userId,
    form: w8benForm('Bruna Brasil', 'BR', null, {
      permanentAddress: { street: 'Rua Augusta 100', city: 'São Paulo', country: 'BR' },
    }),
  });
  await postReport(
    suffix,
    Object.values(found).map((item) => ({ isrc: item.isrc, artist: item.user.artistName })),
  );
  for (const { user } of Object.values(found)) {
    expect((await apiAs(user, 'GET', '/api/payouts')).json).toMatchObject({ balanceCents: 10_000 });
  }

  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  const row = (item: Payee) =>
    page.getByTestId('payout-preview').getByTestId('preview-row').filter({ hasText: item.user.email });
  const cells = async (item: Payee) =>
    (await row(item).locator('td').allInnerTexts()).slice(2, 5).map((text) => text.trim());

  // Policy "block": the US payee without a W-9 is named with the reason; the others' withholding shown.
  await page.goto('/admin/payouts');
  await page.getByRole('button', { name: 'Preview a run' }).click();
  await expect(row(found.noW9)).toContainText('Blocked: No Form W-9 on file');
  expect(await cells(found.w9)).toEqual(['$100.00', '$0.00', '$100.00']);
  await expect(row(found.w9)).toContainText('Bank file (CSV)');
  expect(await cells(found.de)).toEqual(['$100.00', '$0.00', '$100.00']);
  await expect(row(found.de)).toContainText('treaty art. 12(1) 0%');
  // 30% of the $60.00 of US sales; the German $40.00 is not US-source.
  expect(await cells(found.br)).toEqual(['$100.00', '$18.00', '$82.00']);
  await expect(row(found.br)).toContainText('30%');

  // Policy "withhold": the same payee is paid, 24% of the US share withheld.
  await page.goto('/admin/settings');
  const tax = page.getByTestId('admin-tax');
  await tax.getByLabel('US payee without a certified W-9', { exact: true }).selectOption('withhold');
  await tax.getByRole('button', { name: 'Save tax settings' }).click();
  await expect(page.getByText('Tax settings saved.')).toBeVisible();
  await page.goto('/admin/payouts');
  await page.getByRole('button', { name: 'Preview a run' }).click();
  await expect(row(found.noW9)).toContainText('$14.40');
  await expect(row(found.noW9)).not.toContainText('Blocked');
  expect(await cells(found.noW9)).toEqual(['$100.00', '$14.40', '$85.60']);
  await expect(row(found.noW9)).toContainText('24%');

  // Run on the bank file, then the bank's word by hand: each payee paid what the preview said.
  await page.getByRole('button', { name: 'Run payouts now' }).click();
  await page
    .getByRole('alertdialog', { name: 'Run payouts now?' })
    .getByRole('button', { name: 'Run payouts' })
    .click();
  await expect(page).toHaveURL(/\/admin\/payouts\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('run-state')).toHaveText('Sent', { timeout: 30_000 });
  const item = (entry: Payee) => page.locator(`[data-testid="run-item"][data-email="${entry.user.email}"]`);
  const expected: [Payee, string, string][] = [
    [found.w9, '$0.00', '$100.00'],
    [found.de, '$0.00', '$100.00'],
    [found.br, '$18.00', '$82.00'],
    [found.noW9, '$14.40', '$85.60'],
  ];
  for (const [entry, withheld, net] of expected) {
    await expect(item(entry)).toContainText('Sent');
    await item(entry)
      .getByRole('button', { name: `Mark paid: ${entry.user.email}` })
      .click();
    await expect(item(entry)).toContainText('Paid');
    const [gross, kept, paid] = (await item(entry).locator('td').allInnerTexts())
      .slice(2, 5)
      .map((text) => text.trim());
    expect([gross, kept, paid]).toEqual(['$100.00', withheld, net]);
    expect((await apiAs(entry.user, 'GET', '/api/payouts')).json).toMatchObject({ balanceCents: 0 });
  }
  payees = found;

  // Back to the policy the other journeys expect.
  await page.goto('/admin/settings');
  await tax.getByLabel('US payee without a certified W-9', { exact: true }).selectOption('block');
  await tax.getByRole('button', { name: 'Save tax settings' }).click();
  await expect(page.getByText('Tax settings saved.').first()).toBeVisible();
  await context.close();
  expectLedgerVerifies();
});

test("the year's 1099-MISC and 1042-S hold what the run paid and withheld, to the cent", async ({
  browser,
}) => {
  const paid = payees;
  if (!paid) throw new Error('the four-payee run did not pay');
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/settings');
  const card = page.getByTestId('admin-tax');
  const year = new Date().getUTCFullYear();
  await card.getByLabel('Tax year', { exact: true }).selectOption(String(year));
  const csvOf = async (name: string) => {
    const href = await card.getByRole('link', { name }).getAttribute('href');
    // The server refuses a report whose totals differ from the journal's paid and withheld totals.
    const response = await page.request.get(href ?? '');
    expect(response.status()).toBe(200);
    return parse(await response.text(), { columns: true }) as Record<string, string>[];
  };
  const rowOf = (rows: Record<string, string>[], entry: Payee) =>
    rows.filter((row) => row.email === entry.user.email);

  // 1099-MISC: the US persons, royalties paid and federal tax withheld (24% of the US share).
  const misc = await csvOf('1099-MISC (CSV)');
  const miscOf = (entry: Payee) =>
    rowOf(misc, entry).map((row) => [row.box2_royalties, row.box4_federal_income_tax_withheld]);
  expect(miscOf(paid.w9)).toEqual([['100.00', '0.00']]);
  expect(miscOf(paid.noW9)).toEqual([['100.00', '14.40']]);
  expect(rowOf(misc, paid.de)).toEqual([]);
  expect(rowOf(misc, paid.br)).toEqual([]);

  // 1042-S: the foreign persons, income code 12, their US-source gross, exemption code and rate.
  const foreign = await csvOf('1042-S (CSV)');
  const foreignOf = (entry: Payee) =>
    rowOf(foreign, entry).map((row) => [
      row.recipient_country,
      row.income_code,
      row.box2_gross_income,
      row.box3a_exemption_code,
      row.box3b_tax_rate,
      row.box7a_federal_tax_withheld,
    ]);
  expect(foreignOf(paid.de)).toEqual([['DE', '12', '60.00', '04', '0', '0.00']]);
  expect(foreignOf(paid.br)).toEqual([['BR', '12', '60.00', '00', '30', '18.00']]);
  expect(rowOf(foreign, paid.w9)).toEqual([]);
  expect(rowOf(foreign, paid.noW9)).toEqual([]);

  // What the four were paid and withheld in all: $367.60 net, $32.40 withheld, as the run's items said.
  const withheld = [...misc, ...foreign]
    .filter((row) => Object.values(paid).some((entry) => entry.user.email === row.email))
    .reduce(
      (sum, row) =>
        sum +
        Math.round(Number(row.box4_federal_income_tax_withheld ?? row.box7a_federal_tax_withheld) * 100),
      0,
    );
  expect(withheld).toBe(1_440 + 1_800);
  await context.close();
  expectLedgerVerifies();
});

test('a run killed after PayPal answered, resumed by the admin, pays nobody twice', async ({ browser }) => {
  test.setTimeout(90_000);
  const fake = await startPaypalFake();
  try {
    const { page, context, user: admin } = await pageAs(browser, { roles: ['admin'] });
    const on = await apiAs(admin, 'PUT', '/api/admin/payouts/providers', {
      provider: 'paypal',
      enabled: true,
      credentials: { clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId },
      baseUrl: fake.url,
    });
    expect(on.status).toBe(200);
    const user = await seed.user({ plan: 'basic', balanceCents: 7_000 });
    const saved = await apiAs(user, 'PUT', '/api/wallet/payment-settings', {
      payment_method: 'paypal',
      payment_details: { paypal_email: `killed.${user.userId.slice(0, 8)}@example.com` },
    });
    expect(saved.status).toBe(200);
    await seed.taxForm({ userId: user.userId, form: w9Form('Kim Killed') });

    // PayPal made the batch; the server stopped before recording its answer.
    const { runId } = await seed.killedPayoutRun({ userId: user.userId });
    expect(fake.createCalls()).toBe(1);
    expect(fake.batches).toHaveLength(1);
    await page.goto(`/admin/payouts/${runId}`);
    await expect(page.getByTestId('run-error')).toContainText(
      'Sending failed: the server stopped after the provider answered (journey fixture)',
    );
    expect((await apiAs(user, 'GET', '/api/payouts')).json).toMatchObject({ balanceCents: 0 });

    // Resumed: the same sender_batch_id again, PayPal answers with the batch it has; one batch, one item.
    await page.getByRole('button', { name: 'Resume sending' }).click();
    await expect(page.getByTestId('run-state')).toHaveText('Sent', { timeout: 30_000 });
    expect(fake.createCalls()).toBe(2);
    expect(fake.batches).toHaveLength(1);
    expect(fake.batches[0]?.items.map((item) => [item.senderItemId, item.value])).toEqual([
      [`${runId}:${user.userId}`, '70.00'],
    ]);
    await expect(page.getByRole('list', { name: 'Provider batches' })).toContainText(
      `PayPal Payouts: tunedrop-${runId}-paypal → FAKEBATCH1`,
    );
    const item = page.locator(`[data-testid="run-item"][data-email="${user.email}"]`);
    fake.setStatus(`${runId}:${user.userId}`, 'SUCCESS');
    await page.getByRole('button', { name: 'Check PayPal now' }).click();
    await expect(item).toContainText('Paid');
    // A second resume is refused: the run was sent.
    const again = await apiAs(admin, 'POST', `/api/admin/payouts/runs/${runId}/resume`);
    expect(again.status).toBe(409);
    const payouts = (await apiAs(user, 'GET', '/api/payouts')).json as {
      balanceCents: number;
      payouts: { state: string }[];
    };
    expect(payouts.balanceCents).toBe(0);
    expect(payouts.payouts.map((payout) => payout.state)).toEqual(['paid']);

    const off = await apiAs(admin, 'PUT', '/api/admin/payouts/providers', {
      provider: 'paypal',
      enabled: false,
    });
    expect(off.status).toBe(200);
    await context.close();
  } finally {
    await fake.close();
  }
  expectLedgerVerifies();
});

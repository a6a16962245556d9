/**
 * Journey (issue 38): the tax interview on the Royalties page. A US artist answers "US person", gets Form
 * W-9, is refused a TIN that cannot exist with the shared message, signs with a typed name and sees the form
 * on file with its PDF; a German artist answers "not a US person, as an individual", gets Form W-8BEN, is
 * refused a US address, claims the treaty (article 12(1), 0%) and sees the rate that applies.
 */
import { TAX_MESSAGES } from '@tunedrop/shared/schemas/tax';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a US artist signs Form W-9 through the interview', async ({ browser }) => {
  const { page, context } = await pageAs(browser);
  await page.goto('/dashboard/royalties');
  const section = page.getByTestId('tax-form-section');
  await expect(section.getByRole('heading', { name: 'Tax form' })).toBeVisible();
  await expect(section.getByTestId('tax-standing')).toContainText('No tax form on file.');
  await section.getByRole('button', { name: 'Fill in your tax form' }).click();
  await section.getByRole('radio', { name: 'Yes, I am a US person' }).check();
  const form = section.getByRole('form', { name: 'Form W-9' });
  await expect(form.getByTestId('tax-certification')).toContainText(
    'Under penalties of perjury, I certify that:',
  );
  await form.getByLabel('Name (as shown on your income tax return)', { exact: true }).fill('Uma States');
  await form.getByLabel('Taxpayer identification number', { exact: true }).fill('000-12-3456');
  await form.getByLabel('Address (number, street, apt.)', { exact: true }).fill('1 Main St');
  await form.getByLabel('City or town', { exact: true }).fill('Austin');
  await form.getByLabel('State', { exact: true }).fill('TX');
  await form.getByLabel('ZIP code', { exact: true }).fill('78701');
  await form.getByRole('checkbox', { name: /I certify under penalties of perjury/ }).check();
  await form.getByLabel('Type your full name to sign', { exact: true }).fill('Uma States');
  await form.getByRole('button', { name: 'Sign Form W-9' }).click();
  await expect(form.getByText(TAX_MESSAGES.ssn).first()).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  await form.getByLabel('Taxpayer identification number', { exact: true }).fill('123-45-6789');
  await form.getByRole('button', { name: 'Sign Form W-9' }).click();
  await expect(section.getByTestId('tax-standing')).toHaveText(
    'Your Form W-9 is on file: no US tax is withheld from your payouts.',
  );
  const onFile = section.getByTestId('tax-form-on-file');
  await expect(onFile).toContainText('Form W-9 signed');
  await expect(onFile).toContainText('by Uma States · TIN •••••6789');
  const href = await onFile.getByRole('link', { name: /Download the signed form/ }).getAttribute('href');
  const pdf = await page.request.get(href ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await context.close();
});

test('a German artist signs Form W-8BEN with the treaty rate', async ({ browser }) => {
  const { page, context } = await pageAs(browser);
  await page.goto('/dashboard/royalties');
  const section = page.getByTestId('tax-form-section');
  await section.getByRole('button', { name: 'Fill in your tax form' }).click();
  await section.getByRole('radio', { name: 'No, I am not a US person' }).check();
  await expect(section.getByTestId('tax-standing')).toContainText(
    'You are not a US person and have no valid Form W-8: 30% US tax is withheld',
  );
  await section.getByRole('radio', { name: 'As an individual' }).check();
  const form = section.getByRole('form', { name: 'Form W-8BEN' });
  await form
    .getByLabel('Name of the individual who is the beneficial owner', { exact: true })
    .fill('Dora Deutsch');
  await form.getByLabel('Country of citizenship', { exact: true }).selectOption('DE');
  await form.getByLabel('Date of birth', { exact: true }).fill('1990-04-01');
  await form
    .getByLabel('Permanent residence address (street; no P.O. box)', { exact: true })
    .fill('1 Main St');
  await form.getByLabel('City or town', { exact: true }).fill('Austin');
  await form.getByLabel('Country of permanent residence', { exact: true }).selectOption('US');
  await form.getByLabel('Foreign tax identifying number', { exact: true }).fill('12345678901');
  await form.getByRole('checkbox', { name: /Claim tax treaty benefits/ }).check();
  await form.getByLabel('Treaty article and paragraph', { exact: true }).fill('12(1)');
  await form.getByLabel('Treaty rate of withholding (%)', { exact: true }).fill('0');
  await form.getByRole('checkbox', { name: /capacity to sign/ }).check();
  await form.getByLabel('Type your full name to sign', { exact: true }).fill('Dora Deutsch');
  await form.getByRole('button', { name: 'Sign Form W-8BEN' }).click();
  await expect(form.getByText(TAX_MESSAGES.usAddressOnW8).first()).toBeVisible();

  await form
    .getByLabel('Permanent residence address (street; no P.O. box)', { exact: true })
    .fill('Hauptstrasse 5');
  await form.getByLabel('City or town', { exact: true }).fill('Berlin');
  await form.getByLabel('Country of permanent residence', { exact: true }).selectOption('DE');
  await form.getByRole('button', { name: 'Sign Form W-8BEN' }).click();
  await expect(section.getByTestId('tax-standing')).toHaveText(
    /^Your Form W-8BEN is on file: 0% US tax is withheld( on earnings from sales in the United States)?\. It is valid until \d{4}-12-31\.$/,
  );
  await expect(section.getByTestId('tax-form-on-file')).toContainText('Form W-8BEN signed');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await context.close();
});

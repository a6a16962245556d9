import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an artist requests a takedown of a live release and sees Takedown Pending', async ({ browser }) => {
  const { page, user } = await pageAs(browser);
  await seed.release({ userId: user.userId, title: 'Pending Song' });
  await seed.release({
    userId: user.userId,
    title: 'Bad Mix',
    status: 'rejected',
    rejectionReason: 'The audio clips in the chorus.',
  });
  await seed.release({ userId: user.userId, title: 'Live Song', status: 'live' });

  await page.goto('/dashboard/songs');
  await expect(page.getByRole('heading', { name: 'My Songs' })).toBeVisible();
  const rejected = page.getByRole('listitem').filter({ hasText: 'Bad Mix' });
  await expect(rejected.getByText('The audio clips in the chorus.')).toBeVisible();
  const pending = page.getByRole('listitem').filter({ hasText: 'Pending Song' });
  await expect(pending.getByRole('button', { name: 'Request Takedown' })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);

  const live = page.getByRole('listitem').filter({ hasText: 'Live Song' });
  await live.getByRole('button', { name: 'Request Takedown' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Request Takedown' }).click();

  await expect(live.getByText('Takedown Pending')).toBeVisible();
  await expect(live.getByRole('button', { name: 'Request Takedown' })).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole('listitem').filter({ hasText: 'Live Song' }).getByText('Takedown Pending'),
  ).toBeVisible();
});

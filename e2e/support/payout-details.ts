/** The newest payout-details confirmation link mailed to the account's owner (record 314), as a path. */
import { expect, outboxMails } from './test';

const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

export async function payoutConfirmationPath(ownerEmail: string, notThis?: string): Promise<string> {
  let path = '';
  await expect
    .poll(async () => {
      const links = (await outboxMails(ownerEmail))
        .map(
          (mail) => decode(mail.text).match(/https?:\/\/[^\s"<>]+\/dashboard\/payouts\?confirm=[\w-]+/)?.[0],
        )
        .filter((link): link is string => Boolean(link))
        .map((link) => {
          const url = new URL(link);
          return `${url.pathname}${url.search}`;
        });
      path = links.at(-1) ?? '';
      return path !== '' && path !== notThis;
    })
    .toBe(true);
  return path;
}

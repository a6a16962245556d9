/**
 * The mails of royalty splits (records 147, 148): an invitation and an expense notice. Their subjects are
 * fixed and every text a sender typed (artist name, release title, expense description) is quoted as data
 * in the body, made inert (no control, format or bidirectional characters; links defanged), so a mail
 * cannot be turned into the sender's own headline or a clickable link of theirs.
 */
import { formatCents } from '@tunedrop/shared';
import { SPLIT_TEXTS } from '@tunedrop/shared/schemas/splits';
import type { OutgoingMail } from '../../infra/mail/mail';

const MAX_QUOTED = 120;

/**
 * `text` as one inert quoted line: control and format characters (bidi overrides, zero-width) removed,
 * "scheme://" and dots before letters bracketed ("https[:]//evil[.]example"), so mail programs do not
 * turn a sender's text into a link; double quotes become single ones so the quote cannot be closed early.
 */
export function quoted(text: string): string {
  const line = text
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = line.length > MAX_QUOTED ? `${line.slice(0, MAX_QUOTED)}…` : line;
  const inert = short
    .replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(/(?<=[\p{L}\p{N}])\.(?=\p{L})/gu, '[.]')
    .replace(/"/g, "'");
  return `"${inert}"`;
}

export function invitationMail(input: {
  to: string;
  ownerName: string;
  releaseTitle: string;
  url: string;
  appUrl: string;
}): OutgoingMail {
  return {
    to: input.to,
    subject: SPLIT_TEXTS.invitationMailSubject,
    text: [
      'Hi,',
      '',
      'An artist who distributes music through Tunedrop has invited this email address to receive a share of the royalties of one of their releases. This is what they entered:',
      '',
      `  Artist name: ${quoted(input.ownerName)}`,
      `  Release: ${quoted(input.releaseTitle)}`,
      '',
      `Tunedrop has not checked these names. Accepting a share is free: Tunedrop never asks for a payment, card or bank details to accept one, and the only link in this mail leads to ${new URL(input.appUrl).host}.`,
      '',
      'See your share and accept it here, signed in with this email address:',
      input.url,
      '',
      'Accepting needs a free Tunedrop account; no subscription is needed to receive shares. Until you accept, your share is held for you. If you do not know this artist, you can ignore this mail.',
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}

export function expenseMail(input: {
  to: string;
  ownerName: string;
  releaseTitle: string;
  description: string;
  amountCents: number;
  spentOn: string;
  outstandingCents: number;
  appUrl: string;
}): OutgoingMail {
  return {
    to: input.to,
    subject: SPLIT_TEXTS.expenseMailSubject,
    text: [
      'Hi,',
      '',
      'The owner of a release whose royalties you share added an expense. Expenses are repaid to the owner from the release’s earnings before shares are paid, so your share of the next reports is smaller until it is repaid.',
      '',
      `  Release: ${quoted(input.releaseTitle)}`,
      `  Owner (artist name): ${quoted(input.ownerName)}`,
      `  Description: ${quoted(input.description)}`,
      `  Amount: ${formatCents(input.amountCents)}, spent on ${input.spentOn}`,
      `  Expenses of this release not yet repaid: ${formatCents(input.outstandingCents)}`,
      '',
      `Every expense of the releases you share is listed under “Your split shares” on your Royalties page: ${input.appUrl}/dashboard/royalties`,
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}

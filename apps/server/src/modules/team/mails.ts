/** The team invitation mail (record 326): a fixed subject; the account name is quoted as inert data. */
import {
  type MemberRole,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  TEAM_INVITATION_DAYS,
  TEAM_TEXTS,
} from '@tunedrop/shared/schemas/team';
import type { OutgoingMail } from '../../infra/mail/mail';
import { quoted } from '../splits';

export function teamInvitationMail(input: {
  to: string;
  accountName: string;
  role: MemberRole;
  url: string;
  appUrl: string;
}): OutgoingMail {
  return {
    to: input.to,
    subject: TEAM_TEXTS.mailSubject,
    text: [
      'Hi,',
      '',
      'The owner of a Tunedrop account has invited this email address to join their team:',
      '',
      `  Account: ${quoted(input.accountName)}`,
      `  Role: ${ROLE_LABELS[input.role]} (${ROLE_DESCRIPTIONS[input.role]})`,
      '',
      `Tunedrop has not checked this name. Joining is free and needs no plan; the only link in this mail leads to ${new URL(input.appUrl).host}.`,
      '',
      `Accept the invitation here, signed in with this email address (the link works for ${TEAM_INVITATION_DAYS} days):`,
      input.url,
      '',
      'If you do not know this account, you can ignore this mail.',
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}

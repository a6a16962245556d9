/**
 * The verification mail's words. An artist from the pricing flow is told the link leads to choosing a
 * plan and paying (spec 01 §4); a payee (record 175), whose link leads back to a split invitation or to
 * their balance, and an invited team member (record 230), whose link leads back to the team invitation, are
 * told nothing about plans.
 */
import { isPayeeCallbackPath, isTeamInvitationCallbackPath } from '@tunedrop/shared/schemas/auth';

export const VERIFICATION_SUBJECT = 'Confirm your email for Tunedrop';

/** `url` is better-auth's verification link; its callbackURL says where the person lands. */
export function verificationMailText(name: string, url: string): string {
  const callback = callbackOf(url);
  const next = isTeamInvitationCallbackPath(callback)
    ? 'then you come back to the team invitation and join the account'
    : isPayeeCallbackPath(callback)
      ? callback?.startsWith('/splits/invitations/')
        ? 'then you come back to the royalty split you were invited to'
        : 'then you can see your royalty shares, balance and withdrawals'
      : 'then you can choose your plan and pay';
  return `Hi ${name},\n\nWelcome to Tunedrop. Confirm your email address by opening this link, ${next}:\n\n${url}\n\nThe link is valid for 24 hours.\n\nTunedrop`;
}

function callbackOf(url: string): string | null {
  try {
    return new URL(url).searchParams.get('callbackURL');
  } catch {
    return null;
  }
}

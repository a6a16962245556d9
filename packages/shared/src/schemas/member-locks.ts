/**
 * What a team member (record 230) reads where an owner reads "Pro feature — upgrade to unlock": a member
 * cannot upgrade (only the owner can), so they are told the account does not include the feature and that
 * its owner can add it, with no plan, price or upgrade link (record 274). Owners keep the spec's texts.
 */
export const MEMBER_LOCK_TEXTS = {
  /** Beside a locked field or choice (the builder, the release pages). */
  feature: 'Not included in this account — its owner can add it',
  /** Adding a second artist profile on a Basic account. */
  artistProfiles: 'This account includes 1 artist profile. Its owner can add more.',
  /** More than one primary artist on a Basic account's release. */
  primaryArtists: 'This account has one primary artist per release. Its owner can add more.',
  /** The message shown on the way to Analytics. */
  analytics: 'Analytics are not included in this account. Its owner can add them.',
  /** YouTube Content ID on a Basic account. */
  contentId: 'YouTube Content ID is not included in this account. Its owner can add it.',
  /** The copyright and publishing holders a Basic account keeps as the artist's name. */
  holderIsArtist: 'Not included in this account — its owner can add it. Until then this is the artist name.',
  /** The copyright and publishing years a Basic account keeps as the current year. */
  yearIsCurrent: 'Not included in this account — its owner can add it. Until then this is the current year.',
  /** A profile beyond the first on a Basic account: its releases stay, new ones are refused. */
  readOnlyProfile: (first: string) =>
    `New releases can only be created under this account's first profile (${first}). This profile's releases stay as they are; its owner can add more artist profiles.`,
} as const;

/** Acting for someone else's account as a team member, not as its owner: the member texts apply. */
export function isTeamMemberOf(viewer: {
  user: { id: string };
  account: { id: string; role: string };
}): boolean {
  return viewer.account.id !== viewer.user.id && viewer.account.role !== 'owner';
}

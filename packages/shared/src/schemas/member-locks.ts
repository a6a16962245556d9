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
} as const;

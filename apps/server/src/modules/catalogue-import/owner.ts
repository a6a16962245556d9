/**
 * Whose releases an import makes, and under which of the owner's artist profiles each one goes (issue 44
 * finding 4, record 233): the profile chosen for the folder, else the profile named like the release's
 * main artist, else the only profile; with several and none matching, the release is refused with the
 * names to choose from. Never silently the first.
 */
import { hasProFeatures, passesSubscriptionGate, type Role } from '@tunedrop/shared';
import { ARTIST_PROFILE_MESSAGES } from '@tunedrop/shared/schemas/artist-profile-rules';
import { CATALOGUE_IMPORT_MESSAGES } from '@tunedrop/shared/schemas/catalogue-import';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { artistProfiles, profiles, user, userRoles } from '../../db/schema';
import { AppError } from '../../lib/errors';

export type OwnerProfile = { id: string; name: string; position: number };

export type Owner = {
  id: string;
  email: string;
  isPro: boolean;
  /** Pro features with a running subscription: profiles beyond the first may get new releases. */
  hasUnlimitedProfiles: boolean;
  isBanned: boolean;
  /** In position order; the first is the account's first profile. */
  profiles: OwnerProfile[];
};

export async function findOwner(db: Db, email: string, now = new Date()): Promise<Owner> {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      plan: profiles.plan,
      banned: profiles.banned,
      subscriptionStatus: profiles.subscriptionStatus,
      subscriptionEnd: profiles.subscriptionEnd,
    })
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.email, email.trim().toLowerCase()));
  if (!row)
    throw new AppError('owner_unknown', CATALOGUE_IMPORT_MESSAGES.ownerUnknown(email), 422, {
      ownerEmail: CATALOGUE_IMPORT_MESSAGES.ownerUnknown(email),
    });
  const roles = (
    await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, row.id))
  ).map((r) => r.role as Role);
  const isPro = hasProFeatures(row.plan, roles);
  const profileRows = await db
    .select({ id: artistProfiles.id, name: artistProfiles.name, position: artistProfiles.position })
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, row.id))
    .orderBy(asc(artistProfiles.position));
  return {
    id: row.id,
    email: row.email,
    isPro,
    hasUnlimitedProfiles:
      isPro &&
      passesSubscriptionGate(
        { subscriptionStatus: row.subscriptionStatus, subscriptionEnd: row.subscriptionEnd, roles },
        now,
      ),
    isBanned: row.banned,
    profiles: profileRows,
  };
}

/** Names compared as one artist: Unicode-normalised, spaces collapsed, case ignored. */
export const nameKey = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/** The owner's profile of this name (the admin's choice for a folder), or a 422 naming the profiles there are. */
export function profileNamed(owner: Owner, name: string): OwnerProfile {
  const found = owner.profiles.find((profile) => nameKey(profile.name) === nameKey(name));
  if (!found) {
    const message = CATALOGUE_IMPORT_MESSAGES.profileUnknown(
      name,
      owner.email,
      owner.profiles.map((p) => p.name),
    );
    throw new AppError('artist_profile_unknown', message, 422, { artistProfile: message });
  }
  return found;
}

/** The profile a release goes under, or why none can be chosen (a report reason). */
export function profileFor(
  owner: Owner,
  chosen: string | null,
  displayArtists: readonly string[],
): { profile: OwnerProfile; note: string | null } | { reason: string } {
  let pick: { profile: OwnerProfile; note: string | null } | null = null;
  if (chosen) {
    const profile = owner.profiles.find((p) => nameKey(p.name) === nameKey(chosen));
    if (!profile)
      return {
        reason: CATALOGUE_IMPORT_MESSAGES.profileUnknown(
          chosen,
          owner.email,
          owner.profiles.map((p) => p.name),
        ),
      };
    pick = { profile, note: null };
  } else {
    const keys = displayArtists.map(nameKey);
    const matched = owner.profiles.find((p) => keys.includes(nameKey(p.name)));
    const [only] = owner.profiles;
    if (matched) pick = { profile: matched, note: null };
    else if (only && owner.profiles.length === 1)
      pick = {
        profile: only,
        note: `Artist profile: ${only.name}, the account's only profile (the release's artist is ${displayArtists.join(', ') || 'not given'}).`,
      };
    else
      return {
        reason: CATALOGUE_IMPORT_MESSAGES.profileNoMatch(
          displayArtists,
          owner.profiles.map((p) => p.name),
        ),
      };
  }
  const first = owner.profiles[0];
  if (first && pick.profile.id !== first.id && !owner.hasUnlimitedProfiles)
    return { reason: `Artist profile ${pick.profile.name}: ${ARTIST_PROFILE_MESSAGES.readOnly(first.name)}` };
  return pick;
}

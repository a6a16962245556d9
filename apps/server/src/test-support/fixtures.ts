/**
 * Fixtures that create users, roles, subscriptions and releases directly in the database.
 * Used by the API tests and, through the test-only fixtures route, by the Playwright journeys.
 */
import { randomUUID } from 'node:crypto';
import type { Plan, PlatformId, ReleaseStatus, Role, SubscriptionStatus } from '@tunedrop/shared';
import { centsToDecimal } from '@tunedrop/shared/money';
import { eq } from 'drizzle-orm';
import { producers, profiles, releases, songwriters, tracks } from '../db/schema';
import type { Deps } from '../deps';
import { createAccount, grantRole } from '../modules/auth';
import { recordTransaction } from '../modules/ledger';
import { makeWav } from './media';

export type TestUserOptions = {
  email?: string;
  password?: string;
  fullName?: string;
  artistName?: string;
  plan?: Plan;
  roles?: Role[];
  /** Defaults to 'active' with an end a month ahead; 'inactive' for none. */
  subscription?: SubscriptionStatus;
  subscriptionEnd?: Date | null;
  isEmailVerified?: boolean;
  banReason?: string;
  balanceCents?: number;
  totalEarningsCents?: number;
};

export type TestUser = { userId: string; email: string; password: string; artistName: string };

export async function createTestUser(
  deps: Pick<Deps, 'db'>,
  options: TestUserOptions = {},
): Promise<TestUser> {
  const email = options.email ?? `artist-${randomUUID().slice(0, 8)}@example.com`;
  const password = options.password ?? 'Str0ng!Passw0rd';
  const artistName = options.artistName ?? 'Test Artist';
  const { userId } = await createAccount(deps.db, {
    email,
    password,
    fullName: options.fullName ?? 'Test User',
    artistName,
    plan: options.plan ?? 'basic',
    isEmailVerified: options.isEmailVerified ?? true,
  });
  const status = options.subscription ?? 'active';
  const monthAhead = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  await deps.db
    .update(profiles)
    .set({
      subscriptionStatus: status,
      subscriptionEnd:
        options.subscriptionEnd !== undefined
          ? options.subscriptionEnd
          : status === 'inactive'
            ? null
            : monthAhead,
      balanceCents: options.balanceCents ?? 0,
      totalEarningsCents: options.totalEarningsCents ?? options.balanceCents ?? 0,
      ...(options.banReason ? { banned: true, banReason: options.banReason, bannedAt: new Date() } : {}),
    })
    .where(eq(profiles.id, userId));
  // A seeded balance is in the journal too (an opening balance), so the journal's sums, which the finance
  // overview reads, and ledger:verify agree with it (issue 36).
  if (options.balanceCents) {
    await recordTransaction(deps.db, {
      kind: 'opening_balance',
      reference: { type: 'user', id: userId },
      memo: 'Opening balance (test fixture)',
      // Carried over from long before any statement month, as the journeys' ledger line is (test-fixtures).
      at: new Date('2000-01-01T00:00:00Z'),
      entries: [
        { account: 'artist_payable', subject: userId, amount: centsToDecimal(-options.balanceCents) },
        { account: 'manual_adjustments', amount: centsToDecimal(options.balanceCents) },
      ],
    });
  }
  for (const role of options.roles ?? []) await grantRole(deps.db, userId, role);
  return { userId, email, password, artistName };
}

/** Signs in through better-auth and returns the Cookie header value for the session. */
export async function signInCookie(
  deps: Pick<Deps, 'auth' | 'config'>,
  email: string,
  password: string,
): Promise<string> {
  const response = await deps.auth.api.signInEmail({
    body: { email, password },
    headers: new Headers({ origin: deps.config.appUrl }),
    asResponse: true,
  });
  if (!response.ok)
    throw new Error(`sign-in failed for ${email}: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
  return cookies.filter(Boolean).join('; ');
}

export type TestReleaseOptions = {
  title?: string;
  status?: ReleaseStatus;
  trackCount?: number;
  takedownRequested?: boolean;
  rejectionReason?: string | null;
  createdAt?: Date;
  isrcs?: (string | null)[];
  upc?: string | null;
  /** `YYYY-MM-DD`; default December 1st of this year. */
  releaseDate?: string;
  /**
   * `YYYY-MM-DD` or null; default 2000-01-01: a catalogue re-release, so a sales report of any past month
   * matches it without a "sales before the release date" warning that blocks posting (record 187).
   */
  originalReleaseDate?: string | null;
  /** Platform ids; default Spotify and Apple Music. */
  distributionStores?: PlatformId[];
  /** One of the owner's artist profiles (record 201); default the first. */
  artistProfileId?: string;
};

/** A complete release with tracks, credits and real stored files (a small WAV per track, no cover). */
export async function createTestRelease(
  deps: Pick<Deps, 'db' | 'storage'>,
  userId: string,
  options: TestReleaseOptions = {},
): Promise<{ releaseId: string; trackIds: string[] }> {
  const releaseId = randomUUID();
  const trackCount = options.trackCount ?? 1;
  const year = new Date().getFullYear();
  await deps.db.insert(releases).values({
    id: releaseId,
    userId,
    ...(options.artistProfileId ? { artistProfileId: options.artistProfileId } : {}),
    title: options.title ?? 'Test Release',
    primaryArtists: ['Test Artist'],
    primaryArtistsData: [{ name: 'Test Artist' }],
    genre: 'Pop',
    releaseDate: options.releaseDate ?? `${year}-12-01`,
    originalReleaseDate:
      options.originalReleaseDate === undefined ? '2000-01-01' : options.originalReleaseDate,
    copyrightHolder: 'Test Artist',
    publishingHolder: 'Test Artist',
    copyrightYear: year,
    publishingYear: year,
    distributionStores: options.distributionStores ?? ['spotify', 'apple_music'],
    status: options.status ?? 'pending',
    upc: options.upc ?? null,
    rejectionReason: options.rejectionReason ?? null,
    takedownRequested: options.takedownRequested ?? false,
    takedownRequestedAt: options.takedownRequested ? new Date() : null,
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  });
  const trackIds: string[] = [];
  for (let index = 0; index < trackCount; index += 1) {
    const wav = makeWav({ seconds: 1, sampleRate: 44100, bitDepth: 16, channels: 2 });
    const fileName = `track-${index + 1}.wav`;
    const fileKey = `${userId}/${releaseId}/${fileName}`;
    await deps.storage.putBuffer(fileKey, wav, 'audio/wav');
    const [track] = await deps.db
      .insert(tracks)
      .values({
        releaseId,
        position: index + 1,
        title: `Track ${index + 1}`,
        isrc: options.isrcs?.[index] ?? null,
        durationMs: 1000,
        fileKey,
        originalFileName: fileName,
        fileSizeBytes: wav.length,
        sampleRate: 44100,
        bitDepth: 16,
        channels: 2,
        primaryArtistsData: [{ name: 'Test Artist' }],
      })
      .returning({ id: tracks.id });
    if (!track) throw new Error('track insert returned nothing');
    trackIds.push(track.id);
    await deps.db
      .insert(songwriters)
      .values({ trackId: track.id, firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' });
    await deps.db.insert(producers).values({ trackId: track.id, firstName: 'Pat', lastName: 'Producer' });
  }
  return { releaseId, trackIds };
}

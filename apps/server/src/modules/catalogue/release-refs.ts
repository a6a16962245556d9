/**
 * How every module names a release: its not-found error, its id in a path, and its cover's URL. Here, below
 * the modules that show or deliver releases, so none of them imports another for these.
 */
import { createHash } from 'node:crypto';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { notFound } from '../../lib/errors';
import { uuidParam } from '../../lib/params';

export const releaseNotFound = () => notFound(RELEASE_MESSAGES.notFound);

/** A release id from the path; anything that is not a UUID cannot name a release, so it is a 404. */
export const releaseIdParam = (value: string | undefined) => uuidParam(value, RELEASE_MESSAGES.notFound);

/**
 * A cover thumbnail's URL. `version` (the thumbnail's storage key) adds a short hash, so a replaced cover
 * gets a new URL and the browser's cached thumbnail (max-age one day) is never shown for it.
 */
export const coverUrl = (releaseId: string, size: 'small' | 'medium', version?: string | null) =>
  `/api/releases/${releaseId}/cover/${size}${
    version ? `?v=${createHash('sha256').update(version).digest('hex').slice(0, 12)}` : ''
  }`;

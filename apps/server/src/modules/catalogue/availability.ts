/**
 * Release time and territories on the release row (issue 26 finding 7, record 199): the columns a checked
 * choice becomes, and the view every page shows. The rules are the shared schema's.
 */
import {
  type ReleaseAvailability,
  type ReleaseAvailabilityView,
  releaseAtFor,
} from '@tunedrop/shared/schemas/release-availability';
import type { releases } from '../../db/schema';

type ReleaseRow = typeof releases.$inferSelect;

/** The columns to write for a release date and a checked choice (release_at worked out here, once). */
export function availabilityColumns(releaseDate: string, availability: ReleaseAvailability) {
  return {
    releaseTimeMode: availability.releaseTimeMode,
    releaseTime: availability.releaseTime,
    releaseTimeZone: availability.releaseTimeZone,
    releaseAt: releaseAtFor(releaseDate, availability),
    territoryMode: availability.territoryMode,
    territories: availability.territories,
  };
}

export function availabilityView(
  row: Pick<
    ReleaseRow,
    'releaseTimeMode' | 'releaseTime' | 'releaseTimeZone' | 'releaseAt' | 'territoryMode' | 'territories'
  >,
): ReleaseAvailabilityView {
  return {
    releaseTimeMode: row.releaseTimeMode,
    releaseTime: row.releaseTime,
    releaseTimeZone: row.releaseTimeZone,
    releaseAt: row.releaseAt ? row.releaseAt.toISOString() : null,
    territoryMode: row.territoryMode,
    territories: row.territories,
  };
}

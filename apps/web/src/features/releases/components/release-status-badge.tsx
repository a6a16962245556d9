/** The release status as a coloured badge. */
import type { ReleaseStatus } from '@tunedrop/shared';
import { RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import { Badge } from '../../../components/ui/card';

const TONES = {
  pending: 'yellow',
  processing: 'blue',
  approved: 'green',
  live: 'green',
  rejected: 'red',
  taken_down: 'neutral',
  deleted: 'neutral',
} as const satisfies Record<ReleaseStatus, string>;

export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  return (
    <Badge tone={TONES[status]} data-testid="release-status">
      {RELEASE_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

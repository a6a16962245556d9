/** The release status as a coloured badge. */
import type { ReleaseStatus } from '@tunedrop/shared';
import { StatusBadge } from '../../../components/ui/status-badge';

export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  return <StatusBadge kind="release" status={status} data-testid="release-status" />;
}

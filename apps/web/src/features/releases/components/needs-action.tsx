/**
 * "Needs action" (record 194): an overlay on an Approved or Live release while a store's rejection of its
 * latest delivery stands; the badge beside the status, and the stores' reasons.
 */
import { NEEDS_ACTION_LABEL, type StoreRejection } from '@tunedrop/shared/schemas/delivery';
import { AlertTriangle } from 'lucide-react';
import { Badge } from '../../../components/ui/card';

export function NeedsActionBadge({ rejections }: { rejections: StoreRejection[] }) {
  if (rejections.length === 0) return null;
  return (
    <Badge tone="red" data-testid="needs-action">
      {NEEDS_ACTION_LABEL}
    </Badge>
  );
}

export function StoreRejectionNotice({ rejections }: { rejections: StoreRejection[] }) {
  if (rejections.length === 0) return null;
  return (
    <div
      className="space-y-1 rounded-md border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200"
      data-testid="store-rejections"
    >
      {rejections.map((rejection) => (
        <p key={`${rejection.target}-${rejection.at}`} className="flex items-start gap-1.5 break-words">
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            <span className="font-medium">{rejection.target} rejected this release:</span> {rejection.reason}
          </span>
        </p>
      ))}
    </div>
  );
}

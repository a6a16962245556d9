/**
 * Content ID is a Pro feature (record 185): whether the viewer may use it, and the card a Basic artist (or
 * a Pro artist whose subscription lapsed) sees instead, with the way to upgrade or resubscribe (a team member
 * is told the owner decides, record 230). The server refuses the same requests on its side.
 */
import { CONTENT_ID_MESSAGES } from '@tunedrop/shared/schemas/content-id';
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useViewer, viewerFacts } from '../../../lib/viewer';

/** The viewer's Content ID access (the server's rule: Pro features with a subscription in force); null while loading. */
export function useContentIdAccess(): { isPro: boolean; isAllowed: boolean } | null {
  const { data: viewer } = useViewer();
  if (!viewer) return null;
  const facts = viewerFacts(viewer);
  return { isPro: facts.isPro, isAllowed: facts.isPro && facts.passesGate };
}

export function ContentIdProGate({ isPro }: { isPro: boolean }) {
  const { data: viewer } = useViewer();
  // A team member (record 230) is never offered a plan or an upgrade: the account's owner chooses.
  if (viewer && viewerFacts(viewer).isTeamMember) {
    return (
      <Card className="space-y-3" data-testid="content-id-pro-gate">
        <p className="flex items-center gap-2 font-semibold text-amber-300">
          <Lock aria-hidden className="size-4" /> Not included
        </p>
        <p className="text-sm text-zinc-300">{CONTENT_ID_MESSAGES.notForTeam}</p>
      </Card>
    );
  }
  return (
    <Card className="space-y-3" data-testid="content-id-pro-gate">
      <p className="flex items-center gap-2 font-semibold text-amber-300">
        <Lock aria-hidden className="size-4" /> Pro feature
      </p>
      <p className="text-sm text-zinc-300">
        {isPro ? CONTENT_ID_MESSAGES.needsSubscription : CONTENT_ID_MESSAGES.proOnly}
      </p>
      <Link to={paths.account} className={buttonClass('primary', 'sm')}>
        {isPro ? 'Resubscribe' : 'Upgrade to Pro'}
      </Link>
    </Card>
  );
}

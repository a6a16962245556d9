/** How Pro-only and plan-locked fields look to a basic user (a team member is offered no upgrade, record 274). */
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { usePlanLock } from '../../../lib/plan-lock';

export function ProFeatureNote({ id }: { id?: string }) {
  const { isTeamMember, featureText } = usePlanLock();
  return (
    <p id={id} className="mt-1 flex items-center gap-1 text-xs text-amber-300">
      <Lock aria-hidden className="size-3" /> {featureText}
      {isTeamMember ? null : (
        <>
          {' '}
          <Link to={paths.account} className="ml-1 underline">
            Upgrade
          </Link>
        </>
      )}
    </p>
  );
}

export function LockedNote({ id, children }: { id?: string; children: string }) {
  return (
    <p id={id} className="mt-1 flex items-center gap-1 text-xs text-zinc-400">
      <Lock aria-hidden className="size-3" /> {children}
    </p>
  );
}

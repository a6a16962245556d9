/** How Pro-only and plan-locked fields look to a basic user. */
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';

export const PRO_FEATURE_TEXT = 'Pro feature — upgrade to unlock';

export function ProFeatureNote({ id }: { id?: string }) {
  return (
    <p id={id} className="mt-1 flex items-center gap-1 text-xs text-amber-300">
      <Lock aria-hidden className="size-3" /> {PRO_FEATURE_TEXT}{' '}
      <Link to={paths.account} className="ml-1 underline">
        Upgrade
      </Link>
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

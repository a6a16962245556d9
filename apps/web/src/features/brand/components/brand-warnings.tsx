/** The claims of the public site that this server's setup does not back (record 328), for admins. */
import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useBrandWarnings } from '../api/brand';

export function BrandWarnings({
  isEnabled = true,
  linksToSettings = false,
}: {
  isEnabled?: boolean;
  linksToSettings?: boolean;
}) {
  const warnings = useBrandWarnings(isEnabled);
  const list = warnings.data?.warnings ?? [];
  if (list.length === 0) return null;
  return (
    <section
      aria-label="Claims the site cannot back"
      data-testid="brand-warnings"
      className="space-y-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100"
    >
      <p className="flex items-center gap-2 font-semibold text-amber-200">
        <TriangleAlert aria-hidden className="size-4" /> The public site claims what this server does not
        deliver
      </p>
      <ul className="list-disc space-y-1 pl-6">
        {list.map((warning) => (
          <li key={warning.claim}>{warning.message}</li>
        ))}
      </ul>
      {linksToSettings ? (
        <p>
          <Link to={paths.adminSettings} className="underline hover:text-white">
            Change the brand and plans in Settings
          </Link>{' '}
          or enable the delivery targets that serve them.
        </p>
      ) : null}
    </section>
  );
}

/**
 * /admin/releases/:id/splits (admin only): a release's splits as the admin sees and changes them. A change
 * of another account's split asks for a reason, which is logged and mailed to every collaborator whose
 * share it changes (issue 43 finding 10, record 229).
 */
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { ReleaseSplitsSection } from '../../features/splits';
import { usePageTitle } from '../../lib/use-page-title';

export default function AdminReleaseSplitsPage() {
  usePageTitle('Release splits', 'Change a release’s royalty splits, with a reason.');
  const { id = '' } = useParams();
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <Link
        to={paths.adminReleases}
        className="inline-flex items-center gap-2 text-sm text-brand-300 underline underline-offset-2 hover:text-brand-200"
      >
        <ArrowLeft aria-hidden className="size-4" /> Back to releases
      </Link>
      <h1 className="text-2xl font-bold text-white sm:text-3xl">Release splits</h1>
      <ReleaseSplitsSection releaseId={id} />
    </div>
  );
}

/** /admin/royalties: import store and aggregator statements, the imported reports, the unmatched queue, suspense. */
import { usePageTitle } from '../../../lib/use-page-title';
import { ImportsList } from '../components/imports-list';
import { SuspenseAccount } from '../components/suspense-account';
import { UnmatchedQueue } from '../components/unmatched-queue';
import { UploadCard } from '../components/upload-card';

export default function AdminRoyaltiesPage() {
  usePageTitle('Royalty imports');
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold text-white">Royalty imports</h1>
        <p className="mt-1 text-zinc-400">
          Store reports in, artists’ earnings out: import, review, assign unknown codes, post.
        </p>
      </header>
      <UploadCard />
      <ImportsList />
      <UnmatchedQueue />
      <SuspenseAccount />
    </div>
  );
}

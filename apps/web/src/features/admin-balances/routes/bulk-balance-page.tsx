/** Balance Management (admin only): one user's balances inline, or many through a CSV file. */
import { usePageTitle } from '../../../lib/use-page-title';
import { CsvImport } from '../components/csv-import';
import { UserSearch } from '../components/user-search';

export default function BulkBalancePage() {
  usePageTitle('Balance Management');
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-white">Balance Management</h1>
        <p className="mt-1 text-zinc-400">
          Update artists' balances one at a time or in bulk. Every change is logged with your name.
        </p>
      </header>
      <UserSearch />
      <CsvImport />
    </div>
  );
}

/** Privacy Policy: placeholder until its issue is built. */
import { usePageTitle } from '../../../lib/use-page-title';

export default function Page() {
  usePageTitle('Privacy Policy');
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-bold text-white">Privacy Policy</h1>
    </main>
  );
}

/** Tunedrop: placeholder until its issue is built. */
import { usePageTitle } from '../../../lib/use-page-title';

export default function Page() {
  usePageTitle('Tunedrop');
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-bold text-white">Tunedrop</h1>
    </main>
  );
}

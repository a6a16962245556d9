/**
 * The router's error element (spec 01 §8). An unknown route gets a designed "Page not found" page with a
 * way home (decision 130); any other error keeps the spec's 'Unexpected Application Error!' with the message.
 */
import { Compass } from 'lucide-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { BrandMark } from '../components/brand-mark';
import { buttonClass } from '../components/ui/button';
import { usePageTitle } from '../lib/use-page-title';

export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center px-6 py-16">
      <h1 className="text-2xl font-bold text-white">Unexpected Application Error!</h1>
      <p className="mt-3 rounded-lg bg-ink-900 p-4 font-mono text-sm text-red-300">{message}</p>
      <p className="mt-6">
        <Link to="/" className="text-brand-300 underline hover:text-brand-200">
          Go to the home page
        </Link>
      </p>
    </main>
  );
}

function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-ink-800 px-6 py-4">
        <Link to="/" className="inline-flex items-center gap-2 text-lg font-bold text-white">
          <BrandMark />
        </Link>
      </header>
      <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-6 py-16 text-center">
        <Compass aria-hidden className="size-14 text-brand-400" />
        <p className="mt-6 text-sm font-semibold tracking-widest text-brand-300">404</p>
        <h1 className="mt-2 text-3xl font-bold text-white sm:text-4xl">Page not found</h1>
        <p className="mt-4 text-zinc-400">
          The page you were looking for does not exist or has moved. Check the address, or carry on from one
          of these.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/" className={buttonClass('primary', 'lg')}>
            Go to the home page
          </Link>
          <Link to="/dashboard" className={buttonClass('outline', 'lg')}>
            Open your dashboard
          </Link>
        </div>
      </main>
    </div>
  );
}

/** The router's error element (spec 01 §8): 'Unexpected Application Error!' with the message. */
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
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

/**
 * A card of the admin Settings and Account pages: its title and what the setting does, then its form once
 * the setting is read; a spinner until then, and what went wrong when it could not be read.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { Card, PageLoader } from './card';

export function SettingsCard<T>({
  title,
  description,
  query,
  loadError,
  testId,
  above,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  /** The setting's read. */
  query: UseQueryResult<T>;
  /** Said when the read failed and the server gave no message. */
  loadError: string;
  testId?: string;
  /** Shown under the description whatever the read's state (warnings). */
  above?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card className="space-y-4" data-testid={testId}>
      <div>
        <h2 className="text-lg font-semibold text-white">{title}</h2>
        <p className="text-sm text-zinc-400">{description}</p>
      </div>
      {above}
      {query.isPending ? (
        <PageLoader />
      ) : query.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(query.error, loadError)}
        </p>
      ) : (
        children(query.data)
      )}
    </Card>
  );
}

/** Find users by email or artist name (at most 10), then edit one user's balances inline. */
import type { BalanceUser } from '@tunedrop/shared/schemas/admin-balances';
import { BALANCE_TEXTS, balanceSearchQuerySchema } from '@tunedrop/shared/schemas/admin-balances';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSearchBalanceUsers } from '../api/admin-balances';
import { BalanceUserCard } from './balance-user-card';

export function UserSearch() {
  const { register, handleSubmit, watch } = useZodForm(balanceSearchQuerySchema, {
    defaultValues: { q: '' },
  });
  const query = watch('q');
  const [results, setResults] = useState<BalanceUser[] | null>(null);
  const search = useSearchBalanceUsers();

  // A blank query does nothing (the button is disabled too); one the server would refuse says so.
  const submit = handleSubmit(
    ({ q }) =>
      search.mutate(q, {
        onSuccess: ({ users }) => {
          setResults(users);
          if (users.length === 0)
            notify.error(BALANCE_TEXTS.noUsers.description, BALANCE_TEXTS.noUsers.title);
        },
        onError: () => notify.error('Failed to search users'),
      }),
    () => {
      if (query.trim()) notify.error('Failed to search users');
    },
  );

  return (
    <section aria-labelledby="single-edit-heading" className="space-y-4">
      <Card className="space-y-4">
        <div>
          <h2 id="single-edit-heading" className="text-lg font-semibold text-white">
            Update one user
          </h2>
          <p className="text-sm text-zinc-400">Search by email or artist name.</p>
        </div>
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row">
          <Input
            type="search"
            aria-label="Search users by email or artist name"
            placeholder="Email or artist name"
            {...register('q')}
          />
          <Button type="submit" disabled={query.trim() === '' || search.isPending} className="shrink-0">
            {search.isPending ? (
              <Spinner className="size-4" label="Searching" />
            ) : (
              <Search aria-hidden className="size-4" />
            )}
            Search
          </Button>
        </form>
        {results && results.length > 0 ? (
          <p className="text-sm text-zinc-300" role="status">
            {BALANCE_TEXTS.foundUsers(results.length)}
          </p>
        ) : null}
      </Card>
      {results?.map((user) => (
        <BalanceUserCard
          key={user.id}
          user={user}
          onSaved={(saved) =>
            setResults(
              (current) =>
                current?.map((item) => (item.id === saved.id ? { ...item, ...saved } : item)) ?? null,
            )
          }
        />
      ))}
    </section>
  );
}

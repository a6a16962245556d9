/**
 * The dashboard's account switcher (record 202): shown when the person belongs to another account's team.
 * A native select (keyboard and screen reader friendly, fits 390 px); choosing reloads the dashboard.
 */
import { ROLE_LABELS } from '@tunedrop/shared/schemas/team-roles';
import { Select } from '../../../components/ui/input';
import { useAccounts, useSwitchAccount } from '../api/team';

export function AccountSwitcher({ idSuffix }: { idSuffix: string }) {
  const accounts = useAccounts();
  const switchAccount = useSwitchAccount();
  const items = accounts.data?.items ?? [];
  if (items.length < 2) return null;
  const current = items.find((item) => item.isCurrent) ?? items[0];
  const id = `account-switcher-${idSuffix}`;
  return (
    <div className="space-y-1 px-2">
      <label htmlFor={id} className="block text-xs font-medium uppercase tracking-wide text-zinc-400">
        Account
      </label>
      <Select
        id={id}
        value={current?.id ?? ''}
        disabled={switchAccount.isPending}
        onChange={(event) => switchAccount.mutate(event.target.value)}
      >
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name} ({ROLE_LABELS[item.role]})
          </option>
        ))}
      </Select>
    </div>
  );
}

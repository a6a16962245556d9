/**
 * /admin/contracts (admin only, issue 39, record 285): the label contracts, who pays whom on which
 * releases and from when, with a form to add one or edit it.
 */
import { CONTRACT_TEXTS } from '@tunedrop/shared/schemas/contracts';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useContract, useContracts } from '../api/contracts';
import { AdvancesCard } from '../components/advances-card';
import { ContractForm } from '../components/contract-form';

export default function AdminContractsPage() {
  usePageTitle(CONTRACT_TEXTS.title);
  const contracts = useContracts();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">{CONTRACT_TEXTS.title}</h1>
          <p className="mt-1 max-w-2xl text-sm text-zinc-400">{CONTRACT_TEXTS.intro}</p>
        </div>
        {editing === null ? (
          <Button type="button" onClick={() => setEditing('new')}>
            <Plus aria-hidden className="size-4" /> New contract
          </Button>
        ) : null}
      </header>
      {editing !== null ? (
        <Card className="p-5">
          <h2 className="mb-4 text-xl font-semibold text-white">
            {editing === 'new' ? 'New contract' : 'Edit contract'}
          </h2>
          {editing === 'new' ? (
            <ContractForm contract={null} onDone={() => setEditing(null)} />
          ) : (
            <EditContract id={editing} onDone={() => setEditing(null)} />
          )}
        </Card>
      ) : null}
      {contracts.isPending ? (
        <PageLoader />
      ) : contracts.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(contracts.error, 'Failed to load the contracts.')}
        </p>
      ) : contracts.data.length === 0 ? (
        <p className="text-zinc-400">No contracts yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Contracts">
          {contracts.data.map((contract) => (
            <li key={contract.id}>
              <Card
                className="flex flex-wrap items-center justify-between gap-3 p-4"
                data-testid="contract-row"
              >
                <div>
                  <p className="font-semibold text-white">{contract.name}</p>
                  <p className="text-sm text-zinc-300">
                    {contract.label.artistName} ({contract.label.email}) pays {contract.payee.artistName} (
                    {contract.payee.email})
                  </p>
                  <p className="text-xs text-zinc-400">
                    From {contract.startsOn}
                    {contract.endsOn ? ` to ${contract.endsOn}` : ''} · {contract.releases}{' '}
                    {contract.releases === 1 ? 'release' : 'releases'} · {contract.terms}{' '}
                    {contract.terms === 1 ? 'term' : 'terms'}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => setEditing(contract.id)}
                  aria-label={`Edit ${contract.name}`}
                >
                  Edit
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EditContract({ id, onDone }: { id: string; onDone: () => void }) {
  const contract = useContract(id);
  if (contract.isPending) return <PageLoader />;
  if (contract.isError) {
    return (
      <p role="alert" className="text-zinc-300">
        {errorMessage(contract.error, 'Failed to load the contract.')}
      </p>
    );
  }
  return (
    <div className="space-y-6">
      <ContractForm key={contract.data.id} contract={contract.data} onDone={onDone} />
      <AdvancesCard contractId={contract.data.id} />
    </div>
  );
}

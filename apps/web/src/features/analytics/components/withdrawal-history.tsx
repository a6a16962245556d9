/** Every withdrawal request with its outcome, and the CSV export. */
import type { AnalyticsReport } from '@tunedrop/shared/schemas/wallet';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { formatCents, formatDate } from '../../../lib/format';
import { downloadWithdrawalsCsv } from '../api/analytics';

export function WithdrawalHistory({ withdrawals }: { withdrawals: AnalyticsReport['withdrawals'] }) {
  const [isExporting, setIsExporting] = useState(false);
  const exportCsv = async () => {
    setIsExporting(true);
    try {
      await downloadWithdrawalsCsv();
    } catch {
      notify.error('Failed to export withdrawals');
    } finally {
      setIsExporting(false);
    }
  };
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Withdrawal history</h2>
          <p className="mt-1 text-sm text-zinc-400">Every request and its outcome</p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={exportCsv}
          disabled={isExporting || withdrawals.length === 0}
        >
          <Download aria-hidden className="size-4" /> {isExporting ? 'Exporting...' : 'Export CSV'}
        </Button>
      </div>
      {withdrawals.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-400">No withdrawals yet.</p>
      ) : (
        <div className="mt-4 max-h-96 overflow-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="text-zinc-400">
              <tr>
                <th scope="col" className="py-2 font-medium">
                  Requested
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Amount
                </th>
                <th scope="col" className="py-2 font-medium">
                  Method
                </th>
                <th scope="col" className="py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 font-medium">
                  Processed
                </th>
              </tr>
            </thead>
            <tbody>
              {withdrawals.map((item) => (
                <tr key={item.id} className="border-t border-ink-800 align-top">
                  <td className="py-2 text-zinc-200">{formatDate(item.requestedAt)}</td>
                  <td className="py-2 text-right text-white tabular-nums">{formatCents(item.amountCents)}</td>
                  <td className="py-2 text-zinc-300">
                    {item.paymentMethod === 'bank' ? 'Bank account' : 'PayPal'}
                  </td>
                  <td className="py-2">
                    <StatusBadge kind="withdrawal" status={item.status} />
                    {item.rejectionReason ? (
                      <p className="mt-1 text-xs text-zinc-400">Reason: {item.rejectionReason}</p>
                    ) : null}
                  </td>
                  <td className="py-2 text-zinc-300">
                    {item.processedAt ? formatDate(item.processedAt) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** Admin Settings, Tax: every self-billing invoice issued for a payee (the non-US regime), with its PDF. */
import { formatCents, formatDate } from '../../../lib/format';
import { useAdminInvoices } from '../api/admin-tax';

export function AdminInvoices() {
  const invoices = useAdminInvoices();
  const rows = invoices.data?.invoices ?? [];
  return (
    <details data-testid="admin-invoices">
      <summary className="cursor-pointer text-sm text-zinc-200">
        Self-billing invoices: {invoices.isPending ? '…' : rows.length}
      </summary>
      {invoices.isError ? (
        <p role="alert" className="mt-2 text-sm text-zinc-300">
          Failed to load the self-billing invoices.
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-400">
          None yet. Under the non-US regime each payout paid gets its payee's invoice.
        </p>
      ) : (
        <table className="mt-2 w-full text-left text-xs text-zinc-300" aria-label="Self-billing invoices">
          <thead>
            <tr>
              <th>Number</th>
              <th>Payee</th>
              <th>For</th>
              <th>Date</th>
              <th className="text-right">Net</th>
              <th className="text-right">VAT/GST</th>
              <th className="text-right">Total</th>
              <th>PDF</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((invoice) => (
              <tr key={invoice.id}>
                <td>{invoice.numberText}</td>
                <td>{invoice.email}</td>
                <td>{invoice.referenceType}</td>
                <td>{formatDate(invoice.createdAt)}</td>
                <td className="text-right tabular-nums">{formatCents(invoice.netCents)}</td>
                <td className="text-right tabular-nums">
                  {formatCents(invoice.vatCents)} ({invoice.vatRatePercent}%)
                </td>
                <td className="text-right tabular-nums">{formatCents(invoice.totalCents)}</td>
                <td>
                  <a className="underline" href={`/api/admin/tax/invoices/${invoice.id}/pdf`}>
                    {`PDF ${invoice.numberText}`}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

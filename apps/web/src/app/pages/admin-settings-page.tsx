/** /admin/settings (admin only): the delivery settings (codes, DDEX sender), the support time zone, the payee minimum, the statement issuer, the fees and the lapsed-account policy. */
import DeliverySettingsPage from '../../features/delivery/routes/admin-settings-page';
import { FeeSettingsCard } from '../../features/finance';
import { LapsePolicyCard } from '../../features/lapse-policy';
import { StatementIssuerCard } from '../../features/royalty-imports';
import { SupportSettingsCard } from '../../features/support';
import { PayeeSettingsCard } from '../../features/wallet';

export default function AdminSettingsPage() {
  return (
    <div className="space-y-6">
      <DeliverySettingsPage />
      <SupportSettingsCard />
      <PayeeSettingsCard />
      <StatementIssuerCard />
      <FeeSettingsCard />
      <LapsePolicyCard />
    </div>
  );
}

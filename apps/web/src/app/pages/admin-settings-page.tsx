/** /admin/settings (admin only): the brand, the statement issuer and the plans (record 203), the delivery settings (codes, DDEX sender), the support time zone, the payee minimum, the fees, the lapsed-account policy, payouts and tax. */
import { BrandCard, PlansCard } from '../../features/brand';
import DeliverySettingsPage from '../../features/delivery/routes/admin-settings-page';
import { FeeSettingsCard } from '../../features/finance';
import { LapsePolicyCard } from '../../features/lapse-policy';
import { AdminPayoutSettingsCard } from '../../features/payouts';
import { StatementIssuerCard } from '../../features/royalty-imports';
import { SupportSettingsCard } from '../../features/support';
import { AdminTaxCard } from '../../features/tax';
import { PayeeSettingsCard } from '../../features/wallet';

export default function AdminSettingsPage() {
  return (
    <div className="space-y-6">
      <DeliverySettingsPage />
      <BrandCard />
      <StatementIssuerCard />
      <PlansCard />
      <SupportSettingsCard />
      <PayeeSettingsCard />
      <FeeSettingsCard />
      <LapsePolicyCard />
      <AdminPayoutSettingsCard />
      <AdminTaxCard />
    </div>
  );
}

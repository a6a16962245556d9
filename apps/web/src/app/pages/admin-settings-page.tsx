/** /admin/settings (admin only): the delivery settings (codes, DDEX sender) and the support time zone. */
import DeliverySettingsPage from '../../features/delivery/routes/admin-settings-page';
import { SupportSettingsCard } from '../../features/support';
import { PayeeSettingsCard } from '../../features/wallet';

export default function AdminSettingsPage() {
  return (
    <div className="space-y-6">
      <DeliverySettingsPage />
      <SupportSettingsCard />
      <PayeeSettingsCard />
    </div>
  );
}

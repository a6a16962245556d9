/** Public entry of the staff notifications feature: the Account page's card for staff. */
export { StaffNotificationsCard } from './components/staff-notifications-card';

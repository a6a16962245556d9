/** Staff notifications (record 179): what other modules call where an event happens. */
export {
  notifyAcknowledgement,
  notifyDeliveryFailed,
  notifyReleaseSubmitted,
  notifyReleaseUpdateSubmitted,
  notifyTakedownRequested,
  notifyWithdrawalRequested,
} from './events';

/** Staff notifications (record 179): what other modules call where an event happens. */
export {
  type AckOutcome,
  notifyAcknowledgement,
  notifyDeliveryFailed,
  notifyReleaseSubmitted,
  notifyReleaseUpdateSubmitted,
  notifyTakedownRequested,
  notifyWithdrawalRequested,
} from './events';

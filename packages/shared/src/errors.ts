/**
 * The closed set of API error codes (issue 40, record 293): every error answer's `code` is one of these,
 * always with the HTTP status given here. The server's AppError takes only these codes, with this status
 * (a typo or another status does not compile); the v1 OpenAPI document lists them; the web switches on
 * them. Add a code here, in its status group, before throwing it.
 */
export const ERROR_CODES = {
  // 400
  http_error: 400,
  invalid_webhook_signature: 400,
  webhook_not_configured: 400,
  webhook_signature: 400,
  webhook_unreadable: 400,
  // 401
  invalid_api_key: 401,
  unauthorized: 401,
  // 402
  subscription_required: 402,
  // 403
  account_role: 403,
  bad_origin: 403,
  banned: 403,
  cannot_ban_staff: 403,
  forbidden: 403,
  forbidden_scope: 403,
  invalid_signature: 403,
  invitation_other_account: 403,
  invitation_unverified: 403,
  link_expired: 403,
  not_a_member: 403,
  payout_link_not_yours: 403,
  pro_feature: 403,
  pro_required: 403,
  profile_read_only: 403,
  // 404
  not_found: 404,
  sandbox_disabled: 404,
  // 409
  already_imported: 409,
  already_invited: 409,
  already_member: 409,
  already_posted: 409,
  already_posting: 409,
  amounts_too_large: 409,
  asset_taken: 409,
  channel_limit: 409,
  claim_not_active: 409,
  claim_not_waiting: 409,
  conflict: 409,
  contract_rate_above_net: 409,
  contract_unmatched: 409,
  customer_not_found: 409,
  delivery_state: 409,
  draft_submitted: 409,
  email_taken: 409,
  endpoint_disabled: 409,
  export_files_missing: 409,
  founder_stays: 409,
  idempotency_in_progress: 409,
  in_payout_run: 409,
  invitation_accepted: 409,
  invitation_withdrawn: 409,
  isrc_taken: 409,
  not_acting_account: 409,
  not_includable: 409,
  not_pending: 409,
  not_postable: 409,
  not_ready: 409,
  not_retryable: 409,
  not_sent: 409,
  nothing_to_include: 409,
  nothing_to_pay: 409,
  open_warnings: 409,
  owner_cannot_leave: 409,
  payout_hold: 409,
  payout_link_expired: 409,
  payout_link_used: 409,
  payout_nothing_pending: 409,
  payout_not_retryable: 409,
  payout_run_sent: 409,
  pending_not_editable: 409,
  posted_twice: 409,
  provider_off: 409,
  release_at_stores: 409,
  release_has_split_history: 409,
  release_in_contract: 409,
  release_not_editable: 409,
  release_not_resubmittable: 409,
  release_not_updatable: 409,
  release_state: 409,
  release_state_changed: 409,
  removal_not_confirmed: 409,
  store_not_selected: 409,
  store_takedown_decided: 409,
  store_takedown_exists: 409,
  stripe_onboarding_incomplete: 409,
  submission_in_progress: 409,
  suspense_resolved: 409,
  takedown_not_allowed: 409,
  takedown_requested: 409,
  target_holds_releases: 409,
  target_name_taken: 409,
  upc_taken: 409,
  update_decided: 409,
  update_in_review: 409,
  user_state_changed: 409,
  // 410
  invitation_expired: 410,
  // 413
  payload_too_large: 413,
  // 422
  admin_role_not_here: 422,
  amount_too_low: 422,
  artist_profile_unknown: 422,
  balance_below_minimum: 422,
  ban_reason_required: 422,
  bank_fields_required: 422,
  cannot_ban_self: 422,
  confirmation_reference: 422,
  confirmation_status: 422,
  confirmation_unreadable: 422,
  duplicate_payee: 422,
  duplicate_users: 422,
  empty_file: 422,
  expense_bound: 422,
  folder_invalid: 422,
  folder_missing: 422,
  idempotency_mismatch: 422,
  insufficient_balance: 422,
  invalid_amount: 422,
  invalid_description: 422,
  invalid_percent: 422,
  invalid_values: 422,
  member_limit: 422,
  own_account: 422,
  own_address: 422,
  own_release: 422,
  owner_listed: 422,
  owner_unknown: 422,
  payment_info_required: 422,
  payment_method_required: 422,
  paypal_email_invalid: 422,
  provider_not_configured: 422,
  provider_unavailable: 422,
  rate_not_needed: 422,
  reason_required: 422,
  rejection_reason_required: 422,
  sum_not_100: 422,
  target_unreachable: 422,
  track_not_in_release: 422,
  transfer_not_member: 422,
  transfer_unverified: 422,
  unreadable_file: 422,
  unsupported_format: 422,
  validation_error: 422,
  wise_details_invalid: 422,
  // 429
  invitation_limit: 429,
  rate_limited: 429,
  too_many_streams: 429,
  // 500
  database_error: 500,
  internal_error: 500,
  // 502
  payment_provider_error: 502,
  spotify_credentials: 502,
  spotify_unavailable: 502,
  // 503
  database_unavailable: 503,
  payments_not_configured: 503,
  spotify_busy: 503,
  spotify_not_configured: 503,
  statement_busy: 503,
  statement_timeout: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus<C extends ErrorCode = ErrorCode> = (typeof ERROR_CODES)[C];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The JSON error shape every API answer uses, shared so the web client can read it. */

export type ApiErrorBody = {
  error: { code: string; message: string; fields?: Record<string, string> };
};

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    typeof (value as { error: unknown }).error === 'object' &&
    (value as { error: { message?: unknown } }).error !== null &&
    typeof (value as { error: { message?: unknown } }).error.message === 'string'
  );
}

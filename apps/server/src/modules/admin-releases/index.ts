/**
 * Admin release review (record 061): the review list, decisions one by one and in bulk, and staff file
 * access. Its routes are wired by app.ts; what it offers others is the signed file URL of staff file access
 * (record 063).
 */
export { signFileUrl } from './files';

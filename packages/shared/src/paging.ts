/** The one page shape of the offset-paged lists (admin users, withdrawals, releases, messages). */
export type PageInfo = {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Rows matching the current filter, over every page. */
  total: number;
};

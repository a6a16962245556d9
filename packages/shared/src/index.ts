export * from './access';
export type * from './api/me';
export * from './constants';
export * from './errors';
export * from './guards';
export * from './money';
export type * from './paging';

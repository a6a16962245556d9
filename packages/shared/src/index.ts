export * from './access';
export * from './constants';
export * from './errors';
export * from './money';

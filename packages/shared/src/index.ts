export * from './constants';
export * from './errors';
export * from './money';
export * from './access';

export * from './keys';
export * from './rows';
export * from './receipt-repository';
export * from './app-data';
export * from './report-index';
export * from './dashboard';
export * from './report-totals';
export * from './data-changes';

export * from './parse-amount';
export * from './parse-date';
export * from './currency';
export * from './country';
export * from './merchant-name';
export * from './total-evidence';
export * from './chain-evidence';

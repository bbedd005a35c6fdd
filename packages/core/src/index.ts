export * from './errors';
export * from './table-store';
export * from './entities';
export * from './analysis';
export * from './ports';
export * from './api';
export * from './repository';
export * from './use-cases';

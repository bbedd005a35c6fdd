export * from './json-logger';

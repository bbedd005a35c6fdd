export * from './keys';
export * from './rows';
export * from './receipt-repository';
export * from './data-changes';
export * from './write-intents';
export * from './correction-rules';

export * from './log-notifier';

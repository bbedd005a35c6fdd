export { FCM_BATCH_SIZE, FcmNotifier, type FcmNotifierOptions, type MulticastSender } from './fcm-notifier';

import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { Dismiss20Regular } from '@fluentui/react-icons/svg/dismiss';
import type { AppMessage } from '../stores/app-state';

/** How long good news stays: long enough to read, gone before it is in the way. */
export const MESSAGE_CLOSE_MS = 6_000;

const useStyles = makeStyles({
  dock: {
    position: 'fixed',
    insetInline: tokens.spacingHorizontalS,
    bottom: tokens.spacingVerticalS,
    zIndex: 20,
  },
  body: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  // Room under the page for the bar, so it never hides the last of the content.
  room: { height: '64px' },
  link: {
    color: 'inherit',
    fontWeight: tokens.fontWeightSemibold,
    marginInlineStart: tokens.spacingHorizontalS,
  },
});

export interface AppMessageBarProps {
  message: AppMessage | null;
  onDismiss: () => void;
}

/**
 * The message bar of spec §4: fixed at the bottom, single line, dismissible. Success and information
 * close by themselves after MESSAGE_CLOSE_MS; warnings and errors stay until dismissed. The page gets
 * room below its content for the bar, so nothing stays hidden under it.
 */
export function AppMessageBar({ message, onDismiss }: AppMessageBarProps) {
  const styles = useStyles();
  const closesItself = message?.intent === 'success' || message?.intent === 'info';
  useEffect(() => {
    if (!closesItself) return;
    const timer = window.setTimeout(onDismiss, MESSAGE_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [message, closesItself, onDismiss]);
  if (!message) return null;
  return (
    <>
      <div className={styles.room} aria-hidden />
      <div className={styles.dock}>
        <MessageBar
          intent={message.intent}
          layout="singleline"
          role={message.intent === 'error' ? 'alert' : 'status'}
        >
          <MessageBarBody
            className={styles.body}
            title={[message.title, message.detail].filter(Boolean).join(' ')}
          >
            <MessageBarTitle>{message.title}</MessageBarTitle>
            {message.detail}
            {message.link && (
              <RouterLink className={styles.link} to={message.link.to} onClick={onDismiss}>
                {message.link.label}
              </RouterLink>
            )}
          </MessageBarBody>
          <MessageBarActions
            containerAction={
              <Button
                appearance="transparent"
                aria-label="Dismiss message"
                icon={<Dismiss20Regular />}
                onClick={onDismiss}
              />
            }
          />
        </MessageBar>
      </div>
    </>
  );
}

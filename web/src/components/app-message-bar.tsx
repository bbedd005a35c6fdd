import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Dismiss20Regular } from '@fluentui/react-icons/svg/dismiss';
import type { AppMessage } from '../stores/app-state';

const useStyles = makeStyles({
  dock: {
    position: 'fixed',
    insetInline: tokens.spacingHorizontalS,
    bottom: tokens.spacingVerticalS,
    zIndex: 20,
  },
  body: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
});

export interface AppMessageBarProps {
  message: AppMessage | null;
  onDismiss: () => void;
}

/** The message bar of spec §4: fixed at the bottom, single line, dismissible. */
export function AppMessageBar({ message, onDismiss }: AppMessageBarProps) {
  const styles = useStyles();
  if (!message) return null;
  return (
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
  );
}

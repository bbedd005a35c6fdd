import type { ReactNode } from 'react';
import { Spinner, Title2, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  page: {
    display: 'grid',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalM} 96px`,
    maxWidth: '1400px',
    marginInline: 'auto',
    boxSizing: 'border-box',
    width: '100%',
    minWidth: 0,
  },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  title: { flexGrow: 1, margin: 0 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export interface PageProps {
  title: string;
  /** Buttons beside the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A screen's frame: its heading, optional actions, and its content. */
export function Page({ title, actions, children }: PageProps) {
  const styles = useStyles();
  return (
    <main className={styles.page}>
      <div className={styles.header}>
        <Title2 as="h1" className={styles.title}>
          {title}
        </Title2>
        {actions}
      </div>
      {children}
    </main>
  );
}

/** A loading indicator for a whole screen's data. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return <Spinner label={label} />;
}

/** A failed load, in words, in the place the content would be. */
export function PageError({ message }: { message: string }) {
  const styles = useStyles();
  return (
    <p role="alert" className={styles.error}>
      {message}
    </p>
  );
}

import type { ReactNode } from 'react';
import { Spinner, Subtitle1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage } from '../lib/api-client';

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
  section: { display: 'grid', gap: tokens.spacingVerticalS, minWidth: 0 },
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

/** The state of a screen's data query, as far as {@link PageDataStatus} needs it. */
export interface PageQueryState {
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
}

export interface PageDataStatusProps {
  query: PageQueryState;
  /** Names what is loading, e.g. 'Loading the brand'. */
  loadingLabel: string;
  /** Whether the loaded data holds what the screen shows; default true. */
  found?: boolean;
  /** Shown once the data has loaded without what the screen shows. */
  notFound?: ReactNode;
}

/** What a screen shows in place of its content while its data loads, when it fails, or when it lacks the item asked for. */
export function PageDataStatus({ query, loadingLabel, found = true, notFound }: PageDataStatusProps) {
  if (query.isPending) return <PageLoading label={loadingLabel} />;
  if (query.isError) return <PageError message={errorMessage(query.error)} />;
  if (query.isSuccess && !found) return notFound;
  return null;
}

/** A titled part of a screen, named by its heading for screen readers. */
export function PageSection({ id, title, children }: { id: string; title: ReactNode; children?: ReactNode }) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {title}
      </Subtitle1>
      {children}
    </section>
  );
}

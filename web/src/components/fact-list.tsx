import type { ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0 },
  anywhere: { overflowWrap: 'anywhere' },
});

export interface FactListProps {
  /** Term and value pairs, in order; terms must be unique. */
  facts: [string, ReactNode][];
  /** Let long values (addresses, product descriptions) break anywhere rather than widen the page. */
  wrapAnywhere?: boolean;
}

/** A two-column list of facts about one thing: terms on the left, values on the right. */
export function FactList({ facts, wrapAnywhere }: FactListProps) {
  const styles = useStyles();
  const valueClass = mergeClasses(styles.value, wrapAnywhere && styles.anywhere);
  return (
    <dl className={styles.list}>
      {facts.map(([term, value]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt className={styles.term}>{term}</dt>
          <dd className={valueClass}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

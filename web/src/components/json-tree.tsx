import type { ReactNode } from 'react';
import { Tree, TreeItem, TreeItemLayout, makeStyles, tokens } from '@fluentui/react-components';

/** Strings longer than this are shortened in the tree (spec §9). */
export const JSON_STRING_LIMIT = 30;

const useStyles = makeStyles({
  key: { fontWeight: tokens.fontWeightSemibold },
  string: { color: tokens.colorPaletteGreenForeground1 },
  number: { color: tokens.colorPaletteBlueForeground2 },
  other: { color: tokens.colorPaletteMarigoldForeground1 },
  // Long keys and values wrap inside the modal instead of running off its edge.
  main: { whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: 0 },
  layout: { height: 'auto', minHeight: '32px', paddingBlock: tokens.spacingVerticalXXS },
});

/** A string as the tree shows it: at most 30 characters, then '…'. */
export function shortenString(value: string, limit = JSON_STRING_LIMIT): string {
  return value.length > limit ? `${value.slice(0, limit)}…` : value;
}

function Value({ value }: { value: unknown }) {
  const styles = useStyles();
  if (typeof value === 'string') {
    const shown = shortenString(value);
    return (
      <span className={styles.string} title={shown === value ? undefined : value}>
        "{shown}"
      </span>
    );
  }
  if (typeof value === 'number') return <span className={styles.number}>{String(value)}</span>;
  return <span className={styles.other}>{value === undefined ? 'undefined' : JSON.stringify(value)}</span>;
}

function Node({ name, value, path }: { name: string; value: unknown; path: string }): ReactNode {
  const styles = useStyles();
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    return (
      <TreeItem itemType="branch" value={path}>
        <TreeItemLayout className={styles.layout} main={{ className: styles.main }}>
          <span className={styles.key}>{name}</span> {summary}
        </TreeItemLayout>
        <Tree>
          {entries.map(([key, child]) => (
            <Node key={key} name={key} value={child} path={`${path}.${key}`} />
          ))}
        </Tree>
      </TreeItem>
    );
  }
  return (
    <TreeItem itemType="leaf" value={path}>
      <TreeItemLayout className={styles.layout} main={{ className: styles.main }}>
        <span className={styles.key}>{name}</span>: <Value value={value} />
      </TreeItemLayout>
    </TreeItem>
  );
}

export interface JsonTreeProps {
  value: unknown;
  ariaLabel: string;
  /** Name of the root node. */
  rootName?: string;
}

/** An expandable tree of any JSON value; the root starts open. */
export function JsonTree({ value, ariaLabel, rootName = 'result' }: JsonTreeProps) {
  return (
    <Tree aria-label={ariaLabel} defaultOpenItems={[rootName]}>
      <Node name={rootName} value={value} path={rootName} />
    </Tree>
  );
}

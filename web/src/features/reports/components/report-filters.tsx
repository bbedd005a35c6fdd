import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, Field, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons/svg/arrow-download';
import { Search20Regular } from '@fluentui/react-icons/svg/search';
import type { ExportTable } from '@receipts/core/contract/reports';
import { PageError } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useReport } from '../../../lib/reports';
import { useAppState } from '../../../stores/app-state';
import { downloadCsv } from '../api/export-csv';
import { useReportFilters } from '../hooks/use-report-url';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

const useStyles = makeStyles({
  // A grid, not a wrapping row: each control keeps its own cell, so none covers its neighbour.
  bar: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalM,
    alignItems: 'end',
  },
  search: { gridColumn: '1 / -1' },
  control: { minWidth: 0, width: '100%' },
  buttons: { gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

/** Categories offered in the filter; a person adds their own with "Another category…". */
export const CATEGORIES = [
  'grocery',
  'restaurant',
  'retail',
  'fuel',
  'pharmacy',
  'transport',
  'supplies',
  'entertainment',
  'utilities',
  'other',
] as const;

/** Where the categories a person typed are kept, so the list offers them next time. */
const OWN_CATEGORIES_KEY = 'report_categories';
/** The Category list's entry that opens a box for a category of one's own. */
const ANOTHER = '\u0000another';

function ownCategories(): string[] {
  try {
    const kept: unknown = JSON.parse(window.localStorage.getItem(OWN_CATEGORIES_KEY) ?? '[]');
    return Array.isArray(kept) ? kept.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

function keepOwnCategory(category: string): void {
  const known = new Set<string>([...CATEGORIES, ...ownCategories()]);
  if (known.has(category)) return;
  window.localStorage.setItem(OWN_CATEGORIES_KEY, JSON.stringify([...ownCategories(), category].slice(-20)));
}

const label = (category: string) => category.charAt(0).toUpperCase() + category.slice(1);

/** The currencies the person's receipts are in (the totals of the unfiltered receipts table). */
function useOwnCurrencies(current: string | undefined): string[] {
  const all = useReport('receipts', { pageSize: '1' });
  const codes = new Set(Object.keys(all.data?.totals ?? {}).filter(Boolean));
  if (current) codes.add(current);
  return [...codes].sort();
}

/** Category: the fixed list and the person's own, or a new one typed in. */
function CategoryFilter({ value, onChange }: { value: string | undefined; onChange: (v?: string) => void }) {
  const styles = useStyles();
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const options = [
    ...new Set<string>([...CATEGORIES, ...ownCategories(), ...(value ? [value.toLowerCase()] : [])]),
  ];
  if (typing) {
    const done = () => {
      const category = typed.trim().toLowerCase();
      if (category) keepOwnCategory(category);
      onChange(category || undefined);
      setTyping(false);
    };
    return (
      <Field label="Category" hint="Press Enter to filter">
        <Input
          className={styles.control}
          autoFocus
          value={typed}
          onChange={(_, d) => setTyped(d.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') done();
            if (event.key === 'Escape') setTyping(false);
          }}
          onBlur={done}
        />
      </Field>
    );
  }
  return (
    <Field label="Category">
      <Select
        className={styles.control}
        value={value?.toLowerCase() ?? ''}
        onChange={(_, d) => {
          if (d.value === ANOTHER) {
            setTyped('');
            setTyping(true);
          } else onChange(d.value || undefined);
        }}
      >
        <option value="">All categories</option>
        {options.map((category) => (
          <option key={category} value={category}>
            {label(category)}
          </option>
        ))}
        <option value={ANOTHER}>Another category…</option>
      </Select>
    </Field>
  );
}

/**
 * The Reports filter bar: a search box (merchant, item description or brand; runs as you type after a
 * short pause), a date range, currency and category, and the CSV downloads of what the filter shows.
 * Everything lives in the URL, so a filtered report can be bookmarked.
 */
export function ReportFilters() {
  const styles = useStyles();
  const { userId } = useAppState();
  const { filters, setFilters } = useReportFilters();
  const [text, setText] = useState(filters.q ?? '');
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<ExportTable | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const currencies = useOwnCurrencies(filters.currency);

  // The header's search icon links to #search: put the cursor in the box.
  useEffect(() => {
    if (location.hash === '#search') searchRef.current?.focus();
  }, [location.hash]);

  // Another URL (back, a bookmark) brings its own search text. The URL catching up with a search
  // this box sent is not another URL: the person may have typed on while it was on its way.
  const urlQ = filters.q ?? '';
  const sent = useRef(urlQ);
  useEffect(() => {
    if (urlQ !== sent.current) {
      sent.current = urlQ;
      setText(urlQ);
    }
  }, [urlQ]);

  useEffect(() => {
    const q = text.trim();
    if (q === urlQ) return;
    const timer = setTimeout(() => {
      sent.current = q;
      setFilters({ q: q || undefined });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, urlQ, setFilters]);

  const download = async (table: ExportTable) => {
    if (!userId) return;
    setExportError(null);
    setExporting(table);
    try {
      await downloadCsv(userId, table, filters);
    } catch (error) {
      setExportError(errorMessage(error));
    } finally {
      setExporting(null);
    }
  };

  return (
    <section aria-label="Filter" className={styles.bar}>
      <Field label="Search" className={styles.search}>
        <Input
          className={styles.control}
          id="search"
          ref={searchRef}
          type="search"
          contentBefore={<Search20Regular />}
          placeholder="Merchant, item or brand"
          value={text}
          onChange={(_, data) => setText(data.value)}
        />
      </Field>
      <Field label="From">
        <Input
          className={styles.control}
          type="date"
          value={filters.from ?? ''}
          onChange={(_, d) => setFilters({ from: d.value || undefined })}
        />
      </Field>
      <Field label="To">
        <Input
          className={styles.control}
          type="date"
          value={filters.to ?? ''}
          onChange={(_, d) => setFilters({ to: d.value || undefined })}
        />
      </Field>
      <Field label="Currency">
        <Select
          className={styles.control}
          value={filters.currency ?? ''}
          onChange={(_, d) => setFilters({ currency: d.value || undefined })}
        >
          <option value="">All currencies</option>
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
      </Field>
      <CategoryFilter value={filters.category} onChange={(category) => setFilters({ category })} />
      <div className={styles.buttons}>
        <Button
          onClick={() => {
            sent.current = '';
            setText('');
            setFilters({
              q: undefined,
              from: undefined,
              to: undefined,
              currency: undefined,
              category: undefined,
              merchant: undefined,
              brand: undefined,
              corporation: undefined,
            });
          }}
          disabled={Object.keys(filters).length === 0}
        >
          Clear filter
        </Button>
        <Button
          icon={<ArrowDownload20Regular />}
          disabled={exporting !== null}
          onClick={() => void download('receipts')}
        >
          Receipts CSV
        </Button>
        <Button
          icon={<ArrowDownload20Regular />}
          disabled={exporting !== null}
          onClick={() => void download('items')}
        >
          Items CSV
        </Button>
      </div>
      {exportError && <PageError message={exportError} />}
    </section>
  );
}

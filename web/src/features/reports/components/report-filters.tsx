import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons/svg/arrow-download';
import { Search20Regular } from '@fluentui/react-icons/svg/search';
import type { ExportTable } from '@receipts/core/report-api';
import { PageError } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useAppState } from '../../../stores/app-state';
import { downloadCsv } from '../api/export-csv';
import { useReportFilters } from '../hooks/use-report-url';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  search: { flexGrow: 1, minWidth: '220px' },
  small: { width: '150px' },
  code: { width: '90px' },
});

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

  // The header's search icon links to #search: put the cursor in the box.
  useEffect(() => {
    if (location.hash === '#search') searchRef.current?.focus();
  }, [location.hash]);

  // Another URL (back, a bookmark) brings its own search text.
  const urlQ = filters.q ?? '';
  const typed = useRef(text);
  useEffect(() => {
    if (urlQ !== typed.current.trim()) {
      typed.current = urlQ;
      setText(urlQ);
    }
  }, [urlQ]);

  useEffect(() => {
    if (text.trim() === urlQ) return;
    const timer = setTimeout(() => setFilters({ q: text.trim() || undefined }), SEARCH_DEBOUNCE_MS);
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
          id="search"
          ref={searchRef}
          type="search"
          contentBefore={<Search20Regular />}
          placeholder="Merchant, item or brand"
          value={text}
          onChange={(_, data) => {
            typed.current = data.value;
            setText(data.value);
          }}
        />
      </Field>
      <Field label="From" className={styles.small}>
        <Input
          type="date"
          value={filters.from ?? ''}
          onChange={(_, d) => setFilters({ from: d.value || undefined })}
        />
      </Field>
      <Field label="To" className={styles.small}>
        <Input
          type="date"
          value={filters.to ?? ''}
          onChange={(_, d) => setFilters({ to: d.value || undefined })}
        />
      </Field>
      <Field label="Currency" className={styles.code}>
        <Input
          value={filters.currency ?? ''}
          maxLength={3}
          placeholder="EUR"
          onChange={(_, d) => {
            const code = d.value.trim().toUpperCase();
            if (code.length === 0 || code.length === 3) setFilters({ currency: code || undefined });
          }}
        />
      </Field>
      <Field label="Category" className={styles.small}>
        <Input
          value={filters.category ?? ''}
          placeholder="grocery"
          onChange={(_, d) => setFilters({ category: d.value.trim() || undefined })}
        />
      </Field>
      <Button
        onClick={() => {
          typed.current = '';
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
      {exportError && <PageError message={exportError} />}
    </section>
  );
}

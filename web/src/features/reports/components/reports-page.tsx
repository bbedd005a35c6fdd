import { startTransition, useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Link as RouterLink, Navigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { Page, PageSection } from '../../../components/page';
import { reportQueryOptions, useReport } from '../../../lib/reports';
import { readStoredSession } from '../../../lib/session-storage';
import { useAppState } from '../../../stores/app-state';
import { SCREEN_PAGE, tableQuery } from '../hooks/use-report-url';
import { BrandsTable, CorporationsTable } from './brands-table';
import { ItemsTable } from './items-table';
import { MerchantsTable } from './merchants-table';
import { ReceiptsTable } from './receipts-table';
import { ReportFilters } from './report-filters';

/**
 * The loader of /Reports and /Receipts: asks for the receipts table's page of the URL as soon as the
 * screen's code is there, so the request runs while the screen renders (and the session is restored)
 * rather than after; the table then finds it in the query cache. It returns at once, so nothing waits
 * for the answer, and it runs on entering the screen only: within it, each table asks for itself.
 */
export function receiptsLoader(queryClient: QueryClient) {
  return ({ request }: Pick<LoaderFunctionArgs, 'request'>) => {
    const session = readStoredSession();
    if (session) {
      const { params } = tableQuery('receipts', new URL(request.url).searchParams, SCREEN_PAGE);
      void queryClient.prefetchQuery(reportQueryOptions(session.userId, 'receipts', params));
    }
    return null;
  };
}

/**
 * Reports (spec §2): a filter bar with search and CSV export, then the receipts, merchants, brands,
 * corporations and product items tables stacked. Each table asks the server for its own page, so a
 * large account loads a few rows per table, not its whole history. The four tables under the
 * receipts are drawn (and ask for their pages) once the receipts' page has come: the first rows wait
 * neither for drawing them nor for the server answering them.
 */
export function ReportsPage() {
  const { signedIn } = useAppState();
  const [searchParams] = useSearchParams();
  const receipts = useReport('receipts', tableQuery('receipts', searchParams, SCREEN_PAGE).params);
  const [rest, setRest] = useState(false);
  useEffect(() => {
    if (!receipts.isPending) startTransition(() => setRest(true));
  }, [receipts.isPending]);
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Reports">
      <ReportFilters />
      <PageSection id="receipts-heading" title="Receipts">
        <ReceiptsTable />
        <RouterLink to="/Receipts">All receipts</RouterLink>
      </PageSection>
      {rest && (
        <>
          <PageSection id="merchants-heading" title="Merchants">
            <MerchantsTable />
          </PageSection>
          <PageSection id="brands-heading" title="Brands">
            <BrandsTable />
          </PageSection>
          <PageSection id="corporations-heading" title="Corporations">
            <CorporationsTable />
          </PageSection>
          <PageSection id="items-heading" title="Product items">
            <ItemsTable />
          </PageSection>
        </>
      )}
    </Page>
  );
}

/** /Receipts: the receipts table on its own, with the filter bar. */
export function ReceiptsPage() {
  const { signedIn } = useAppState();
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Receipts">
      <ReportFilters />
      <ReceiptsTable />
    </Page>
  );
}

/** /Corporation?name=: one owning corporation and the brands of it the user bought. */
export function CorporationPage() {
  const { signedIn } = useAppState();
  const [searchParams] = useSearchParams();
  const name = searchParams.get('name') ?? '';
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title={name || 'Corporation'}>
      <PageSection id="corporation-brands-heading" title="Brands">
        {name ? <BrandsTable corporation={name} /> : <p>No corporation was named in the address.</p>}
      </PageSection>
      <RouterLink to="/Reports">Back to reports</RouterLink>
    </Page>
  );
}

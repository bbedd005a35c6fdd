import { Link as RouterLink, Navigate } from 'react-router';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { useAppData } from '../../../lib/app-data';
import { useAppState } from '../../../stores/app-state';
import { BrandsTable } from './brands-table';
import { ItemsTable } from './items-table';
import { ReceiptsTable } from './receipts-table';

function useReportData() {
  return useAppData({ reloadOnEntry: true });
}

/** Reports (spec §2): receipts, brands and product items, stacked; the data is reloaded on entry. */
export function ReportsPage() {
  const { signedIn } = useAppState();
  const data = useReportData();
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Reports">
      <PageDataStatus query={data} loadingLabel="Loading your reports" />
      {data.data && (
        <>
          <PageSection id="receipts-heading" title="Receipts">
            <ReceiptsTable data={data.data} />
            <RouterLink to="/Receipts">All receipts</RouterLink>
          </PageSection>
          <PageSection id="brands-heading" title="Brands">
            <BrandsTable brands={data.data.brands} />
          </PageSection>
          <PageSection id="items-heading" title="Product items">
            <ItemsTable items={data.data.reportProductItems} />
          </PageSection>
        </>
      )}
    </Page>
  );
}

/** /Receipts: the receipts table on its own. */
export function ReceiptsPage() {
  const { signedIn } = useAppState();
  const data = useReportData();
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Receipts">
      <PageDataStatus query={data} loadingLabel="Loading your receipts" />
      {data.data && <ReceiptsTable data={data.data} />}
    </Page>
  );
}

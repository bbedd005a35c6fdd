import { Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { Navigate } from 'react-router';
import { Page, PageError, PageLoading } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useAppData } from '../../../lib/app-data';
import { useAppState } from '../../../stores/app-state';
import { BrandsTable } from './brands-table';
import { ItemsTable } from './items-table';
import { ReceiptsTable } from './receipts-table';

const useStyles = makeStyles({ section: { display: 'grid', gap: tokens.spacingVerticalS, minWidth: 0 } });

function useReportData() {
  return useAppData({ reloadOnEntry: true });
}

/** Reports (spec §2): receipts, brands and product items, stacked; the data is reloaded on entry. */
export function ReportsPage() {
  const styles = useStyles();
  const { signedIn } = useAppState();
  const data = useReportData();
  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Reports">
      {data.isPending && <PageLoading label="Loading your reports" />}
      {data.isError && <PageError message={errorMessage(data.error)} />}
      {data.data && (
        <>
          <section className={styles.section} aria-labelledby="receipts-heading">
            <Subtitle1 as="h2" id="receipts-heading">
              Receipts
            </Subtitle1>
            <ReceiptsTable data={data.data} />
          </section>
          <section className={styles.section} aria-labelledby="brands-heading">
            <Subtitle1 as="h2" id="brands-heading">
              Brands
            </Subtitle1>
            <BrandsTable brands={data.data.brands} />
          </section>
          <section className={styles.section} aria-labelledby="items-heading">
            <Subtitle1 as="h2" id="items-heading">
              Product items
            </Subtitle1>
            <ItemsTable items={data.data.reportProductItems} />
          </section>
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
      {data.isPending && <PageLoading label="Loading your receipts" />}
      {data.isError && <PageError message={errorMessage(data.error)} />}
      {data.data && <ReceiptsTable data={data.data} />}
    </Page>
  );
}

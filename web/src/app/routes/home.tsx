import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { Spinner, Title1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { BuildingShop24Regular } from '@fluentui/react-icons/svg/building-shop';
import { useAppState } from '../../stores/app-state';

export const PRODUCT_TITLE = 'Receipt Tracker';

/** The signed-in dashboard and its charts load only after sign-in, so the first page stays small. */
const Dashboard = lazy(() =>
  import('../../features/dashboard/components/dashboard').then((m) => ({ default: m.Dashboard })),
);

const useStyles = makeStyles({
  hero: {
    display: 'grid',
    justifyItems: 'center',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    textAlign: 'center',
  },
  icon: { fontSize: '96px', color: tokens.colorBrandForeground1, width: '96px', height: '96px' },
});

/**
 * Home (spec §2). Signed out: the product title, a shop icon and a sign-in link. Signed in: the
 * dashboard (issue #12).
 */
export function HomeRoute() {
  const styles = useStyles();
  const { signedIn } = useAppState();
  if (signedIn) {
    return (
      <Suspense fallback={<Spinner label="Loading your figures" style={{ marginTop: 48 }} />}>
        <Dashboard />
      </Suspense>
    );
  }
  return (
    <main className={styles.hero}>
      <BuildingShop24Regular className={styles.icon} aria-hidden />
      <Title1 as="h1">{PRODUCT_TITLE}</Title1>
      <Text>
        <RouterLink to="/Login">Sign in</RouterLink> to scan receipts and see where your money goes.
      </Text>
    </main>
  );
}

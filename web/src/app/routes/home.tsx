import { Link as RouterLink } from 'react-router';
import { Title1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { BuildingShop24Regular } from '@fluentui/react-icons/svg/building-shop';
import { useAppState } from '../../stores/app-state';

export const PRODUCT_TITLE = 'Receipt Tracker';

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

/** Home (spec §2): the product title and a shop icon. */
export function HomeRoute() {
  const styles = useStyles();
  const { signedIn } = useAppState();
  return (
    <main className={styles.hero}>
      <BuildingShop24Regular className={styles.icon} aria-hidden />
      <Title1 as="h1">{PRODUCT_TITLE}</Title1>
      {!signedIn && (
        <Text>
          <RouterLink to="/Login">Sign in</RouterLink> to scan receipts and see where your money goes.
        </Text>
      )}
    </main>
  );
}

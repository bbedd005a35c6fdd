import { TaskListSquareLtr24Regular } from '@fluentui/react-icons/svg/task-list-square-ltr';
import { Link as RouterLink } from 'react-router';
import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { Home24Regular } from '@fluentui/react-icons/svg/home';
import { DocumentBulletList24Regular } from '@fluentui/react-icons/svg/document-bullet-list';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { Storage24Regular } from '@fluentui/react-icons/svg/storage';
import { PersonAccounts24Regular } from '@fluentui/react-icons/svg/person-accounts';
import { Receipt24Regular as ReceiptIcon } from '@fluentui/react-icons/svg/receipt';
import type { ReactNode } from 'react';
import { Page } from '../../components/page';
import { isAdminEmail, useConfig } from '../../config/config-context';
import { useReport } from '../../lib/reports';
import { useAppState } from '../../stores/app-state';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalXS },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    fontSize: tokens.fontSizeBase400,
    backgroundColor: tokens.colorNeutralBackground2,
    ':hover': { backgroundColor: tokens.colorNeutralBackground2Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  version: { marginTop: tokens.spacingVerticalXXL, color: tokens.colorNeutralForeground3 },
});

function MenuLink({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  const styles = useStyles();
  return (
    <li>
      <RouterLink to={to} className={styles.link}>
        {icon}
        {children}
      </RouterLink>
    </li>
  );
}

/**
 * The menu (spec §2): Home always; Reports, Receipts, Upload and Account (my data) when signed in;
 * Storage Tester for the admin.
 */
export function MenuRoute() {
  const styles = useStyles();
  const config = useConfig();
  const { signedIn, userEmail } = useAppState();
  // The data version comes with any report page: this one (one row) is the header's review count,
  // already loaded, so the menu asks for nothing more.
  const data = useReport('receipts', { review: 'needed', pageSize: '1' });
  return (
    <Page title="Menu">
      <nav aria-label="Menu">
        <ul className={styles.list}>
          <MenuLink to="/" icon={<Home24Regular />}>
            Home
          </MenuLink>
          {signedIn && (
            <MenuLink to="/Reports" icon={<DocumentBulletList24Regular />}>
              Reports
            </MenuLink>
          )}
          {signedIn && (
            <MenuLink to="/Receipts" icon={<ReceiptIcon />}>
              Receipts
            </MenuLink>
          )}
          {signedIn && (
            <MenuLink to="/Review" icon={<TaskListSquareLtr24Regular />}>
              Needs review
            </MenuLink>
          )}
          {signedIn && (
            <MenuLink to="/Camera?p=Upload" icon={<ArrowUpload24Regular />}>
              Upload
            </MenuLink>
          )}
          {signedIn && (
            <MenuLink to="/Account" icon={<PersonAccounts24Regular />}>
              Account: my data
            </MenuLink>
          )}
          {signedIn && isAdminEmail(config, userEmail) && (
            <MenuLink to="/StorageTester" icon={<Storage24Regular />}>
              Storage Tester
            </MenuLink>
          )}
        </ul>
      </nav>
      <Caption1 className={styles.version} as="p">
        Data version:{' '}
        {data.data?.version || (signedIn ? (data.isError ? 'unavailable' : 'loading…') : 'not signed in')}
      </Caption1>
    </Page>
  );
}

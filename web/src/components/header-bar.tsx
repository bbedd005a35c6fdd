import { makeStyles, tokens } from '@fluentui/react-components';
import { BuildingShop24Regular } from '@fluentui/react-icons/svg/building-shop';
import { Navigation24Regular } from '@fluentui/react-icons/svg/navigation';
import { PersonAvailable24Regular } from '@fluentui/react-icons/svg/person-available';
import { PersonDelete24Regular } from '@fluentui/react-icons/svg/person-delete';
import { DocumentBulletList24Regular } from '@fluentui/react-icons/svg/document-bullet-list';
import { Camera24Regular } from '@fluentui/react-icons/svg/camera';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { ErrorCircle24Regular } from '@fluentui/react-icons/svg/error-circle';
import { Search24Regular } from '@fluentui/react-icons/svg/search';
import { TaskListSquareLtr24Regular } from '@fluentui/react-icons/svg/task-list-square-ltr';
import { IconLink } from './icon-link';

const useStyles = makeStyles({
  bar: {
    position: 'sticky',
    top: 0,
    zIndex: 10,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    paddingInline: tokens.spacingHorizontalS,
    minHeight: '52px',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    boxShadow: tokens.shadow4,
    // A 360 px phone holds all eight links with both counters: narrower targets (still 40 px), no gaps.
    '@media (max-width: 479px)': { gap: 0, paddingInline: tokens.spacingHorizontalXXS },
  },
  spacer: { flexGrow: 1 },
  // On a phone the Reports screen's own search box is one tap away; the header keeps what fits.
  wideOnly: { '@media (max-width: 479px)': { display: 'none' } },
  blink: {
    animationName: { '0%': { opacity: 1 }, '50%': { opacity: 0.25 }, '100%': { opacity: 1 } },
    animationDuration: '1.2s',
    animationIterationCount: 'infinite',
    '@media (prefers-reduced-motion: reduce)': {
      animationName: 'none',
      outline: `2px solid ${tokens.colorNeutralForegroundOnBrand}`,
    },
  },
  count: { fontSize: tokens.fontSizeBase400 },
});

export interface HeaderBarProps {
  signedIn: boolean;
  /** Set while a new report is ready: the reports icon blinks. */
  newReport: boolean;
  /** Number of scans queued or being analysed; the counter shows when it is above 0. */
  pendingCount: number;
  /** Failed or stuck scans; shown (as a way to the queue) when nothing is in progress. */
  attentionCount?: number;
  /** Receipts whose analysis asked for a check; the review queue shows when it is above 0. */
  reviewCount?: number;
  /** Called when the reports icon is followed (clears the new-report flag). */
  onReportsClick: () => void;
}

/** The header bar of spec §2, with the conditions on each icon. */
export function HeaderBar({
  signedIn,
  newReport,
  pendingCount,
  attentionCount = 0,
  reviewCount = 0,
  onReportsClick,
}: HeaderBarProps) {
  const styles = useStyles();
  return (
    <header className={styles.bar}>
      <nav aria-label="Main" style={{ display: 'contents' }}>
        <IconLink tone="onBrand" to="/" label="Home" icon={<BuildingShop24Regular />} />
        <span className={styles.spacer} />
        {signedIn && pendingCount > 0 && (
          <IconLink
            tone="onBrand"
            to="/ReceiptImages"
            label={`${pendingCount} ${pendingCount === 1 ? 'receipt' : 'receipts'} in progress`}
            icon={<ArrowUpload24Regular />}
          >
            <span className={styles.count} data-testid="pending-count">
              {pendingCount}
            </span>
          </IconLink>
        )}
        {signedIn && pendingCount === 0 && attentionCount > 0 && (
          <IconLink
            tone="onBrand"
            to="/ReceiptImages"
            label={`${attentionCount} ${attentionCount === 1 ? 'scan needs' : 'scans need'} attention`}
            icon={<ErrorCircle24Regular />}
          >
            <span className={styles.count} data-testid="attention-count">
              {attentionCount}
            </span>
          </IconLink>
        )}
        {signedIn && reviewCount > 0 && (
          <IconLink
            tone="onBrand"
            to="/Review"
            label={`${reviewCount} ${reviewCount === 1 ? 'receipt needs' : 'receipts need'} review`}
            icon={<TaskListSquareLtr24Regular />}
          >
            <span className={styles.count} data-testid="review-count">
              {reviewCount}
            </span>
          </IconLink>
        )}
        {signedIn && (
          <IconLink
            tone="onBrand"
            to="/Reports"
            label={newReport ? 'Reports (new report ready)' : 'Reports'}
            icon={<DocumentBulletList24Regular />}
            className={newReport ? styles.blink : undefined}
            onClick={onReportsClick}
          />
        )}
        {signedIn && (
          <IconLink
            tone="onBrand"
            to="/Reports#search"
            label="Search receipts"
            icon={<Search24Regular />}
            className={styles.wideOnly}
          />
        )}
        {signedIn && (
          <IconLink
            tone="onBrand"
            to="/Camera?p=Camera"
            label="Scan a receipt with the camera"
            icon={<Camera24Regular />}
          />
        )}
        <IconLink
          tone="onBrand"
          to="/Login"
          label={signedIn ? 'Account (signed in)' : 'Sign in (signed out)'}
          icon={signedIn ? <PersonAvailable24Regular /> : <PersonDelete24Regular />}
        />
        <IconLink tone="onBrand" to="/Menu" label="Menu" icon={<Navigation24Regular />} />
      </nav>
    </header>
  );
}

import { isRouteErrorResponse, useRouteError } from 'react-router';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Page } from '../../components/page';

/*
 * A plain button in the colours of Fluent's primary button: this screen is part of the first page
 * (it must show even when a screen's chunk cannot be fetched), and Fluent's Button would add its
 * styles to that page for a screen that is rarely seen.
 */
const useStyles = makeStyles({
  reload: {
    justifySelf: 'start',
    minHeight: '32px',
    paddingBlock: 0,
    paddingInline: tokens.spacingHorizontalM,
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover },
    ':active': { backgroundColor: tokens.colorBrandBackgroundPressed },
    ':focus-visible': {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: '2px',
    },
  },
});

/** Shown when a screen fails to load or render, e.g. after a deploy removed an old chunk. */
export function RouteError() {
  const styles = useStyles();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Page title="Something went wrong">
      <p role="alert">This screen could not be shown: {message}</p>
      <button type="button" className={styles.reload} onClick={() => window.location.reload()}>
        Reload
      </button>
    </Page>
  );
}

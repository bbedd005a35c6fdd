import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '@fluentui/react-components';
import { Page } from '../../components/page';

/** Shown when a screen fails to load or render, e.g. after a deploy removed an old chunk. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Page title="Something went wrong">
      <p role="alert">This screen could not be shown: {message}</p>
      <Button appearance="primary" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </Page>
  );
}

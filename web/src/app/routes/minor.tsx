import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { TextProgressBar } from '../../components/text-progress-bar';

/** /ReceiptImage: not shown by the spec; points to where receipt images are seen. */
export function ReceiptImageRoute() {
  return (
    <Page title="Receipt image">
      <p>
        Open a receipt from the <RouterLink to="/Reports">reports</RouterLink> and choose the image icon to
        see its picture.
      </p>
    </Page>
  );
}

/** /ProgressBar: not shown by the spec; shows the progress bar the uploads use. */
export function ProgressBarRoute() {
  return (
    <Page title="Progress">
      <TextProgressBar label="Processing receipt" />
    </Page>
  );
}

export function NotFoundRoute() {
  return (
    <Page title="Page not found">
      <p>
        There is no page here. Go to the <RouterLink to="/">home page</RouterLink>.
      </p>
    </Page>
  );
}

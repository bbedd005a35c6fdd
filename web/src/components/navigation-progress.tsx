import { ProgressBar } from '@fluentui/react-components';

/** The thin bar under the header while a screen's code or data loads. */
export function NavigationProgress() {
  return (
    <ProgressBar
      aria-label="Loading the page"
      thickness="medium"
      style={{ position: 'sticky', top: 52, zIndex: 9 }}
    />
  );
}

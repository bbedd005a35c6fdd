import { Navigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { useAppState } from '../../../stores/app-state';
import { FilePicker } from './file-picker';
import { LiveCapture } from './live-capture';

/** /Camera: p=Camera opens live capture; any other value, or none, shows the file picker. */
export function CameraPage() {
  const [params] = useSearchParams();
  const { userId } = useAppState();
  if (!userId) return <Navigate to="/Login" replace />;
  if (params.get('p') === 'Camera') {
    return (
      <main>
        <h1 style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
          Scan a receipt
        </h1>
        <LiveCapture userId={userId} />
      </main>
    );
  }
  return (
    <Page title="Upload a receipt">
      <FilePicker userId={userId} />
    </Page>
  );
}

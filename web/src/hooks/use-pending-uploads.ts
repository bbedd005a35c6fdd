import { useEffect, useState } from 'react';
import type { PendingUpload } from '../lib/pending-uploads';

export interface PendingUploadsState {
  /** The uploads kept on this device for the user (their own and shared ones), oldest first. */
  uploads: PendingUpload[];
  /** False until the first read of IndexedDB has answered. */
  loaded: boolean;
}

const supported = () => typeof indexedDB !== 'undefined';

/** The uploads kept on this device for `userId`, read again whenever they change (in any tab). */
export function usePendingUploads(userId: string | null): PendingUploadsState {
  const [state, setState] = useState<PendingUploadsState & { for: string | null }>({
    uploads: [],
    loaded: false,
    for: userId,
  });
  useEffect(() => {
    if (!supported()) return;
    let active = true;
    let stop = () => {};
    // Loaded on demand: the IndexedDB code stays out of the first page's JavaScript.
    void import('../lib/pending-uploads').then(({ listPendingUploads, onPendingUploadsChange }) => {
      if (!active) return;
      const read = () => {
        listPendingUploads(userId)
          .then((uploads) => {
            if (active) setState({ uploads, loaded: true, for: userId });
          })
          .catch((error: unknown) => {
            console.warn('Could not read the receipts kept on this device', error);
            if (active) setState({ uploads: [], loaded: true, for: userId });
          });
      };
      read();
      stop = onPendingUploadsChange(read);
    });
    return () => {
      active = false;
      stop();
    };
  }, [userId]);
  // A browser without IndexedDB (some private modes) keeps nothing: there is nothing to wait for.
  if (!supported()) return { uploads: [], loaded: true };
  // A change of user shows nothing of the last one while the new list is read.
  return state.for === userId ? state : { uploads: [], loaded: false };
}

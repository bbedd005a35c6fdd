import { useEffect, useRef, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { useReceiptImage } from '../lib/images';
import { blobNameOf } from '../lib/format';
import { useAppState } from '../stores/app-state';

const SIDE = '40px';

const useStyles = makeStyles({
  box: {
    display: 'inline-block',
    flexShrink: 0,
    width: SIDE,
    height: SIDE,
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorNeutralBackground3,
    overflow: 'hidden',
    verticalAlign: 'middle',
  },
  image: { display: 'block', width: SIDE, height: SIDE, objectFit: 'cover', objectPosition: 'top' },
});

/** Whether the element is on (or near) the screen yet: only then is its picture asked for. */
function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near] as const;
}

/**
 * A small picture of a receipt for a list row: the signed-in person's own stored image (through the
 * authorised getImage call, a PDF's first page as a picture), asked for only once the row is near
 * the screen. It is decoration beside the row's link, so it has no text of its own.
 */
export function ReceiptThumbnail({ documentUrl }: { documentUrl: string }) {
  const styles = useStyles();
  const { userId } = useAppState();
  const blobName = blobNameOf(documentUrl);
  const [ref, near] = useNearScreen<HTMLSpanElement>();
  const image = useReceiptImage(userId, blobName, near);
  const shown = image.data?.startsWith('data:image/') ? image.data : undefined;
  return (
    <span ref={ref} className={styles.box} data-testid="receipt-thumbnail">
      {shown && (
        <img
          className={styles.image}
          src={shown}
          alt=""
          loading="lazy"
          decoding="async"
          width={40}
          height={40}
        />
      )}
    </span>
  );
}

import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { isPdf } from '../lib/queue';
import { Modal } from './modal';
import { PdfPreview } from './pdf-preview';

const useStyles = makeStyles({
  image: { display: 'block', width: '100%', height: 'auto', maxWidth: '900px' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export interface ImageModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The image source (a data URL); undefined while it loads. */
  src: string | undefined;
  loading: boolean;
  error: string | null;
  alt: string;
  /** The stored file when it is a PDF: `src` is then its first page (or the PDF), with a link to open it. */
  pdf?: { userId: string; blobName: string };
}

/** The stored image in a modal up to 900px and 80vw wide (spec §2, §9); a PDF as a link that opens it. */
export function ImageModal({ open, onClose, title, src, loading, error, alt, pdf }: ImageModalProps) {
  const styles = useStyles();
  return (
    <Modal open={open} onClose={onClose} title={title}>
      {loading && <Spinner label="Loading image" />}
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      {src && !error && (pdf || isPdf(src)) && (
        <PdfPreview src={src} name={alt} stored={pdf} imageClassName={styles.image} />
      )}
      {src && !error && !pdf && !isPdf(src) && <img className={styles.image} src={src} alt={alt} />}
    </Modal>
  );
}

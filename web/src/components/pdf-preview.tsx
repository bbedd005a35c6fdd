import { Link, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DocumentPdf24Regular } from '@fluentui/react-icons/svg/document-pdf';

const useStyles = makeStyles({
  box: {
    display: 'inline-grid',
    justifyItems: 'center',
    alignContent: 'center',
    gap: tokens.spacingVerticalXXS,
  },
  icon: { width: '32px', height: '32px', color: tokens.colorPaletteRedForeground1 },
});

/** The bytes of a base64 data URL as a Blob of its type. */
function blobOf(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',');
  const type = dataUrl.slice(5, comma).split(';')[0] || 'application/octet-stream';
  const binary = atob(dataUrl.slice(comma + 1));
  return new Blob([Uint8Array.from(binary, (c) => c.charCodeAt(0))], { type });
}

/** Opens a data URL in a new tab (browsers refuse to navigate to data: URLs, so through a blob: URL). */
function openInNewTab(dataUrl: string): void {
  const url = URL.createObjectURL(blobOf(dataUrl));
  window.open(url, '_blank');
  // The new tab has loaded it by then; the URL only keeps the bytes alive.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface PdfPreviewProps {
  /** The PDF as a data URL; undefined while it loads. */
  src: string | undefined;
  /** Names the document, e.g. the file name. */
  name: string;
  className?: string;
}

/** A PDF receipt in place of a picture: a PDF icon and a link that opens the document in a new tab. */
export function PdfPreview({ src, name, className }: PdfPreviewProps) {
  const styles = useStyles();
  return (
    <span className={mergeClasses(styles.box, className)} data-testid="pdf-preview">
      <DocumentPdf24Regular className={styles.icon} role="img" aria-label={`PDF receipt ${name}`} />
      {src && (
        <Link as="button" onClick={() => openInNewTab(src)} aria-label={`Open PDF ${name}`}>
          Open PDF
        </Link>
      )}
    </span>
  );
}

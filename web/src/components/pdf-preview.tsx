import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DocumentPdf24Regular } from '@fluentui/react-icons/svg/document-pdf';
import { errorMessage } from '../lib/api-client';
import { imageQueryOptions } from '../lib/images';

const useStyles = makeStyles({
  box: {
    display: 'inline-grid',
    justifyItems: 'center',
    alignContent: 'center',
    gap: tokens.spacingVerticalXXS,
  },
  icon: { width: '32px', height: '32px', color: tokens.colorPaletteRedForeground1 },
  page: { display: 'block', maxWidth: '100%', minHeight: 0, objectFit: 'contain', objectPosition: 'top' },
  error: { color: tokens.colorPaletteRedForeground1 },
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
  /**
   * What to show, as a data URL: a picture of the first page (drawn by the server), or the PDF
   * itself (shown as a PDF icon); undefined while it loads.
   */
  src: string | undefined;
  /** Names the document, e.g. the file name. */
  name: string;
  /** The stored PDF, fetched when "Open PDF" is chosen and `src` is only its picture. */
  stored?: { userId: string; blobName: string };
  className?: string;
  /** Class of the first page's picture (its size where it is shown). */
  imageClassName?: string;
}

/**
 * A PDF receipt where a picture is expected: its first page when the server drew one, else a PDF
 * icon; and a link that opens the document itself in a new tab.
 */
export function PdfPreview({ src, name, stored, className, imageClassName }: PdfPreviewProps) {
  const styles = useStyles();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const drawn = src !== undefined && src.startsWith('data:image/');
  const canOpen = src !== undefined && (!drawn || stored !== undefined);
  const open = async () => {
    setError(null);
    if (!src) return;
    if (!drawn) return openInNewTab(src);
    try {
      openInNewTab(await queryClient.fetchQuery(imageQueryOptions(stored!.userId, stored!.blobName)));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <span className={mergeClasses(styles.box, className)} data-testid="pdf-preview">
      {drawn ? (
        <img
          className={mergeClasses(styles.page, imageClassName)}
          src={src}
          alt={`First page of PDF receipt ${name}`}
        />
      ) : (
        <DocumentPdf24Regular className={styles.icon} role="img" aria-label={`PDF receipt ${name}`} />
      )}
      {canOpen && (
        <Link as="button" onClick={() => void open()} aria-label={`Open PDF ${name}`}>
          Open PDF
        </Link>
      )}
      {error && (
        <span role="alert" className={styles.error}>
          {error}
        </span>
      )}
    </span>
  );
}

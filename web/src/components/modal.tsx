import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons/svg/dismiss';

/** Modals are up to 900px and 80vw wide (spec §9). Inline, so it wins over the library's 600px default. */
const SURFACE_WIDTH = { maxWidth: 'min(900px, 80vw)', width: 'min(900px, 80vw)' } as const;

const useStyles = makeStyles({
  surface: { maxHeight: '90vh', overflowY: 'auto', boxSizing: 'border-box' },
});

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}

/** A dialog that opens and closes by user action and does not block the page (spec §4). */
export function Modal({ open, onClose, title, children }: ModalProps) {
  const styles = useStyles();
  return (
    <Dialog modalType="non-modal" open={open} onOpenChange={(_, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface} style={SURFACE_WIDTH} aria-label={title}>
        <DialogBody>
          <DialogTitle
            action={
              <Button appearance="subtle" aria-label="Close" icon={<Dismiss24Regular />} onClick={onClose} />
            }
          >
            {title}
          </DialogTitle>
          <DialogContent>{children}</DialogContent>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

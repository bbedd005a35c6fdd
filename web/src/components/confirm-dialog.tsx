import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The words of the button that goes ahead, e.g. 'Delete'. */
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before something that cannot be undone; Escape and Cancel keep everything as it is. Not modal
 * to the page's accessibility tree (like every dialog here, spec §4): going ahead may leave the
 * screen at once, and a modal dialog unmounted that way would leave the next screen hidden from
 * screen readers.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      modalType="non-modal"
      open={open}
      onOpenChange={(_, data) => (data.open ? undefined : onCancel())}
    >
      <DialogSurface aria-label={title} role="alertdialog">
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onCancel}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

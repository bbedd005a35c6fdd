import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DELETE_ACCOUNT_CONFIRMATION } from '@receipts/core/contract/my-data';
import { Page, PageSection } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useAppState } from '../../../stores/app-state';
import { useDeleteAccount } from '../api/delete-account';
import { downloadMyData } from '../api/download-my-data';
import { CorrectionRulesSection } from './correction-rules-section';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '640px' },
  buttons: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
  error: { color: tokens.colorPaletteRedForeground1, margin: 0 },
  danger: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': {
      backgroundColor: tokens.colorPaletteRedForeground1,
      color: tokens.colorNeutralForegroundOnBrand,
    },
  },
});

function DownloadSection({ userId }: { userId: string }) {
  const styles = useStyles();
  const [busy, setBusy] = useState<'all' | 'data' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const download = async (images: boolean) => {
    setError(null);
    setDone(false);
    setBusy(images ? 'all' : 'data');
    try {
      await downloadMyData(userId, images);
      setDone(true);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <PageSection id="download-my-data" title="Download my data">
      <Body1 as="p">
        A ZIP file with everything the app keeps about you: every receipt, item, merchant and tax as JSON and
        as CSV (for a spreadsheet), your uploads waiting or failed, and the images you uploaded with their
        analysis.
      </Body1>
      <div className={styles.buttons}>
        <Button appearance="primary" disabled={busy !== null} onClick={() => void download(true)}>
          {busy === 'all' ? 'Preparing your download…' : 'Download my data'}
        </Button>
        <Button disabled={busy !== null} onClick={() => void download(false)}>
          {busy === 'data' ? 'Preparing your download…' : 'Download without images'}
        </Button>
      </div>
      <p role="status" hidden={!done}>
        Your download has started.
      </p>
      <p role="alert" className={styles.error} hidden={!error}>
        {error}
      </p>
    </PageSection>
  );
}

function DeleteSection({ userId, onDeleted }: { userId: string; onDeleted: () => Promise<void> }) {
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [confirmation, setConfirmation] = useState('');
  const remove = useDeleteAccount(userId, onDeleted);

  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    setConfirmation('');
    remove.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(confirmation);
  };

  return (
    <PageSection id="delete-my-account" title="Delete my account">
      <Body1 as="p">Deleting your account removes, for good and at once:</Body1>
      <ul className={styles.list}>
        <li>every receipt, item, merchant and tax of yours, and your reports;</li>
        <li>the images you uploaded and their analysis, and uploads still waiting;</li>
        <li>the devices registered for your notifications;</li>
        <li>your sign-in account: you cannot sign in with it again.</li>
      </ul>
      <Body1 as="p">Download your data first if you want to keep a copy.</Body1>
      <div className={styles.buttons}>
        <Button className={styles.danger} onClick={() => setOpen(true)}>
          Delete my account…
        </Button>
      </div>
      {/* Not modal, like the app's other dialogs: success leaves the page at once. */}
      <Dialog modalType="non-modal" open={open} onOpenChange={(_, data) => (data.open ? undefined : close())}>
        <DialogSurface aria-label="Delete my account" role="alertdialog">
          <form onSubmit={submit} noValidate>
            <DialogBody>
              <DialogTitle>Delete my account</DialogTitle>
              <DialogContent>
                <Body1 as="p">
                  This deletes your account and all its data. It cannot be undone. To confirm, type{' '}
                  <strong>{DELETE_ACCOUNT_CONFIRMATION}</strong> below.
                </Body1>
                <Field label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`}>
                  <Input
                    value={confirmation}
                    autoComplete="off"
                    onChange={(_, data) => setConfirmation(data.value)}
                    disabled={remove.isPending}
                  />
                </Field>
                <p role="alert" className={styles.error} hidden={!remove.isError}>
                  {remove.isError ? errorMessage(remove.error) : null}
                </p>
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" onClick={close} disabled={remove.isPending}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  className={styles.danger}
                  disabled={remove.isPending || confirmation !== DELETE_ACCOUNT_CONFIRMATION}
                >
                  {remove.isPending ? 'Deleting…' : 'Delete my account'}
                </Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>
    </PageSection>
  );
}

/**
 * The Account page: download all of one's data as a ZIP, and delete the account after typing the
 * confirmation. `onDeleted` signs out and leaves (given by the app shell, which owns the sign-out).
 */
export function AccountPage({ onDeleted }: { onDeleted: () => Promise<void> }) {
  const styles = useStyles();
  const { signedIn, userId } = useAppState();
  if (!signedIn || !userId) return <Navigate to="/Login" replace />;
  return (
    <Page title="Account">
      <div className={styles.column}>
        <DownloadSection userId={userId} />
        <CorrectionRulesSection userId={userId} />
        <DeleteSection userId={userId} onDeleted={onDeleted} />
      </div>
    </Page>
  );
}

import { useState, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Select,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { ReportMerchant } from '@receipts/core/entities';
import type { MerchantOption } from '@receipts/core/contract/details';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useEdit } from '../../../lib/edits';

const useStyles = makeStyles({
  // Inputs fill their grid cell and may shrink with it (their own minimum width overflows on phones).
  input: { width: '100%', minWidth: 0, boxSizing: 'border-box' },
  fields: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
    '& > *': { minWidth: 0 },
  },
  buttons: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    alignItems: 'end',
    marginTop: tokens.spacingVerticalM,
  },
});

const FIELDS = [
  ['name', 'Name'],
  ['street_address', 'Street Address'],
  ['city', 'City'],
  ['postal_code', 'Postal Code'],
  ['phone_number', 'Phone Number'],
] as const;
type FieldKey = (typeof FIELDS)[number][0];

function EditFailure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>{errorMessage(error)}</MessageBarBody>
    </MessageBar>
  );
}

/** Rename a merchant and edit its address. */
export function MerchantEditor({
  userId,
  merchant,
  onDone,
}: {
  userId: string;
  merchant: ReportMerchant;
  onDone: () => void;
}) {
  const styles = useStyles();
  const update = useEdit<{ merchantId: string; etag: string; changes: Record<string, string | null> }>(
    'updateMerchant',
    userId,
  );
  const initial = Object.fromEntries(FIELDS.map(([key]) => [key, merchant[key] ?? ''])) as Record<
    FieldKey,
    string
  >;
  const [values, setValues] = useState(initial);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, string | null> = {};
    for (const [key] of FIELDS) {
      if (values[key] !== initial[key]) changes[key] = values[key].trim() || (key === 'name' ? '' : null);
    }
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(
      { merchantId: merchant.merchant_id, etag: merchant.etag ?? '', changes },
      { onSuccess: onDone },
    );
  }

  return (
    <form aria-label="Edit merchant" onSubmit={onSubmit}>
      <div className={styles.fields}>
        {FIELDS.map(([key, label]) => (
          <Field key={key} label={label}>
            <Input
              className={styles.input}
              name={key}
              value={values[key]}
              maxLength={200}
              onChange={(_, data) => setValues((v) => ({ ...v, [key]: data.value }))}
            />
          </Field>
        ))}
      </div>
      <div className={styles.buttons}>
        <Button type="submit" appearance="primary" disabled={update.isPending}>
          Save merchant
        </Button>
        <Button type="button" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <EditFailure error={update.error} />
    </form>
  );
}

/**
 * Merge another merchant into this one (the same shop read two ways): its receipts move here and
 * it disappears. Asks first.
 */
export function MergeMerchant({
  userId,
  merchant,
  merchants,
}: {
  userId: string;
  merchant: ReportMerchant;
  merchants: MerchantOption[];
}) {
  const styles = useStyles();
  const merge = useEdit<{ merchantId: string; etag: string; duplicateId: string; duplicateEtag: string }>(
    'mergeMerchants',
    userId,
  );
  const others = merchants.filter((m) => m.merchant_id !== merchant.merchant_id);
  const [duplicateId, setDuplicateId] = useState('');
  const [asking, setAsking] = useState(false);
  const duplicate = others.find((m) => m.merchant_id === duplicateId);
  if (others.length === 0) return null;
  return (
    <form
      aria-label="Merge merchants"
      onSubmit={(event) => {
        event.preventDefault();
        if (duplicate) setAsking(true);
      }}
    >
      <div className={styles.buttons}>
        <Field label="Same shop as">
          <Select
            className={styles.input}
            value={duplicateId}
            onChange={(_, data) => setDuplicateId(data.value)}
          >
            <option value="">Choose a merchant to merge into this one</option>
            {others.map((m) => (
              <option key={m.merchant_id} value={m.merchant_id}>
                {m.name}
                {m.city ? ` (${m.city})` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={!duplicate || merge.isPending}>
          Merge
        </Button>
      </div>
      <EditFailure error={merge.error} />
      <ConfirmDialog
        open={asking}
        title="Merge these merchants?"
        confirmLabel="Merge"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          if (!duplicate) return;
          merge.mutate(
            {
              merchantId: merchant.merchant_id,
              etag: merchant.etag ?? '',
              duplicateId: duplicate.merchant_id,
              duplicateEtag: duplicate.etag ?? '',
            },
            { onSuccess: () => setDuplicateId('') },
          );
        }}
      >
        Every receipt of {duplicate?.name ?? 'that merchant'} moves to {merchant.name}, and{' '}
        {duplicate?.name ?? 'that merchant'} disappears.
      </ConfirmDialog>
    </form>
  );
}

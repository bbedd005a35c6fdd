import { useId, useMemo, useState, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Select,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { BrandOption } from '@receipts/core/api-edits';
import type { MerchantOption } from '@receipts/core/detail-api';
import type { ReportItem, ReportReceipt } from '@receipts/core/entities';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { numberInput } from '../../../lib/edits';
import { formatMoney } from '../../../lib/format';
import {
  useBrandOptions,
  useDeleteItem,
  useMoveReceipt,
  useSaveItem,
  useUpdateReceipt,
} from '../api/edit-receipt';

const useStyles = makeStyles({
  // Inputs fill their grid cell and may shrink with it (their own minimum width overflows on phones).
  input: { width: '100%', minWidth: 0, boxSizing: 'border-box' },
  // Phones: the image above the form; wide screens: beside it, staying in view while scrolling.
  layout: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'minmax(0, 1fr)',
    '@media (min-width: 900px)': { gridTemplateColumns: 'minmax(260px, 2fr) minmax(0, 3fr)' },
  },
  imagePane: {
    alignSelf: 'start',
    '@media (min-width: 900px)': { position: 'sticky', top: '60px' },
  },
  image: {
    display: 'block',
    maxWidth: '100%',
    maxHeight: '45vh',
    marginInline: 'auto',
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
    '@media (min-width: 900px)': { maxHeight: 'calc(100vh - 80px)' },
  },
  forms: { display: 'grid', gap: tokens.spacingVerticalL, minWidth: 0 },
  fields: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
    '& > *': { minWidth: 0 },
  },
  wide: { gridColumn: '1 / -1' },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  item: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))',
    '& > *': { minWidth: 0 },
    alignItems: 'end',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  description: { gridColumn: 'span 2' },
  owner: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** The message of a failed edit, with a reload button when the values were stale. */
export function EditError({ error, onReload }: { error: unknown; onReload: () => void }) {
  if (!error) return null;
  const stale = error instanceof ApiError && error.status === 409;
  return (
    <MessageBar intent={stale ? 'warning' : 'error'} layout="multiline" role="alert">
      <MessageBarBody>{errorMessage(error)}</MessageBarBody>
      {stale && (
        <MessageBarActions>
          <Button size="small" onClick={onReload}>
            Reload
          </Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}

const RECEIPT_FIELDS = [
  { key: 'merchant_name', label: 'Merchant', kind: 'text' },
  { key: 'transaction_date', label: 'Date', kind: 'date' },
  { key: 'transaction_time', label: 'Time', kind: 'time' },
  { key: 'total_amount', label: 'Total', kind: 'number' },
  { key: 'total_tax', label: 'Tax', kind: 'number' },
  { key: 'currency_code', label: 'Currency', kind: 'text' },
  { key: 'receipt_type', label: 'Category', kind: 'text' },
  { key: 'doc_type', label: 'Document type', kind: 'text' },
] as const;
type ReceiptFieldKey = (typeof RECEIPT_FIELDS)[number]['key'];

const asText = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export interface ReceiptEditorProps {
  userId: string;
  receipt: ReportReceipt;
  items: ReportItem[];
  /** The user's merchants, for the merchant name's suggestions and the move form (empty while loading). */
  merchants: MerchantOption[];
  /** The stored image as a data URL (or undefined while it loads). */
  image: { src: string | undefined; loading: boolean; error: string | null; alt: string };
  onReload: () => void;
  onDone: () => void;
}

/**
 * Correcting a receipt: the stored image beside the form on wide screens and above it on phones, the
 * receipt's fields, its merchant, and its items. Every save carries the etag the values were read
 * with; when someone changed the receipt meanwhile the server's words say to reload.
 */
export function ReceiptEditor({
  userId,
  receipt,
  items,
  merchants,
  image,
  onReload,
  onDone,
}: ReceiptEditorProps) {
  const styles = useStyles();
  return (
    <div className={styles.layout}>
      <div className={styles.imagePane} aria-label="Stored receipt image" role="figure">
        {image.src?.startsWith('data:image/') ? (
          <img className={styles.image} src={image.src} alt={image.alt} />
        ) : image.loading ? (
          <Spinner label="Loading the image" />
        ) : (
          <p>{image.error ?? 'The stored receipt is a PDF; open it with "View receipt image".'}</p>
        )}
      </div>
      <div className={styles.forms}>
        <ReceiptFieldsForm
          key={receipt.etag}
          userId={userId}
          receipt={receipt}
          merchants={merchants}
          onReload={onReload}
          onDone={onDone}
        />
        <MoveReceipt userId={userId} receipt={receipt} merchants={merchants} onReload={onReload} />
        <ItemsEditor userId={userId} receipt={receipt} items={items} onReload={onReload} />
      </div>
    </div>
  );
}

function ReceiptFieldsForm({
  userId,
  receipt,
  merchants,
  onReload,
  onDone,
}: Omit<ReceiptEditorProps, 'items' | 'image'>) {
  const styles = useStyles();
  const id = useId();
  const update = useUpdateReceipt(userId);
  const initial = useMemo(
    () =>
      Object.fromEntries(
        RECEIPT_FIELDS.map(({ key }) => [
          key,
          key === 'transaction_time' ? asText(receipt[key]).slice(0, 8) : asText(receipt[key]),
        ]),
      ) as Record<ReceiptFieldKey, string>,
    [receipt],
  );
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(false);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, unknown> = {};
    for (const { key, kind } of RECEIPT_FIELDS) {
      if (values[key] === initial[key]) continue;
      const text = values[key].trim();
      changes[key] =
        kind === 'number' ? numberInput(text) : text === '' && key !== 'merchant_name' ? null : text;
    }
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    setSaved(false);
    update.mutate(
      { receiptId: receipt.receipt_id, etag: receipt.etag ?? '', changes },
      { onSuccess: () => setSaved(true) },
    );
  }

  return (
    <form aria-label="Edit receipt" onSubmit={onSubmit}>
      <div className={styles.fields}>
        {RECEIPT_FIELDS.map(({ key, label, kind }) => (
          <Field key={key} label={label} className={key === 'merchant_name' ? styles.wide : undefined}>
            <Input
              className={styles.input}
              name={key}
              value={values[key]}
              onChange={(_, data) => setValues((v) => ({ ...v, [key]: data.value }))}
              type={kind === 'date' ? 'date' : kind === 'time' ? 'time' : 'text'}
              step={kind === 'time' ? 1 : undefined}
              inputMode={kind === 'number' ? 'decimal' : undefined}
              list={
                key === 'merchant_name'
                  ? `${id}-merchants`
                  : key === 'currency_code'
                    ? `${id}-currencies`
                    : undefined
              }
              autoCapitalize={key === 'currency_code' ? 'characters' : undefined}
              maxLength={key === 'currency_code' ? 3 : 200}
            />
          </Field>
        ))}
      </div>
      <datalist id={`${id}-merchants`}>
        {merchants.map((m) => (
          <option key={m.merchant_id} value={m.name} />
        ))}
      </datalist>
      <datalist id={`${id}-currencies`}>
        {[
          'EUR',
          'USD',
          'GBP',
          'CHF',
          'SEK',
          'DKK',
          'NOK',
          'PLN',
          'CZK',
          'MYR',
          'SGD',
          'JPY',
          'CAD',
          'AUD',
        ].map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <div className={styles.buttons} style={{ marginTop: tokens.spacingVerticalM }}>
        <Button type="submit" appearance="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
        {saved && !update.isPending && <span role="status">Saved.</span>}
      </div>
      <EditError error={update.error} onReload={onReload} />
    </form>
  );
}

function MoveReceipt({
  userId,
  receipt,
  merchants,
  onReload,
}: Pick<ReceiptEditorProps, 'userId' | 'receipt' | 'merchants' | 'onReload'>) {
  const styles = useStyles();
  const move = useMoveReceipt(userId);
  const others = merchants.filter((m) => m.merchant_id !== receipt.merchant_id);
  const [target, setTarget] = useState('');
  if (others.length === 0) return null;
  return (
    <form
      aria-label="Move to another merchant"
      onSubmit={(event) => {
        event.preventDefault();
        if (target)
          move.mutate({ receiptId: receipt.receipt_id, etag: receipt.etag ?? '', merchantId: target });
      }}
    >
      <div className={styles.buttons}>
        <Field label="Move to another merchant">
          <Select className={styles.input} value={target} onChange={(_, data) => setTarget(data.value)}>
            <option value="">Choose a merchant</option>
            {others.map((m) => (
              <option key={m.merchant_id} value={m.merchant_id}>
                {m.name}
                {m.city ? ` (${m.city})` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={!target || move.isPending} style={{ alignSelf: 'end' }}>
          Move
        </Button>
      </div>
      <EditError error={move.error} onReload={onReload} />
    </form>
  );
}

interface ItemValues {
  description: string;
  quantity: string;
  unit_price: string;
  total_price: string;
  brand: string;
}
const itemValues = (item?: ReportItem): ItemValues => ({
  description: item?.description ?? '',
  quantity: asText(item?.quantity ?? (item ? null : 1)),
  unit_price: asText(item?.unit_price),
  total_price: asText(item?.total_price),
  brand: item?.brand ?? '',
});

function ItemsEditor({
  userId,
  receipt,
  items,
  onReload,
}: Pick<ReceiptEditorProps, 'userId' | 'receipt' | 'items' | 'onReload'>) {
  const listId = useId();
  const brands = useBrandOptions(userId, true);
  const owners = useMemo(() => {
    const map = new Map<string, string | null>();
    for (const b of brands.data ?? []) map.set(b.name.toLowerCase(), b.owning_corporation);
    return map;
  }, [brands.data]);
  const total = items.reduce((sum, i) => sum + (i.total_price ?? 0), 0);
  return (
    <section aria-label="Edit items" style={{ display: 'grid', gap: tokens.spacingVerticalS }}>
      <datalist id={listId}>
        {(brands.data ?? []).map((b: BrandOption) => (
          <option key={b.name} value={b.name}>
            {b.owning_corporation ?? ''}
          </option>
        ))}
      </datalist>
      {items.map((item) => (
        <ItemForm
          key={`${item.item_id} ${receipt.etag}`}
          userId={userId}
          receipt={receipt}
          item={item}
          brandList={listId}
          owners={owners}
          onReload={onReload}
        />
      ))}
      <p>
        Items add up to {formatMoney(total)} {receipt.currency_code ?? ''}
        {receipt.total_checks_out ? ' — matches the total.' : ' — does not match the total.'}
      </p>
      <ItemForm
        key={`new ${receipt.etag} ${items.length}`}
        userId={userId}
        receipt={receipt}
        brandList={listId}
        owners={owners}
        onReload={onReload}
      />
    </section>
  );
}

function ItemForm({
  userId,
  receipt,
  item,
  brandList,
  owners,
  onReload,
}: {
  userId: string;
  receipt: ReportReceipt;
  item?: ReportItem;
  brandList: string;
  owners: Map<string, string | null>;
  onReload: () => void;
}) {
  const styles = useStyles();
  const save = useSaveItem(userId);
  const remove = useDeleteItem(userId);
  const [values, setValues] = useState(() => itemValues(item));
  const set = (key: keyof ItemValues) => (_: unknown, data: { value: string }) =>
    setValues((v) => ({ ...v, [key]: data.value }));
  const owner = values.brand ? owners.get(values.brand.trim().toLowerCase()) : undefined;
  const label = item ? `Item ${item.description || item.item_id}` : 'New item';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      receiptId: receipt.receipt_id,
      etag: receipt.etag ?? '',
      ...(item ? { itemId: item.item_id } : {}),
      item: {
        description: values.description,
        quantity: numberInput(values.quantity),
        unit_price: numberInput(values.unit_price),
        total_price: numberInput(values.total_price),
        brand: values.brand.trim() || null,
      },
    });
  }

  return (
    <form aria-label={label} onSubmit={onSubmit} className={styles.item}>
      <Field label="Description" className={styles.description}>
        <Input
          className={styles.input}
          value={values.description}
          onChange={set('description')}
          maxLength={500}
        />
      </Field>
      <Field label="Quantity">
        <Input
          className={styles.input}
          value={values.quantity}
          onChange={set('quantity')}
          inputMode="decimal"
        />
      </Field>
      <Field label="Unit price">
        <Input
          className={styles.input}
          value={values.unit_price}
          onChange={set('unit_price')}
          inputMode="decimal"
        />
      </Field>
      <Field label="Total price">
        <Input
          className={styles.input}
          value={values.total_price}
          onChange={set('total_price')}
          inputMode="decimal"
        />
      </Field>
      <Field
        label="Brand"
        hint={
          values.brand.trim() ? (owner ? `Owned by ${owner}` : 'Not in the brand list: no owner') : undefined
        }
      >
        <Input
          className={styles.input}
          value={values.brand}
          onChange={set('brand')}
          list={brandList}
          autoComplete="off"
        />
      </Field>
      <div className={styles.buttons}>
        <Button type="submit" appearance={item ? 'secondary' : 'primary'} disabled={save.isPending}>
          {item ? 'Save item' : 'Add item'}
        </Button>
        {item && (
          <Button
            type="button"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate({ receiptId: receipt.receipt_id, etag: receipt.etag ?? '', itemId: item.item_id })
            }
          >
            Delete item
          </Button>
        )}
      </div>
      <div style={{ gridColumn: '1 / -1' }}>
        <EditError error={save.error ?? remove.error} onReload={onReload} />
      </div>
    </form>
  );
}

import { useId, useMemo, useState, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Select,
  MessageBarTitle,
  Spinner,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { Add24Regular } from '@fluentui/react-icons/svg/add';
import { ArrowUndo24Regular } from '@fluentui/react-icons/svg/arrow-undo';
import { Delete24Regular } from '@fluentui/react-icons/svg/delete';
import { ZoomIn24Regular } from '@fluentui/react-icons/svg/zoom-in';
import { ZoomOut24Regular } from '@fluentui/react-icons/svg/zoom-out';
import type { BrandOption } from '@receipts/core/contract/edits';
import type { MerchantOption } from '@receipts/core/contract/details';
import type { ReportItem, ReportReceipt } from '@receipts/core/entities';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { numberInput } from '../../../lib/edits';
import { amountText, parseTimeText, timeExample, timeText } from '../../../lib/locale-input';
import { useBrandOptions, useMoveReceipt, useSaveReceipt } from '../api/edit-receipt';

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
    display: 'grid',
    gap: tokens.spacingVerticalXS,
    minWidth: 0,
    '@media (min-width: 900px)': { position: 'sticky', top: '60px' },
  },
  // Phones: most of the screen's height, so the print can be read; zoomed, it scrolls within.
  imageFrame: {
    overflow: 'auto',
    maxHeight: '70vh',
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
    '@media (min-width: 900px)': { maxHeight: 'calc(100vh - 120px)' },
  },
  image: {
    display: 'block',
    maxWidth: '100%',
    maxHeight: '70vh',
    marginInline: 'auto',
    cursor: 'zoom-in',
    '@media (min-width: 900px)': { maxHeight: 'calc(100vh - 120px)' },
  },
  zoomed: { display: 'block', maxWidth: 'none', cursor: 'zoom-out' },
  forms: { display: 'grid', gap: tokens.spacingVerticalL, minWidth: 0 },
  fieldset: {
    border: 'none',
    margin: 0,
    padding: 0,
    minWidth: 0,
    display: 'grid',
    gap: tokens.spacingVerticalS,
  },
  legend: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase400, padding: 0 },
  fields: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
    '& > *': { minWidth: 0 },
  },
  wide: { gridColumn: '1 / -1' },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  // The one Save stays in reach at the bottom of the screen while a long receipt is edited.
  saveBar: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    alignItems: 'center',
    position: 'sticky',
    bottom: 0,
    zIndex: 1,
    paddingBlock: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  itemList: { display: 'grid', gap: tokens.spacingVerticalS },
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
  removed: { color: tokens.colorNeutralForeground3, alignItems: 'center' },
  description: { gridColumn: 'span 2' },
  remove: { justifySelf: 'end' },
  notes: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
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
  { key: 'total_amount', label: 'Total', kind: 'amount' },
  { key: 'total_tax', label: 'Tax', kind: 'amount' },
  { key: 'currency_code', label: 'Currency', kind: 'text' },
  { key: 'receipt_type', label: 'Category', kind: 'text' },
  { key: 'doc_type', label: 'Document type', kind: 'text' },
] as const;
type ReceiptFieldKey = (typeof RECEIPT_FIELDS)[number]['key'];
type FieldValues = Record<ReceiptFieldKey, string>;

const ITEM_FIELDS = [
  { key: 'description', label: 'Description' },
  { key: 'quantity', label: 'Quantity' },
  { key: 'unit_price', label: 'Unit price' },
  { key: 'total_price', label: 'Total price' },
  { key: 'brand', label: 'Brand' },
] as const;
type ItemValues = Record<(typeof ITEM_FIELDS)[number]['key'], string>;

/** One item row of the form: an item of the receipt (with its id) or a new one, maybe to be removed. */
interface ItemRowState {
  key: string;
  /** The row's name for assistive technology, fixed when it is made ("Item COCA-COLA", "New item 1"). */
  label: string;
  itemId?: string;
  values: ItemValues;
  removed: boolean;
}

const asText = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** The receipt's fields as the form shows them: amounts and the time in the person's locale. */
function fieldValues(receipt: ReportReceipt): FieldValues {
  const out = {} as FieldValues;
  for (const { key, kind } of RECEIPT_FIELDS) {
    const value = receipt[key];
    out[key] =
      kind === 'amount'
        ? amountText(value as number | null)
        : kind === 'time'
          ? timeText(value as string | null)
          : asText(value);
  }
  return out;
}

const itemValues = (item?: ReportItem): ItemValues => ({
  description: item?.description ?? '',
  quantity: asText(item?.quantity ?? (item ? null : 1)),
  unit_price: amountText(item?.unit_price),
  total_price: amountText(item?.total_price),
  brand: item?.brand ?? '',
});

const itemRows = (items: ReportItem[]): ItemRowState[] =>
  items.map((item, n) => ({
    key: item.item_id,
    label: `Item ${item.description || n + 1}`,
    itemId: item.item_id,
    values: itemValues(item),
    removed: false,
  }));

const sameItemValues = (a: ItemValues, b: ItemValues) => ITEM_FIELDS.every(({ key }) => a[key] === b[key]);

/** Whether the rows are the items as read: none added, removed or changed. */
function rowsUnchanged(rows: ItemRowState[], items: ReportItem[]): boolean {
  const kept = rows.filter((r) => !r.removed);
  return (
    kept.length === items.length &&
    kept.every(
      (row, i) => row.itemId === items[i]!.item_id && sameItemValues(row.values, itemValues(items[i])),
    )
  );
}

/** One line of "what changed elsewhere". */
interface ConflictNote {
  label: string;
  before: string;
  after: string;
  /** The person had changed it too: their value is kept. */
  yours?: string;
}

/**
 * A person's edit on values changed elsewhere meanwhile, brought onto the new values: what they did
 * not touch takes the new value, what they changed stays theirs. Answers the merged form and what
 * changed elsewhere, for the person to check before saving again.
 */
function rebase(
  base: { receipt: ReportReceipt; items: ReportItem[] },
  theirs: { receipt: ReportReceipt; items: ReportItem[] },
  values: FieldValues,
  rows: ItemRowState[],
): { values: FieldValues; rows: ItemRowState[]; notes: ConflictNote[] } {
  const was = fieldValues(base.receipt);
  const now = fieldValues(theirs.receipt);
  const merged = { ...values };
  const notes: ConflictNote[] = [];
  for (const { key, label } of RECEIPT_FIELDS) {
    if (was[key] === now[key]) continue;
    const mine = values[key] !== was[key];
    if (!mine) merged[key] = now[key];
    notes.push({ label, before: was[key], after: now[key], ...(mine ? { yours: values[key] } : {}) });
  }
  const itemsChanged =
    base.items.length !== theirs.items.length ||
    base.items.some(
      (item, i) =>
        item.item_id !== theirs.items[i]!.item_id ||
        !sameItemValues(itemValues(item), itemValues(theirs.items[i])),
    );
  const touched = !rowsUnchanged(rows, base.items);
  if (itemsChanged) {
    const list = (items: ReportItem[]) => items.map((i) => i.description).join(', ') || 'none';
    notes.push({
      label: 'Items',
      before: list(base.items),
      after: list(theirs.items),
      ...(touched
        ? {
            yours: rows
              .filter((r) => !r.removed)
              .map((r) => r.values.description)
              .join(', '),
          }
        : {}),
    });
  }
  return { values: merged, rows: itemsChanged && !touched ? itemRows(theirs.items) : rows, notes };
}

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

const ZOOMS = [1, 1.5, 2, 3] as const;

/** The stored image beside (wide screens) or above (phones) the form, zoomable to check small print. */
function ReceiptImagePane({ image }: Pick<ReceiptEditorProps, 'image'>) {
  const styles = useStyles();
  const [zoom, setZoom] = useState(0);
  const src = image.src?.startsWith('data:image/') ? image.src : undefined;
  const factor = ZOOMS[zoom]!;
  return (
    <div className={styles.imagePane} aria-label="Stored receipt image" role="figure">
      {src ? (
        <>
          <div className={styles.buttons}>
            <Button
              size="small"
              icon={<ZoomOut24Regular />}
              aria-label="Zoom out"
              title="Zoom out"
              disabled={zoom === 0}
              onClick={() => setZoom((z) => Math.max(0, z - 1))}
            />
            <Button
              size="small"
              icon={<ZoomIn24Regular />}
              aria-label="Zoom in"
              title="Zoom in"
              disabled={zoom === ZOOMS.length - 1}
              onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
            />
            <span aria-live="polite">{Math.round(factor * 100)} %</span>
          </div>
          {/* Zoomed, the picture scrolls inside its frame (and can be dragged on a touch screen). */}
          <div
            className={styles.imageFrame}
            role="group"
            tabIndex={0}
            aria-label="Receipt image, scrollable when zoomed"
          >
            <img
              className={zoom === 0 ? styles.image : styles.zoomed}
              style={zoom === 0 ? undefined : { width: `${factor * 100}%` }}
              src={src}
              alt={image.alt}
              onClick={() => setZoom((z) => (z === 0 ? 2 : 0))}
            />
          </div>
        </>
      ) : image.loading ? (
        <Spinner label="Loading the image" />
      ) : (
        <p>{image.error ?? 'The stored receipt is a PDF; open it with "View receipt image".'}</p>
      )}
    </div>
  );
}

/**
 * Correcting a receipt: the stored image beside the form on wide screens and above it on phones, one
 * form for the receipt's fields and its items with one Save, and moving it to another merchant.
 * The save carries the etag the values were read with; when someone changed the receipt meanwhile
 * the person's edit is kept and the form says what changed elsewhere.
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
      <ReceiptImagePane image={image} />
      <div className={styles.forms}>
        <ReceiptForm
          userId={userId}
          receipt={receipt}
          items={items}
          merchants={merchants}
          onReload={onReload}
          onDone={onDone}
        />
        <MoveReceipt userId={userId} receipt={receipt} merchants={merchants} onReload={onReload} />
      </div>
    </div>
  );
}

function ReceiptForm({
  userId,
  receipt,
  items,
  merchants,
  onReload,
  onDone,
}: Omit<ReceiptEditorProps, 'image'>) {
  const styles = useStyles();
  const id = useId();
  const save = useSaveReceipt(userId);
  const brands = useBrandOptions(userId, true);
  const owners = useMemo(() => {
    const map = new Map<string, string | null>();
    for (const b of brands.data ?? []) map.set(b.name.toLowerCase(), b.owning_corporation);
    return map;
  }, [brands.data]);
  // What the edit started from: its etag goes with the save, and a change elsewhere is told from it.
  const [base, setBase] = useState({ receipt, items });
  const [values, setValues] = useState(() => fieldValues(receipt));
  const [rows, setRows] = useState(() => itemRows(items));
  const [newRows, setNewRows] = useState(0);
  const [notes, setNotes] = useState<ConflictNote[] | null>(null);
  const [saved, setSaved] = useState(false);
  const [timeError, setTimeError] = useState<string | null>(null);

  const initial = useMemo(() => fieldValues(base.receipt), [base.receipt]);
  const dirty =
    RECEIPT_FIELDS.some(({ key }) => values[key] !== initial[key]) || !rowsUnchanged(rows, base.items);

  // New values from the server: after this form's own save (its answer names the new etag), or
  // from elsewhere (another tab, a 409's reload). A form with no edit, or just saved, takes them; an
  // edit is kept and brought onto them.
  const savedEtag = save.data && 'etag' in save.data ? save.data.etag : null;
  if (!save.isPending && receipt.etag !== base.receipt.etag) {
    if (savedEtag === receipt.etag || !dirty) {
      setBase({ receipt, items });
      setValues(fieldValues(receipt));
      setRows(itemRows(items));
      setNotes(null);
    } else {
      const merged = rebase(base, { receipt, items }, values, rows);
      setBase({ receipt, items });
      setValues(merged.values);
      setRows(merged.rows);
      setNotes(merged.notes);
      setSaved(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, unknown> = {};
    for (const { key, kind } of RECEIPT_FIELDS) {
      if (values[key] === initial[key]) continue;
      const text = values[key].trim();
      if (kind === 'time') {
        const time = parseTimeText(text);
        if (time === undefined) {
          setTimeError(`Write the time like ${timeExample()}.`);
          return;
        }
        changes[key] = time;
      } else {
        changes[key] =
          kind === 'amount' ? numberInput(text) : text === '' && key !== 'merchant_name' ? null : text;
      }
    }
    setTimeError(null);
    const itemsChanged = !rowsUnchanged(rows, base.items);
    if (Object.keys(changes).length === 0 && !itemsChanged) {
      onDone();
      return;
    }
    setSaved(false);
    save.mutate(
      {
        receiptId: base.receipt.receipt_id,
        etag: base.receipt.etag ?? '',
        changes,
        ...(itemsChanged
          ? {
              items: rows
                .filter((r) => !r.removed)
                .map((r) => ({
                  ...(r.itemId ? { itemId: r.itemId } : {}),
                  item: {
                    description: r.values.description,
                    quantity: numberInput(r.values.quantity),
                    unit_price: numberInput(r.values.unit_price),
                    total_price: numberInput(r.values.total_price),
                    brand: r.values.brand.trim() || null,
                  },
                })),
            }
          : {}),
      },
      {
        onSuccess: () => {
          setSaved(true);
          setNotes(null);
        },
        // Changed elsewhere: load the new values; the edit is kept and brought onto them.
        onError: (error) => {
          if (isStale(error)) onReload();
        },
      },
    );
  }

  const setRow = (key: string, change: (row: ItemRowState) => ItemRowState) =>
    setRows((all) => all.map((r) => (r.key === key ? change(r) : r)));
  const kept = rows.filter((r) => !r.removed);
  const itemsTotal = kept.reduce((sum, r) => {
    const value = numberInput(r.values.total_price);
    return sum + (typeof value === 'number' ? value : 0);
  }, 0);
  const total = numberInput(values.total_amount);
  const stale = isStale(save.error);

  return (
    <form aria-label="Edit receipt" onSubmit={onSubmit} className={styles.forms}>
      {notes && (
        <MessageBar intent="warning" layout="multiline" aria-label="Changed elsewhere">
          <MessageBarBody>
            <MessageBarTitle>Changed elsewhere while you were editing</MessageBarTitle>
            Your changes are kept.{' '}
            {notes.length > 0
              ? 'Check what changed, then save again to apply yours.'
              : 'Nothing shown here changed; save again to apply yours.'}
            {notes.length > 0 && (
              <ul className={styles.notes}>
                {notes.map((n) => (
                  <li key={n.label}>
                    {n.label}: {n.before || 'empty'} → {n.after || 'empty'}
                    {n.yours !== undefined && ` (yours kept: ${n.yours || 'empty'})`}
                  </li>
                ))}
              </ul>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Receipt</legend>
        <div className={styles.fields}>
          {RECEIPT_FIELDS.map(({ key, label, kind }) => (
            <Field
              key={key}
              label={label}
              className={key === 'merchant_name' ? styles.wide : undefined}
              validationMessage={kind === 'time' ? (timeError ?? undefined) : undefined}
              hint={kind === 'time' ? `e.g. ${timeExample()}` : undefined}
            >
              <Input
                className={styles.input}
                name={key}
                value={values[key]}
                onChange={(_, data) => setValues((v) => ({ ...v, [key]: data.value }))}
                type={kind === 'date' ? 'date' : 'text'}
                inputMode={kind === 'amount' ? 'decimal' : undefined}
                list={
                  key === 'merchant_name'
                    ? `${id}-merchants`
                    : key === 'currency_code'
                      ? `${id}-currencies`
                      : undefined
                }
                autoComplete="off"
                autoCapitalize={key === 'currency_code' ? 'characters' : undefined}
                maxLength={key === 'currency_code' ? 3 : 200}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      <datalist id={`${id}-merchants`}>
        {merchants.map((m) => (
          <option key={m.merchant_id} value={m.name} />
        ))}
      </datalist>
      <datalist id={`${id}-currencies`}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <datalist id={`${id}-brands`}>
        {(brands.data ?? []).map((b: BrandOption) => (
          <option key={b.name} value={b.name}>
            {b.owning_corporation ?? ''}
          </option>
        ))}
      </datalist>
      <fieldset className={styles.fieldset} aria-label="Items">
        <legend className={styles.legend}>Items</legend>
        <div className={styles.itemList}>
          {rows.map((row) => (
            <ItemFields
              key={row.key}
              row={row}
              brandList={`${id}-brands`}
              owners={owners}
              onChange={(values) => setRow(row.key, (r) => ({ ...r, values }))}
              onRemove={() =>
                row.itemId
                  ? setRow(row.key, (r) => ({ ...r, removed: !r.removed }))
                  : setRows((all) => all.filter((r) => r.key !== row.key))
              }
            />
          ))}
        </div>
        <div className={styles.buttons}>
          <Button
            type="button"
            icon={<Add24Regular />}
            onClick={() => {
              const label = `New item ${newRows + 1}`;
              setRows((all) => [
                ...all,
                { key: `new-${newRows}`, label, values: itemValues(), removed: false },
              ]);
              setNewRows((n) => n + 1);
            }}
          >
            Add item
          </Button>
          <span role="status">
            Items add up to {amountText(itemsTotal)} {values.currency_code}
            {typeof total === 'number'
              ? Math.abs(total - itemsTotal) < 0.005
                ? ' — matches the total.'
                : ` — the total is ${amountText(total)}.`
              : ''}
          </span>
        </div>
      </fieldset>
      <div className={styles.saveBar}>
        <Button type="submit" appearance="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
        {saved && !save.isPending && !dirty && <span role="status">Saved.</span>}
      </div>
      {save.error && !stale ? <EditError error={save.error} onReload={onReload} /> : null}
      {stale && !notes && <Spinner size="tiny" label="Changed elsewhere: loading the new values…" />}
    </form>
  );
}

/** A save refused because the receipt changed since the form read it (not one refused for another reason). */
const isStale = (error: unknown) => error instanceof ApiError && error.code === 'StaleEdit';

const CURRENCIES = [
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
];

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

function ItemFields({
  row,
  brandList,
  owners,
  onChange,
  onRemove,
}: {
  row: ItemRowState;
  brandList: string;
  owners: Map<string, string | null>;
  onChange: (values: ItemValues) => void;
  onRemove: () => void;
}) {
  const styles = useStyles();
  const { values, label } = row;
  const set = (key: keyof ItemValues) => (_: unknown, data: { value: string }) =>
    onChange({ ...values, [key]: data.value });
  const owner = values.brand ? owners.get(values.brand.trim().toLowerCase()) : undefined;
  const name = values.description || label;
  if (row.removed) {
    return (
      <div role="group" aria-label={label} className={mergeClasses(styles.item, styles.removed)}>
        <span className={styles.description}>
          <s>{name}</s> — removed when you save
        </span>
        <Button type="button" icon={<ArrowUndo24Regular />} onClick={onRemove}>
          Keep {name}
        </Button>
      </div>
    );
  }
  return (
    <div role="group" aria-label={label} className={styles.item}>
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
      <Button
        type="button"
        appearance="subtle"
        icon={<Delete24Regular />}
        aria-label={`Remove ${name}`}
        title="Remove this item (when you save)"
        onClick={onRemove}
        className={styles.remove}
      />
    </div>
  );
}

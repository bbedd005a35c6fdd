import type { AnalyzeExpenseResponse, Block, ExpenseField, LineItemFields } from '@aws-sdk/client-textract';

/** Options of one synthetic expense field. */
export interface FieldOptions {
  label?: string;
  /** 0..100, as Textract reports it. */
  confidence?: number;
  currency?: string;
  /** e.g. 'VENDOR' or 'RECEIVER' */
  group?: string;
  page?: number;
  /** Top of the value's bounding box (0..1); no geometry at all when omitted. */
  top?: number;
}

/** One SummaryFields / LineItemExpenseFields entry shaped as AnalyzeExpense returns it. */
export function field(type: string, value: string, options: FieldOptions = {}): ExpenseField {
  const confidence = options.confidence ?? 99;
  return {
    Type: { Text: type, Confidence: confidence },
    ...(options.label === undefined
      ? {}
      : { LabelDetection: { Text: options.label, Confidence: confidence } }),
    ValueDetection: {
      Text: value,
      Confidence: confidence,
      ...(options.top === undefined
        ? {}
        : { Geometry: { BoundingBox: { Top: options.top, Left: 0.1, Width: 0.3, Height: 0.02 } } }),
    },
    PageNumber: options.page ?? 1,
    ...(options.currency === undefined ? {} : { Currency: { Code: options.currency, Confidence: 90 } }),
    ...(options.group === undefined
      ? {}
      : { GroupProperties: [{ Types: [options.group], Id: `g-${options.group}` }] }),
  };
}

/** One line item from its fields: `[type, value]` pairs; an EXPENSE_ROW of the values is added. */
export function lineItem(...pairs: Array<[string, string] | ExpenseField>): LineItemFields {
  const fields = pairs.map((p) => (Array.isArray(p) ? field(p[0], p[1]) : p));
  const hasRow = fields.some((f) => f.Type?.Text === 'EXPENSE_ROW');
  const row = fields.map((f) => f.ValueDetection?.Text ?? '').join(' ');
  return { LineItemExpenseFields: hasRow ? fields : [...fields, field('EXPENSE_ROW', row)] };
}

/** One expense document of a response. */
export interface DocumentSpec {
  summary?: ExpenseField[];
  items?: LineItemFields[];
  /** Text lines of the document (LINE blocks). */
  lines?: string[];
}

/** A whole AnalyzeExpense response with the given documents. */
export function expenseResponse(...documents: DocumentSpec[]): AnalyzeExpenseResponse {
  return {
    DocumentMetadata: { Pages: Math.max(1, documents.length) },
    ExpenseDocuments: documents.map((doc, index) => ({
      ExpenseIndex: index + 1,
      SummaryFields: doc.summary ?? [],
      LineItemGroups: doc.items ? [{ LineItemGroupIndex: 1, LineItems: doc.items }] : [],
      ...(doc.lines
        ? { Blocks: doc.lines.map((text, i): Block => ({ BlockType: 'LINE', Text: text, Id: `line-${i}` })) }
        : {}),
    })),
  };
}

import { ValidationError } from '@receipts/core';
import { describe, expect, it } from 'vitest';
import { ITEM_RULES, amountsToSum, cleanText, mapAnalyzeExpense } from '../src';
import { expenseResponse, field, lineItem } from './expense-builder';

const item = (description: string, price: string) => lineItem(['ITEM', description], ['PRICE', price]);

describe('mapAnalyzeExpense: the total', () => {
  it('takes the total, not the subtotal, the tax or the tender', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('SUBTOTAL', '$1699.96', { label: 'SUBTOTAL' }),
          field('TAX', '$110.50', { label: 'TAX' }),
          field('AMOUNT_PAID', '$2000.00', { label: 'CASH' }),
          field('TOTAL', '$1810.46', { label: 'TOTAL' }),
          field('OTHER', '189.54', { label: 'CHANGE DUE' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(1810.46);
    expect(r.receipt.subtotal).toBe(1699.96);
    expect(r.receipt.total_tax).toBe(110.5);
  });

  it('picks the amount paid among several TOTAL fields', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '$75.00', { label: 'Total Charges' }),
          field('TOTAL', '$0.00', { label: 'Balance' }),
          field('TOTAL', '$12.00', { label: 'Total Savings' }),
          field('TOTAL', '$63.00', { label: 'Total Paid' }),
          field('TOTAL', '$60.00', { label: 'Subtotal' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(63);
  });

  it('prefers the amount due to gross charges on a statement', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '$5,680.81', { label: 'Charges' }),
          field('TOTAL', '$4,544.65', { label: 'AMOUNT DUE' }),
          field('DISCOUNT', '$-1,136.16', { label: 'Adjustments' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(4544.65);
  });

  it('uses the tender only when nothing better is printed', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({ summary: [field('AMOUNT_PAID', '38.48', { label: 'TEND' })] }),
    );
    expect(r.receipt.total_amount).toBe(38.48);
  });

  it('breaks ties between equal labels by the value printed lowest on the page', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '10.00', { label: 'TOTAL', top: 0.7 }),
          field('TOTAL', '9.50', { label: 'TOTAL', top: 0.8 }),
          field('TOTAL', '12.00', { label: 'TOTAL', top: 0.5 }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(9.5);
  });

  it('breaks ties by the value printed most often, then the last one without geometry', () => {
    const repeated = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('TOTAL', '10.00'), field('TOTAL', '9.50'), field('TOTAL', '10.00')],
      }),
    );
    expect(repeated.receipt.total_amount).toBe(10);
    const last = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '10.00'), field('TOTAL', '9.50')] }),
    );
    expect(last.receipt.total_amount).toBe(9.5);
  });

  it('takes a subtotal for the total only as thin evidence when no total is printed', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({ summary: [field('SUBTOTAL', '12.00', { label: 'SUBTOTAL' })] }),
    );
    expect(r.receipt.total_amount).toBe(12);
    expect(r.receipt.subtotal).toBe(12);
    expect(r.confidence['receipt.total_amount']).toBeLessThan(0.5);
  });

  it('skips totals that are not amounts', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('TOTAL', 'SEE OVERLEAF', { label: 'TOTAL' }), field('TOTAL', '4.20')],
      }),
    );
    expect(r.receipt.total_amount).toBe(4.2);
  });
});

describe('mapAnalyzeExpense: the total by evidence', () => {
  it('takes the total the tender minus the change agrees with over a tender, whatever the labels', () => {
    // The total's label reads as a tax line; the cash is typed as the total.
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '50.00', { label: 'CASH' }),
          field('TOTAL', '15.90', { label: 'GST 0% Total Incl.' }),
          field('OTHER', '34.10', { label: 'CHANGE' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(15.9);
    expect(r.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.9);
    expect(r.contradicted).toBeUndefined();
  });

  it('takes the amount with tax over a payment line whose label has "total" in it', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('SUBTOTAL', '15.00', { label: 'Sub Total' }),
          field('TAX', '0.90', { label: 'GST 6%' }),
          field('TOTAL', '15.90', { label: 'Total Incl GST' }),
          field('AMOUNT_PAID', '20.00', { label: 'Total Cash' }),
          field('OTHER', '4.10', { label: 'Change' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(15.9);
    expect(r.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.97);
  });

  it('flags the receipt when the printed total is unreadable, rather than passing the tender off', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('SUBTOTAL', '33.92', { label: 'SUBTOTAL' }),
          field('TOTAL', '', { label: 'TOTAL' }),
          field('AMOUNT_PAID', '50.00', { label: 'CASH' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(33.92);
    expect(r.confidence['receipt.total_amount']).toBeLessThan(0.5);
  });

  it('records a total that the tender minus the change contradicts', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '18.40', { label: 'TOTAL' }),
          field('AMOUNT_PAID', '20.00', { label: 'CASH' }),
          field('OTHER', '4.60', { label: 'CHANGE' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(18.4);
    expect(r.contradicted).toEqual(['receipt.total_amount']);
    expect(r.confidence['receipt.total_amount']).toBeLessThanOrEqual(0.3);
  });
});

describe('mapAnalyzeExpense: amounts and currency', () => {
  it.each([
    ['$1,810.46', 1810.46],
    ['1.810,46 €', 1810.46],
    ['12.50\nUSD', 12.5],
    ['1810.46', 1810.46],
    ['RM 1,810.46', 1810.46],
  ])('reads the total %j', (text, value) => {
    expect(mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', text)] })).receipt.total_amount).toBe(
      value,
    );
  });

  it("takes the currency from Textract's Currency code first", () => {
    const r = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '$12.00', { currency: 'CAD' })] }),
    );
    expect(r.receipt.currency_code).toBe('CAD');
  });

  it('takes the currency from a printed sign or code otherwise', () => {
    const euro = mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '1.810,46 €')] }));
    expect(euro.receipt.currency_code).toBe('EUR');
    const code = mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '12.50\nUSD')] }));
    expect(code.receipt.currency_code).toBe('USD');
    const ringgit = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '8.60'), field('TAX', 'RM 0.49', { label: 'GST' })] }),
    );
    expect(ringgit.receipt.currency_code).toBe('MYR');
  });

  it('leaves the currency unknown without a sign, and reads a bare $ only with the country', () => {
    expect(
      mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '12.00')] })).receipt.currency_code,
    ).toBeNull();
    expect(
      mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '$12.00')] })).receipt.currency_code,
    ).toBeNull();
    const us = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '$12.00'), field('COUNTRY', 'USA', { group: 'VENDOR' })] }),
    );
    expect(us.receipt.currency_code).toBe('USD');
    expect(us.receipt.country_region).toBe('US');
  });
});

describe('mapAnalyzeExpense: merchant', () => {
  it('joins multi-line values and drops punctuation-only lines', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('NAME', 'META\n-', { group: 'VENDOR' }),
          field('STREET', 'Suite 8\n611 Maine St', { group: 'RECEIVER' }),
          field('STREET', '154-164 The Embarcadero,', { group: 'VENDOR' }),
          field('CITY', 'San Francisco,', { group: 'VENDOR' }),
          field('ZIP_CODE', '94105', { group: 'VENDOR' }),
          field('VENDOR_PHONE', '(1) 555-123-1234', { label: 'Tel:' }),
        ],
      }),
    );
    expect(r.merchant).toEqual({
      name: 'META',
      phone_number: '(1) 555-123-1234',
      postal_code: '94105',
      city: 'San Francisco',
      street_address: '154-164 The Embarcadero',
    });
  });

  it('takes the most confident vendor name and never the receiver', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('NAME', 'Ronald Davis', { group: 'RECEIVER', confidence: 99.9 }),
          field('VENDOR_NAME', 'MEGA BIGBOK', { confidence: 99.68 }),
          field('VENDOR_NAME', 'MEGA MARKET PLUS', { confidence: 99.97 }),
        ],
      }),
    );
    expect(r.merchant.name).toBe('MEGA MARKET PLUS');
    expect(r.confidence['merchant.name']).toBeCloseTo(0.9997, 4);
  });

  it("falls back to the vendor's web domain, and to address parts inside the vendor address", () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('STREET', '789 Another Avenue'),
          field('CITY', 'Different City,'),
          field('NAME', 'XZY Company'),
          field('STREET', '123 Some Street'),
          field('CITY', 'Some City,'),
          field('VENDOR_ADDRESS', '123 Some Street\nSome City, XYZ, USA'),
          field('RECEIVER_NAME', 'XZY Company'),
          field('VENDOR_URL', 'https: //www.amazon.com'),
          field('VENDOR_URL', 'Amazon.com'),
        ],
      }),
    );
    expect(r.merchant.name).toBe('Amazon.com');
    expect(r.merchant.street_address).toBe('123 Some Street');
    expect(r.merchant.city).toBe('Some City');
  });

  it('leaves what is not printed null', () => {
    const r = mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '1.00'), field('CITY', '')] }));
    expect(r.merchant).toEqual({
      name: null,
      phone_number: null,
      postal_code: null,
      city: null,
      street_address: null,
    });
  });
});

describe('mapAnalyzeExpense: dates and times', () => {
  it.each([
    ['01-Jan-2021', '2021-01-01'],
    ['12 March 2020', '2020-03-12'],
    ['01/13/17', '2017-01-13'],
    ['25/12/2018', '2018-12-25'],
    ['2019-12-07', '2019-12-07'],
  ])('reads %j', (text, iso) => {
    const r = mapAnalyzeExpense(expenseResponse({ summary: [field('INVOICE_RECEIPT_DATE', text)] }));
    expect(r.receipt.transaction_date).toBe(iso);
  });

  it('says whether the receipt prints a date at all, read or not', () => {
    const printed = (...summary: ReturnType<typeof field>[]) =>
      mapAnalyzeExpense(expenseResponse({ summary: [field('TOTAL', '28,000'), ...summary] }));
    // A restaurant bill with a queue number and a time, but no date: the upload day may stand in.
    const none = printed(field('OTHER', '102', { label: 'Queue No:' }), field('OTHER', '12:41'));
    expect(none.receipt.transaction_date).toBeNull();
    expect(none.prints_date).toBe(false);
    // A date printed but unreadable, or only labelled: the receipt must be asked about.
    const garbled = printed(field('INVOICE_RECEIPT_DATE', '3l/O2/2O1'));
    expect(garbled.receipt.transaction_date).toBeNull();
    expect(garbled.prints_date).toBe(true);
    expect(printed(field('OTHER', '31/13/2019', { label: 'Tgl' })).prints_date).toBe(true);
    expect(printed(field('INVOICE_RECEIPT_DATE', '25/12/2018')).prints_date).toBe(true);
  });

  it('reads ambiguous dates month first for US documents', () => {
    const byCurrency = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('INVOICE_RECEIPT_DATE', '12/07/2019'), field('TOTAL', '$1.00', { currency: 'USD' })],
      }),
    );
    expect(byCurrency.receipt.transaction_date).toBe('2019-12-07');
    const byCountry = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('INVOICE_RECEIPT_DATE', '12/07/2019'),
          field('COUNTRY', 'United States', { group: 'VENDOR' }),
        ],
      }),
    );
    expect(byCountry.receipt.transaction_date).toBe('2019-12-07');
    const elsewhere = mapAnalyzeExpense(
      expenseResponse({ summary: [field('INVOICE_RECEIPT_DATE', '12/07/2019'), field('TOTAL', '€1.00')] }),
    );
    expect(elsewhere.receipt.transaction_date).toBe('2019-07-12');
  });

  it('reads the order from another date on the document that proves it', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('INVOICE_RECEIPT_DATE', '01/02/2021'), field('DUE_DATE', '01/31/2021')],
      }),
    );
    expect(r.receipt.transaction_date).toBe('2021-01-02');
  });

  it('falls back to an OTHER field labelled as a date, but not a birth or due date', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('OTHER', '1983-12-02', { label: 'Date of Birth' }),
          field('OTHER', 'April 1, 2021', { label: 'Payment Due Date' }),
          field('OTHER', 'March 12, 2019', { label: 'Date of Visit' }),
        ],
      }),
    );
    expect(r.receipt.transaction_date).toBe('2019-03-12');
    const inValue = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('OTHER', 'Due Date 10/15/10 Statement Date 09/30/10', { label: 'ACCOUNT SUMMARY' })],
      }),
    );
    expect(inValue.receipt.transaction_date).toBe('2010-09-30');
  });

  it("takes the time from the date field or the document's text lines", () => {
    const inField = mapAnalyzeExpense(
      expenseResponse({ summary: [field('INVOICE_RECEIPT_DATE', '2019-12-07 14:05')] }),
    );
    expect(inField.receipt.transaction_time).toBe('14:05:00');
    const inLines = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('INVOICE_RECEIPT_DATE', '12/07/2019')],
        lines: ['TOTAL $1810.46', '12/07/2019', '12:22 PM'],
      }),
    );
    expect(inLines.receipt.transaction_time).toBe('12:22:00');
    expect(mapAnalyzeExpense(expenseResponse({ summary: [] })).receipt.transaction_time).toBeNull();
    const sameLine = mapAnalyzeExpense(
      expenseResponse({ lines: ['OPEN 08:00-22:00', 'DATE 07/12/2019 18:05:33'] }),
    );
    expect(sameLine.receipt.transaction_time).toBe('18:05:33');
    const hoursOnly = mapAnalyzeExpense(
      expenseResponse({ lines: ['OPEN DAILY 08:00 - 22:00', 'TOTAL 4.00'] }),
    );
    expect(hoursOnly.receipt.transaction_time).toBeNull();
  });
});

describe('mapAnalyzeExpense: taxes', () => {
  it('lists each tax line with its rate and sums them', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TAX', '€0.30', { label: 'BTW 6%', top: 0.6 }),
          field('TAX', '€2.10', { label: 'BTW 21%', top: 0.62 }),
          field('TAX', '€0.30', { label: 'BTW 6%', top: 0.6 }),
        ],
      }),
    );
    expect(r.taxes).toEqual([
      { description: 'BTW 6%', rate: 6, amount: 0.3 },
      { description: 'BTW 21%', rate: 21, amount: 2.1 },
    ]);
    expect(r.receipt.total_tax).toBe(2.4);
  });

  it('takes a total tax line as the total tax', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TAX', '1.00', { label: 'VAT A' }),
          field('TAX', '2.00', { label: 'VAT B' }),
          field('TAX', '3.00', { label: 'TOTAL VAT' }),
        ],
      }),
    );
    expect(r.receipt.total_tax).toBe(3);
  });

  it('reads a rate printed in the value', () => {
    const r = mapAnalyzeExpense(expenseResponse({ summary: [field('TAX', '6% 0.49', { label: 'SST' })] }));
    expect(r.taxes).toEqual([{ description: 'SST', rate: 6, amount: 0.49 }]);
  });
});

describe('mapAnalyzeExpense: line items', () => {
  it('maps items with and without quantity and unit price', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(['ITEM', 'Product 1'], ['QUANTITY', '1'], ['UNIT_PRICE', '$1000'], ['PRICE', '$1000']),
          lineItem(['ITEM', 'Service 3'], ['OTHER', ''], ['UNIT_PRICE', '$2789'], ['PRICE', '$2789']),
          lineItem(['ITEM', 'Product 2'], ['QUANTITY', '2'], ['UNIT_PRICE', '$106.04'], ['PRICE', '$212.08']),
          item('KS BUTTER', '10.39'),
          lineItem(
            ['ITEM', 'J&JCHIZ CURLS 55G'],
            ['PRICE', '43.00 V'],
            ['QUANTITY', '2'],
            ['UNIT_PRICE', 'P21.50/Unit'],
          ),
        ],
      }),
    );
    expect(
      r.items.map(({ description, quantity, unit_price, total_price }) => [
        description,
        quantity,
        unit_price,
        total_price,
      ]),
    ).toEqual([
      ['Product 1', 1, 1000, 1000],
      ['Service 3', 1, 2789, 2789],
      ['Product 2', 2, 106.04, 212.08],
      ['KS BUTTER', null, null, 10.39],
      ['J&JCHIZ CURLS 55G', 2, 21.5, 43],
    ]);
  });

  it('joins multi-line descriptions', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          item(
            'ACP101T Online Training\nHours of Training in Premier Version Interactive\n-\nDemos',
            '$495.00',
          ),
        ],
      }),
    );
    expect(r.items[0]).toMatchObject({
      description: 'Online Training Hours of Training in Premier Version Interactive - Demos',
      product_identifier: 'ACP101T',
    });
  });

  it("takes the item's own product code and removes it from the description", () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(
            field('PRODUCT_CODE', '04800016561856'),
            field('ITEM', 'NOVA CNTRY CHED160G'),
            field('PRICE', '72.00 y'),
            field('PRODUCT_CODE', '04800016666407'),
            field(
              'EXPENSE_ROW',
              'NOVA CNTRY CHED160G 72.00 y\n04800016666407\nNSSNRMNGRPRKINKTS600 04800016561856',
            ),
          ),
          lineItem(
            ['ITEM', 'Pf CB210G 2S SLTSVR\n04808887290370'],
            ['PRICE', '206.00 V'],
            ['PRODUCT_CODE', '04808887290370'],
          ),
        ],
      }),
    );
    expect(r.items[0]).toMatchObject({
      description: 'NOVA CNTRY CHED160G',
      product_identifier: '04800016666407',
      total_price: 72,
    });
    expect(r.items[1]).toMatchObject({
      description: 'Pf CB210G 2S SLTSVR',
      product_identifier: '04808887290370',
    });
  });

  it('computes a missing line price from quantity and unit price', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({ items: [lineItem(['ITEM', 'MILK'], ['QUANTITY', '3'], ['UNIT_PRICE', '1.15'])] }),
    );
    expect(r.items[0]).toMatchObject({ quantity: 3, unit_price: 1.15, total_price: 3.45 });
  });

  it('uses DESCRIPTION and a line TOTAL when there is no ITEM or PRICE, and the row as a last resort', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(['DESCRIPTION', 'Chiropractic treatment'], ['TOTAL', '$60.00'], ['QUANTITY', '1.00']),
          lineItem(['PRICE', '2.50'], ['EXPENSE_ROW', 'BREAD 2.50']),
          lineItem(['OTHER', ''], ['EXPENSE_ROW', '']),
        ],
      }),
    );
    expect(r.items).toHaveLength(2);
    expect(r.items[0]).toMatchObject({ description: 'Chiropractic treatment', quantity: 1, total_price: 60 });
    expect(r.items[1]).toMatchObject({ description: 'BREAD', total_price: 2.5 });
  });

  it('keeps negative lines such as discounts', () => {
    const r = mapAnalyzeExpense(expenseResponse({ items: [item('ADJUSTMENT', '-242.00')] }));
    expect(r.items[0]!.total_price).toBe(-242);
  });

  it('gives each item its confidences', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(field('ITEM', 'TEA', { confidence: 88 }), field('PRICE', '2.00', { confidence: 77 })),
        ],
      }),
    );
    expect(r.confidence['items.0.description']).toBeCloseTo(0.88);
    expect(r.confidence['items.0.total_price']).toBeCloseTo(0.77);
  });
});

describe('mapAnalyzeExpense: the whole result', () => {
  it('maps a response with no summary fields from its line items alone', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({ items: [item('GLUEBRD PFANUT4PCS', '127.50 V'), item('MMS OYSTER SCE', '67.25 V')] }),
    );
    expect(r.merchant.name).toBeNull();
    expect(r.receipt.total_amount).toBeNull();
    expect(r.receipt.total_checks_out).toBe(false);
    expect(r.items.map((i) => i.total_price)).toEqual([127.5, 67.25]);
  });

  it('works without any geometry', () => {
    const r = mapAnalyzeExpense({
      ExpenseDocuments: [
        {
          SummaryFields: [{ Type: { Text: 'TOTAL' }, ValueDetection: { Text: '3.00' } }],
          LineItemGroups: [
            {
              LineItems: [
                { LineItemExpenseFields: [{ Type: { Text: 'ITEM' }, ValueDetection: { Text: 'X' } }] },
              ],
            },
          ],
        },
      ],
    });
    expect(r.receipt.total_amount).toBe(3);
    expect(r.items).toEqual([
      { description: 'X', quantity: null, unit_price: null, total_price: null, product_identifier: null },
    ]);
    // No engine confidence at all: the total found starts at the default of an unchecked total.
    expect(r.confidence).toEqual({ 'receipt.total_amount': 0.7 });
  });

  it('says whether the lines plus tax add up to the total', () => {
    const ok = mapAnalyzeExpense(
      expenseResponse({
        summary: [field('TOTAL', '11.00'), field('TAX', '1.00')],
        items: [item('A', '4.00'), item('B', '6.00')],
      }),
    );
    expect(ok.receipt.total_checks_out).toBe(true);
    const off = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '12.00')], items: [item('A', '4.00')] }),
    );
    expect(off.receipt.total_checks_out).toBe(false);
  });

  it('tells invoices from receipts', () => {
    const invoice = mapAnalyzeExpense(
      expenseResponse({ summary: [field('INVOICE_RECEIPT_ID', '123PQR456', { label: 'INVOICE #' })] }),
    );
    expect(invoice.receipt.doc_type).toBe('invoice');
    const receipt = mapAnalyzeExpense(
      expenseResponse({ summary: [field('INVOICE_RECEIPT_ID', '21772', { label: 'TR#' })] }),
    );
    expect(receipt.receipt.doc_type).toBe('receipt');
  });

  it('keeps the whole response as raw and names the analyzer', () => {
    const response = expenseResponse({ summary: [field('TOTAL', '1.00', { confidence: 95.5 })] });
    const r = mapAnalyzeExpense(response);
    expect(r.analyzer).toBe('textract');
    expect(r.raw).toBe(response);
    // A total nothing else on the receipt confirms keeps the reading's confidence, at most 0.8.
    expect(r.confidence['receipt.total_amount']).toBeCloseTo(0.8);
  });

  it('refuses what is not an AnalyzeExpense response, with a clear message', () => {
    for (const input of [null, 'text', [], { Blocks: [] }, { ExpenseDocuments: 'no' }]) {
      expect(() => mapAnalyzeExpense(input)).toThrow(ValidationError);
    }
    expect(() => mapAnalyzeExpense({})).toThrow(/not an Amazon Textract AnalyzeExpense response/);
  });

  it('maps an empty document list to an empty result', () => {
    const r = mapAnalyzeExpense({ ExpenseDocuments: [] });
    expect(r.items).toEqual([]);
    expect(r.receipt.total_amount).toBeNull();
  });
});

describe('mapAnalyzeExpense: several documents', () => {
  const page = (n: number, extra: ReturnType<typeof field>[], items: string[][]) => ({
    summary: [field('VENDOR_NAME', 'META', { page: n }), ...extra],
    items: items.map(([d, p]) => item(d!, p!)),
  });

  it('merges the pages of one invoice: items in order, the total from the last page', () => {
    const r = mapAnalyzeExpense(
      expenseResponse(
        page(
          1,
          [field('INVOICE_RECEIPT_ID', '00000135'), field('INVOICE_RECEIPT_DATE', '12 March 2020')],
          [['A', '$1,350.00']],
        ),
        page(
          2,
          [field('INVOICE_RECEIPT_ID', '00000135', { page: 2 }), field('TOTAL', '$1,570.00', { page: 2 })],
          [['B', '$220.00']],
        ),
      ),
    );
    expect(r.items.map((i) => i.description)).toEqual(['A', 'B']);
    expect(r.receipt.total_amount).toBe(1570);
    expect(r.receipt.transaction_date).toBe('2020-03-12');
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('leaves out a document of another receipt, and merges a continuation page', () => {
    const r = mapAnalyzeExpense(
      expenseResponse(
        { summary: [field('VENDOR_NAME', 'TESCO'), field('TOTAL', '5.00')], items: [item('TEA', '5.00')] },
        { summary: [field('VENDOR_NAME', 'LIDL'), field('TOTAL', '9.99')], items: [item('COFFEE', '9.99')] },
        { items: [item('MILK', '1.00')] },
      ),
    );
    expect(r.merchant.name).toBe('TESCO');
    expect(r.receipt.total_amount).toBe(5);
    expect(r.items.map((i) => i.description)).toEqual(['TEA', 'MILK']);
  });

  it('tells receipts apart by their ids before their vendor names', () => {
    const r = mapAnalyzeExpense(
      expenseResponse(
        {
          summary: [field('VENDOR_NAME', 'SHOP'), field('INVOICE_RECEIPT_ID', '1')],
          items: [item('A', '1.00')],
        },
        {
          summary: [field('VENDOR_NAME', 'SHOP'), field('INVOICE_RECEIPT_ID', '2')],
          items: [item('B', '2.00')],
        },
      ),
    );
    expect(r.items.map((i) => i.description)).toEqual(['A']);
  });
});

describe('cleanText', () => {
  it('joins lines and trims punctuation-only lines at the ends', () => {
    expect(cleanText('-\nPAYMENT SERVICE')).toBe('PAYMENT SERVICE');
    expect(cleanText('a\n\n  b  \n*')).toBe('a b');
    expect(cleanText(undefined)).toBe('');
  });
});

describe('mapAnalyzeExpense: malformed saved responses', () => {
  it('reads what it can and treats malformed parts as absent', () => {
    const r = mapAnalyzeExpense({
      ExpenseDocuments: [
        {
          SummaryFields: [
            'junk',
            { Type: { Text: 5 }, ValueDetection: { Text: 7 } },
            {
              Type: { Text: 'TOTAL' },
              ValueDetection: { Text: '4.00', Geometry: 'none' },
              GroupProperties: 'x',
            },
          ],
          LineItemGroups: [
            { LineItems: 'nope' },
            { LineItems: [{ LineItemExpenseFields: [null, { Type: {} }] }] },
          ],
          Blocks: {},
        },
        'not a document',
      ],
    });
    expect(r.receipt.total_amount).toBe(4);
    expect(r.items).toEqual([]);
  });
});

describe('mapAnalyzeExpense: receipt structure', () => {
  it('reads a "Total incl. GST" line as the total, not a tax', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('AMOUNT_PAID', '10.00', { label: 'CASH RM' }),
          field('TOTAL', 'RM 9.90', { label: 'Total Sales (Inclusive GST)' }),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(9.9);
  });

  it('takes the rounded total, and the tender minus change when it differs from the total by rounding', () => {
    const rounded = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('AMOUNT_PAID', 'RM 50.00', { label: 'CASH' }),
          field('OTHER', '-RM 0.02', { label: 'ROUNDING ADJUSTMENT' }),
          field('OTHER', 'RM 33.90', { label: 'TOTAL ROUNDED' }),
        ],
      }),
    );
    expect(rounded.receipt.total_amount).toBe(33.9);
    const paid = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('AMOUNT_PAID', '100.00', { label: 'CASH RM' }),
          field('TOTAL', '72.74', { label: 'Total' }),
          field('OTHER', 'RM 27.25', { label: 'CHANGE' }),
        ],
      }),
    );
    expect(paid.receipt.total_amount).toBe(72.75);
  });

  it('reads rupiah printed without minor units, and items with quantity x unit price', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('TOTAL', '28.000', { label: 'TOTAL SALES' }),
          field('AMOUNT_PAID', '0', { label: 'Total Kembalian' }),
          field('TAX', '2.545', { label: 'PB1 (10%)' }),
        ],
        items: [
          lineItem(
            ['ITEM', 'JASMINE TEA'],
            ['QUANTITY', '2x'],
            ['UNIT_PRICE', '@12.000'],
            ['PRICE', '24.000'],
          ),
          lineItem(['ITEM', 'EGG TART'], ['QUANTITY', 'i'], ['PRICE', '4,000']),
          lineItem(['ITEM', 'NATA DE COCO'], ['QUANTITY', '1'], ['PRICE', '0']),
          lineItem(['ITEM', 'DISKON (20%)'], ['PRICE', '800']),
        ],
      }),
    );
    expect(r.receipt.total_amount).toBe(28000);
    expect(r.receipt.total_tax).toBe(2545);
    expect(r.items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price])).toEqual([
      ['JASMINE TEA', 2, 12000, 24000],
      ['EGG TART', 1, 4000, 4000],
    ]);
  });

  it('names the trading company with its legal form, not the shop owner or the brand', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('VENDOR_NAME', 'AEON BANDAR PUCHONG', { confidence: 99.9 }),
          field('VENDOR_NAME', 'AEON CO. (M) BHD', { confidence: 96.9 }),
          field('TOTAL', '1.00'),
        ],
      }),
    );
    expect(r.merchant.name).toBe('AEON CO. (M) BHD');
    const owned = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('VENDOR_NAME', 'SANYU SUPPLY SDN BHD', { label: 'Owned By :' }),
          field('VENDOR_NAME', 'SANYU STATIONERY SHOP', { confidence: 85 }),
          field('TOTAL', '1.00'),
        ],
      }),
    );
    expect(owned.merchant.name).toBe('SANYU STATIONERY SHOP');
    const misread = mapAnalyzeExpense(
      expenseResponse({ summary: [field('VENDOR_NAME', '99 SPEED MART 5/8'), field('TOTAL', '1.00')] }),
    );
    expect(misread.merchant.name).toBe('99 SPEED MART S/B');
  });

  it('names the company printed apart over one that opens an address block (a former name, a licensor)', () => {
    const summary = [
      field('VENDOR_NAME', 'Golden Arches Restaurants Sdn Bhd', { confidence: 99.9 }),
      field('VENDOR_NAME', "McDonald's", { confidence: 99.8 }),
      field('VENDOR_NAME', 'Gerbang Alaf Restaurants Sdn Bhd', { confidence: 99.7 }),
      field('TOTAL', '8.50'),
    ];
    const block = field(
      'VENDOR_ADDRESS',
      "Golden Arches Restaurants Sdn Bhd\nLicensee of McDonald's\nLevel 6, Bangunan TH\n47400 Petaling Jaya",
    );
    expect(mapAnalyzeExpense(expenseResponse({ summary: [...summary, block] })).merchant.name).toBe(
      'Gerbang Alaf Restaurants Sdn Bhd',
    );
    // Without the address block to tell them apart, the surer reading.
    expect(mapAnalyzeExpense(expenseResponse({ summary })).merchant.name).toBe(
      'Golden Arches Restaurants Sdn Bhd',
    );
    // The only company opening the address block is still the company, over a brand.
    const only = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          field('VENDOR_NAME', 'KEDAI MAJU SDN BHD', { confidence: 90 }),
          field('VENDOR_NAME', 'MAJU MART', { confidence: 99.9 }),
          field('VENDOR_ADDRESS', 'KEDAI MAJU SDN BHD\nNO 5, JALAN MAWAR'),
          field('TOTAL', '1.00'),
        ],
      }),
    );
    expect(only.merchant.name).toBe('KEDAI MAJU SDN BHD');
  });

  it("completes a vendor name cut short of its legal form from the vendor address's first line", () => {
    const nameOf = (name: string, address: string) =>
      mapAnalyzeExpense(
        expenseResponse({
          summary: [field('VENDOR_NAME', name), field('VENDOR_ADDRESS', address), field('TOTAL', '1.00')],
        }),
      ).merchant.name;
    expect(
      nameOf('KEDAI MAJU CO.', 'KEDAI MAJU CO. (M) BHD (552210-K)\nNO 5, JALAN MAWAR\n43000 KAJANG'),
    ).toBe('KEDAI MAJU CO. (M) BHD');
    // A longer first line that adds no legal form is a branch or a street, not the name.
    expect(nameOf('KEDAI MAJU', 'KEDAI MAJU TAMAN MELAWATI\nNO 5, JALAN MAWAR')).toBe('KEDAI MAJU');
    expect(nameOf('KEDAI MAJU', 'KEDAI MAJUMAS SDN BHD\nNO 5, JALAN MAWAR')).toBe('KEDAI MAJU');
  });
});

describe('mapAnalyzeExpense: item rows', () => {
  it("reads back an item's misread amount from the subtotal when a figure on its row makes the items add up", () => {
    const items = (price: string, subtotal: string) =>
      mapAnalyzeExpense(
        expenseResponse({
          summary: [field('SUBTOTAL', subtotal, { label: 'Subtotal' }), field('TOTAL', '85.000')],
          items: [
            lineItem(['ITEM', '-TICKET CP'], ['QUANTITY', '2'], ['UNIT_PRICE', '60,000'], ['PRICE', price]),
            lineItem(['ITEM', 'POPCORN'], ['QUANTITY', '1'], ['UNIT_PRICE', '25,000'], ['PRICE', '25,000']),
          ],
        }),
      ).items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price]);
    // `€0.000` for 60.000: the row's one price was the amount; the unit price is derived from it.
    expect(items('€0.000', '85.000')).toEqual([
      ['-TICKET CP', 2, 30000, 60000],
      ['POPCORN', 1, 25000, 25000],
    ]);
    // The quantity times the unit price, when that is what makes the items add up.
    expect(items('€0.000', '145.000')[0]).toEqual(['-TICKET CP', 2, 60000, 120000]);
    // No figure of the row makes them add up: the amount stays as read.
    expect(items('€0.000', '99.000')[0]).toEqual(['-TICKET CP', 2, 60000, 0]);
  });

  it('marks an amount read back from the arithmetic as unsure, and never reads one back from a total with tax', () => {
    const response = (summary: ReturnType<typeof field>[]) =>
      mapAnalyzeExpense(
        expenseResponse({
          summary,
          items: [
            lineItem(['ITEM', 'TICKET'], ['QUANTITY', '2'], ['UNIT_PRICE', '30.00'], ['PRICE', '€0.00']),
          ],
        }),
      );
    const repaired = response([field('TOTAL', '60.00', { confidence: 99 })]);
    expect(repaired.items[0]!.total_price).toBe(60);
    expect(repaired.confidence['items.0.total_price']).toBeLessThanOrEqual(0.5);
    // With tax, the total is no sum of the items: the amount stays as read.
    const taxed = response([field('TOTAL', '60.00'), field('TAX', '5.45', { label: 'TAX' })]);
    expect(taxed.items[0]!.total_price).toBe(0);
  });

  it('leaves discounts, uncounted rows and unread amounts as read', () => {
    const item = (quantity: number | null, unit: number | null, amount: number | null) => ({
      description: 'X',
      quantity,
      unit_price: unit,
      total_price: amount,
      product_identifier: null,
    });
    // A discount printed with its unit price positive: the subtotal before it is not the items' sum.
    const discount = [item(1, 5, -5), item(1, 10, 10)];
    expect(amountsToSum(discount, 15)).toBe(discount);
    // An unread amount may be what is missing.
    const unread = [item(3, 2, 5), item(1, 1, null)];
    expect(amountsToSum(unread, 6)).toBe(unread);
    const uncounted = [item(0, 5, 1)];
    expect(amountsToSum(uncounted, 5)).toBe(uncounted);
    // The repair itself, on the same shape.
    expect(amountsToSum([item(2, 30, 0), item(1, 10, 10)], 70)[0]).toMatchObject({ total_price: 60 });
  });

  it('keeps the lines of a name wrapped under its price line', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(
            ['ITEM', 'MIE GORENG SPECIAL\nPEDAS'],
            ['QUANTITY', '2'],
            ['PRICE', '56,000'],
            ['EXPENSE_ROW', 'MIE GORENG SPECIAL 2 56,000\nPEDAS'],
          ),
        ],
      }),
    );
    expect(r.items[0]!.description).toBe('MIE GORENG SPECIAL PEDAS');
  });

  /** A row printed as its name's lines with its figures under them, as the till prints it. */
  const rowUnderName = (name: string, quantity: string, unit: string, amount: string) =>
    lineItem(
      ['ITEM', name],
      ['QUANTITY', quantity],
      ['UNIT_PRICE', unit],
      ['PRICE', amount],
      ['EXPENSE_ROW', `${name}\n${quantity} ${unit} ${amount}`],
    );

  it("leaves the heading of a section of the item list out of the name of the section's first item", () => {
    const response = expenseResponse({
      items: [
        rowUnderName('Makanan\nNasi Goreng Kampung Spesi\nal', '1', '35.000', '35.000'),
        rowUnderName('Minuman\nEs Jeruk Nipis', '2', '8.000', '16.000'),
        rowUnderName('Es Teh Manis', '1', '5.000', '5.000'),
        // A name wrapped at the column's width keeps both lines.
        rowUnderName('Tahu Telor Petis Spesial\nPedas', '1', '20.000', '20.000'),
      ],
    });
    expect(mapAnalyzeExpense(response).items.map((i) => [i.description, i.quantity, i.total_price])).toEqual([
      ['Nasi Goreng Kampung Spesi al', 1, 35000],
      ['Es Jeruk Nipis', 2, 16000],
      ['Es Teh Manis', 1, 5000],
      ['Tahu Telor Petis Spesial Pedas', 1, 20000],
    ]);
    const asRead = mapAnalyzeExpense(response, { without: ['wrapped-name'] });
    expect(asRead.items[1]!.description).toBe('Minuman Es Jeruk Nipis');
  });

  it('keeps a heading-like first line that the name wrapped from, or that is longer than the line under it', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          rowUnderName('Chicken Teriyaki Rice Bowl\nLarge', '1', '45.000', '45.000'),
          rowUnderName('Ayam Bakar\nMadu', '1', '30.000', '30.000'),
        ],
      }),
    );
    expect(r.items.map((i) => i.description)).toEqual([
      'Chicken Teriyaki Rice Bowl Large',
      'Ayam Bakar Madu',
    ]);
  });

  it('ends the name with the line it wrapped to before its figures, when Textract left it out of ITEM', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(
            ['ITEM', 'CK901 FOOD CONTAINER 3 COMPARTMENT W/LI'],
            ['QUANTITY', '6 PCS'],
            ['UNIT_PRICE', '25.000'],
            ['PRICE', '150,000'],
            ['EXPENSE_ROW', 'CK901 FOOD CONTAINER 3 COMPARTMENT W/LI\nD\n6 PCS\n25.000 150,000'],
          ),
          // A short line that would have fitted on the name's line is no part of it.
          lineItem(
            ['ITEM', 'PAPER BAG'],
            ['QUANTITY', '1 PCS'],
            ['PRICE', '2,000'],
            ['EXPENSE_ROW', 'PAPER BAG\nfree\n1 PCS 2,000'],
          ),
        ],
      }),
    );
    expect(r.items.map((i) => [i.description, i.product_identifier, i.quantity, i.unit_price])).toEqual([
      ['FOOD CONTAINER 3 COMPARTMENT W/LI D', 'CK901', 6, 25000],
      ['PAPER BAG', null, 1, 2000],
    ]);
  });

  it('puts the pieces of a name read off a tilted line back in order when the row opens with its amount', () => {
    const tilted = (row: string) =>
      mapAnalyzeExpense(
        expenseResponse({
          items: [lineItem(['ITEM', 'TEA\nGREEN\nICED'], ['PRICE', '22,000'], ['EXPENSE_ROW', row])],
        }),
      ).items[0]!.description;
    expect(tilted('22,000\nTEA\nGREEN\nICED\n22,000')).toBe('ICED GREEN TEA');
    // The amount at the end of the row: the pieces are in reading order as they are.
    expect(tilted('TEA\nGREEN\nICED 22,000')).toBe('TEA GREEN ICED');
  });

  it('moves a stock code printed before the name to the product code, and keeps a code joined to the name', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(['ITEM', 'KTB220 BREAD KNIFE 20CM'], ['PRICE', '12.90']),
          lineItem(
            ['PRODUCT_CODE', '7002-Butter'],
            ['ITEM', '7002-Butter Cookies'],
            ['PRICE', '4.50'],
            ['EXPENSE_ROW', '7002-Butter Cookies\n4.50'],
          ),
        ],
      }),
    );
    expect(r.items[0]).toMatchObject({ description: 'BREAD KNIFE 20CM', product_identifier: 'KTB220' });
    expect(r.items[1]).toMatchObject({ description: '7002-Butter Cookies', product_identifier: '7002' });
  });

  it('takes a row without a description field from the line with its price, with the count before the name', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(['PRICE', '48.00'], ['EXPENSE_ROW', '4 Pcs Almond Croissant 48.00\nGift box\nPaper bag']),
        ],
      }),
    );
    expect(r.items[0]).toMatchObject({ description: 'Almond Croissant', quantity: 4, total_price: 48 });
  });

  it('leaves summary, payment and discount rows filed among the items out, but not goods named alike', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          item('RICE CASE 7L', '975,000'),
          item('DISKON (20%)', '780,000'),
          item('Discount member', '5,000'),
          item('SUBTOTAL', '975,000'),
          item('Cash', '1,000,000'),
          item('Tax 10%', '97,500'),
          item('Cash box small', '45,000'),
        ],
      }),
    );
    expect(r.items.map((i) => i.description)).toEqual(['RICE CASE 7L', 'Cash box small']);
  });

  it('leaves a free add-on (priced 0 or o, with no unit price) to the item above, but keeps a priced 0 row', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [
          lineItem(['ITEM', 'BLACK TEA'], ['QUANTITY', '1'], ['PRICE', '45,455']),
          lineItem(['ITEM', 'PEARL'], ['QUANTITY', '1'], ['PRICE', '0']),
          lineItem(['ITEM', 'ALMOND'], ['QUANTITY', '1'], ['PRICE', 'o']),
          lineItem(['ITEM', 'PLASTIC BAG'], ['QUANTITY', '1'], ['UNIT_PRICE', '0.00'], ['PRICE', '0.00']),
        ],
      }),
    );
    expect(r.items.map((i) => [i.description, i.total_price])).toEqual([
      ['BLACK TEA', 45455],
      ['PLASTIC BAG', 0],
    ]);
  });

  it('reads the count printed after the name when the row arithmetic gives it', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        items: [lineItem(['ITEM', 'Honey Drops 2'], ['UNIT_PRICE', '7.50'], ['PRICE', '15.00'])],
      }),
    );
    expect(r.items[0]).toMatchObject({ description: 'Honey Drops', quantity: 2, unit_price: 7.5 });
  });

  it('can leave each item rule out, to measure what it changes', () => {
    const response = expenseResponse({
      items: [item('KTB220 BREAD KNIFE', '12.90'), item('Discount', '1.00'), item('PEARL', '0')],
    });
    expect(mapAnalyzeExpense(response).items.map((i) => i.description)).toEqual(['BREAD KNIFE']);
    const bare = mapAnalyzeExpense(response, { without: [...ITEM_RULES] });
    expect(bare.items.map((i) => i.description)).toEqual(['KTB220 BREAD KNIFE', 'Discount', 'PEARL']);
  });
});

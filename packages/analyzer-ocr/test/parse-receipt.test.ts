import { describe, expect, it } from 'vitest';
import { guessCountry, parseReceiptText } from '../src';

/** Receipt texts as OCR returns them: one printed line per line, columns collapsed to spaces. */
const text = (lines: string[]) => lines.join('\n');

describe('a Malaysian tax invoice', () => {
  const receipt = text([
    'KEDAI MAKAN SRI MURNI SDN BHD',
    '(987654-K)',
    'NO 12, JALAN SS 2/24,',
    'TAMAN SEA,',
    '47300 PETALING JAYA, SELANGOR',
    'TEL: 03-7876 5432',
    'GST ID: 001234567890',
    'TAX INVOICE',
    'Invoice No: INV-000123 Cashier: AMIN',
    'Date: 14/02/2018 Time: 13:05:22',
    'Description Qty Price Amount',
    'NASI LEMAK AYAM 2 x 6.50 13.00 SR',
    'TEH TARIK 2 @ 2.20 4.40 SR',
    'KUEH LAPIS 1.80 SR',
    'Total Qty: 5',
    'Total Sales (Excluding GST) 18.11',
    'GST 6% 1.09',
    'Total Sales (Inclusive of GST) 19.20',
    'Rounding 0.00',
    'Total 19.20',
    'CASH 50.00',
    'CHANGE 30.80',
    'GST Summary Amount(RM) Tax(RM)',
    'SR @ 6% 18.11 1.09',
    'THANK YOU. PLEASE COME AGAIN.',
  ]);
  const parsed = parseReceiptText(receipt);

  it('reads the merchant, skipping the company number, and its address, postcode, city and phone', () => {
    expect(parsed.merchant).toEqual({
      name: 'KEDAI MAKAN SRI MURNI SDN BHD',
      street_address: 'NO 12, JALAN SS 2/24, TAMAN SEA, 47300 PETALING JAYA, SELANGOR',
      postal_code: '47300',
      city: 'PETALING JAYA',
      phone_number: '03-7876 5432',
    });
  });

  it('reads date, time, country, currency and document type', () => {
    expect(parsed.receipt).toMatchObject({
      transaction_date: '2018-02-14',
      transaction_time: '13:05:22',
      country_region: 'MY',
      currency_code: 'MYR',
      doc_type: 'invoice',
    });
  });

  it('takes the amount paid for the total, not the subtotal, tax, cash, change or tax summary', () => {
    expect(parsed.receipt.total_amount).toBe(19.2);
    expect(parsed.receipt.subtotal).toBe(18.11);
    expect(parsed.receipt.total_tax).toBe(1.09);
    expect(parsed.taxes).toEqual([{ description: 'GST 6%', rate: 6, amount: 1.09 }]);
  });

  it('reads the items with quantities and unit prices, and ignores the tax codes after them', () => {
    expect(parsed.items).toEqual([
      { description: 'NASI LEMAK AYAM', quantity: 2, unit_price: 6.5, total_price: 13 },
      { description: 'TEH TARIK', quantity: 2, unit_price: 2.2, total_price: 4.4 },
      { description: 'KUEH LAPIS', quantity: null, unit_price: null, total_price: 1.8 },
    ]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });
});

describe('total selection', () => {
  it('reads the words an engine ran together or misread: £ as f, O as 0, a tax line and a size glued on', () => {
    const parsed = parseReceiptText(
      [
        'CORNER PANTRY',
        'COCA-C0LA 1.5L 3.98',
        'PG TIPS TEA80 3.75',
        'VATINCLUDED20% 1.29',
        'TOTAL f7.73',
        'CASH f10.00',
        'CHANGE f2.27',
      ].join('\n'),
    );
    expect(parsed.receipt).toMatchObject({ total_amount: 7.73, currency_code: 'GBP' });
    expect(parsed.items.map((i) => [i.description, i.total_price])).toEqual([
      ['COCA-COLA 1.5L', 3.98],
      ['PG TIPS TEA 80', 3.75],
    ]);
  });

  it('prefers the rounded total over the total before rounding', () => {
    const parsed = parseReceiptText(
      text([
        'BAKERI ROTI EMAS',
        'Date: 04/06/2018',
        'ROTI CANAI 2.54',
        'ROTI TELUR 5.18',
        'Total Amount: RM7.72',
        'GST @0%: RM0.00',
        'Rounding: -RM0.02',
        'Nett Total: RM7.70',
        'CASH RM10.00',
        'Change RM2.30',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(7.7);
    expect(parsed.receipt.currency_code).toBe('MYR');
  });

  it('takes GRAND TOTAL over SUBTOTAL, tax and tip lines, and TENDERED is not the total', () => {
    const parsed = parseReceiptText(
      text([
        "JOE'S DINER",
        '451 OAK STREET',
        'AUSTIN, TX 78701',
        '03/04/2024 7:45 PM',
        '2 BURGER 25.90',
        '1 MILKSHAKE 6.50',
        'SUBTOTAL 32.40',
        'SALES TAX 8.25% 2.67',
        'TIP 5.00',
        'GRAND TOTAL $40.07',
        'TENDERED 50.00',
        'CHANGE DUE 9.93',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(40.07);
    expect(parsed.receipt.subtotal).toBe(32.4);
    expect(parsed.receipt.total_tax).toBe(2.67);
    // A US address makes the ambiguous date month first.
    expect(parsed.receipt.transaction_date).toBe('2024-03-04');
    expect(parsed.receipt.transaction_time).toBe('19:45:00');
    expect(parsed.receipt.country_region).toBe('US');
    expect(parsed.receipt.currency_code).toBe('USD');
    expect(parsed.merchant).toMatchObject({ name: "JOE'S DINER", postal_code: '78701', city: 'AUSTIN' });
    expect(parsed.receipt.receipt_type).toBe('restaurant');
  });

  it('reads TOTAL DUE and AMOUNT DUE lines', () => {
    const due = parseReceiptText(text(['HARDWARE HUT', 'NAILS 4.00', 'TOTAL DUE 4.00', 'VISA 4.00']));
    expect(due.receipt.total_amount).toBe(4);
    const amountDue = parseReceiptText(
      text([
        'HARDWARE HUT',
        'SCREWS 3.00',
        'SUBTOTAL 3.00',
        'TAX 0.24',
        'AMOUNT DUE 3.24',
        'CASH 5.00',
        'CHANGE 1.76',
      ]),
    );
    expect(amountDue.receipt.total_amount).toBe(3.24);
    expect(amountDue.receipt.total_checks_out).toBe(true);
  });

  it('takes the amount printed on the line after a total label', () => {
    const parsed = parseReceiptText(
      text([
        'PETROL STATION SUBANG',
        'TOTAL SALES RM 41.95',
        'TOTAL AMOUNT PAYABLE',
        'RM 41.95',
        'CARD RM 41.95',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(41.95);
    expect(parsed.receipt.receipt_type).toBe('fuel');
  });

  it('when two totals disagree, believes the one that cash minus change confirms', () => {
    const parsed = parseReceiptText(
      text(['CORNER CAFE', 'LATTE 4.50', 'TOTAL 4.50', 'ROUNDED TOTAL 4.60', 'CASH 10.00', 'CHANGE 5.50']),
    );
    expect(parsed.receipt.total_amount).toBe(4.5);
  });

  it('falls back to cash minus change when no line names the total', () => {
    const parsed = parseReceiptText(
      text(['KIOSK 42', 'NEWSPAPER 2.50', 'COFFEE 1.70', 'CASH 5.00', 'CHANGE 0.80']),
    );
    expect(parsed.receipt.total_amount).toBe(4.2);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('does not count item counts, savings or a tax summary as the total', () => {
    const parsed = parseReceiptText(
      text([
        'MINI MART',
        'BREAD 3.20',
        'EGGS 6.80',
        'TOTAL ITEMS 2',
        'TOTAL SAVINGS 1.00',
        'TOTAL 10.00',
        'GST SUMMARY',
        'TOTAL 9.43 0.57',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(10);
  });

  it('reads amounts OCR split with a space', () => {
    const parsed = parseReceiptText(
      text(['TEA HOUSE', 'Total Sales Incl GST @ 6% RM 8 60', 'Cash 9.00', 'Change 0.40']),
    );
    expect(parsed.receipt.total_amount).toBe(8.6);
  });

  it('reads totals whose word OCR misspelt', () => {
    expect(parseReceiptText(text(['SHOP', 'Tolal Inclusive GST: 10.40'])).receipt.total_amount).toBe(10.4);
    expect(parseReceiptText(text(['SHOP', 'T0TAL 3.10'])).receipt.total_amount).toBe(3.1);
  });
});

describe('a UK receipt with VAT included', () => {
  const parsed = parseReceiptText(
    text([
      'THE GREEN GROCER LTD',
      '22 MARKET STREET',
      'YORK YO1 8RS',
      'Tel 01904 612345',
      'VAT Reg No GB123456789',
      '05/11/2023 09:12',
      'APPLES 1KG 2.40',
      'SEMI SKIMMED MILK 2.40',
      '3 x 0.80',
      'BROWN BREAD 1.25',
      'TOTAL £6.05',
      'CARD £6.05',
      'VAT INCLUDED 20% 0.40',
    ]),
  );

  it('reads merchant, postcode and town', () => {
    expect(parsed.merchant).toMatchObject({
      name: 'THE GREEN GROCER LTD',
      postal_code: 'YO1 8RS',
      city: 'YORK',
      phone_number: '01904 612345',
    });
  });

  it('reads pounds, a day-first date, and the items with a quantity line below its item', () => {
    expect(parsed.receipt).toMatchObject({
      currency_code: 'GBP',
      country_region: 'GB',
      transaction_date: '2023-11-05',
      transaction_time: '09:12:00',
      total_amount: 6.05,
    });
    expect(parsed.items).toEqual([
      { description: 'APPLES 1KG', quantity: null, unit_price: null, total_price: 2.4 },
      { description: 'SEMI SKIMMED MILK', quantity: 3, unit_price: 0.8, total_price: 2.4 },
      { description: 'BROWN BREAD', quantity: null, unit_price: null, total_price: 1.25 },
    ]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });
});

describe('a Belgian receipt in euros', () => {
  const parsed = parseReceiptText(
    text([
      'BAKKERIJ DE ZON BV',
      'Kerkstraat 12',
      '1000 Brussel',
      'BTW BE0123.456.789',
      '12.03.2024 08:15',
      'Croissant 2 x 1,20 2,40',
      'Volkorenbrood 3,10',
      'TOTAAL EUR 5,50',
      'BTW 6% 0,31',
      'Bancontact 5,50',
    ]),
  );

  it('reads comma decimals, the Dutch total and a 4-digit postcode', () => {
    expect(parsed.receipt).toMatchObject({
      total_amount: 5.5,
      currency_code: 'EUR',
      transaction_date: '2024-03-12',
      transaction_time: '08:15:00',
    });
    expect(parsed.merchant).toMatchObject({
      name: 'BAKKERIJ DE ZON BV',
      postal_code: '1000',
      city: 'Brussel',
    });
    expect(parsed.items).toEqual([
      { description: 'Croissant', quantity: 2, unit_price: 1.2, total_price: 2.4 },
      { description: 'Volkorenbrood', quantity: null, unit_price: null, total_price: 3.1 },
    ]);
  });
});

describe('items', () => {
  it('reads a leading quantity column and an @ unit price', () => {
    const parsed = parseReceiptText(
      text([
        'NOODLE HOUSE',
        'QTY ITEM AMOUNT',
        '3 FISHBALL NOODLE @7.00 21.00',
        '1 ICED LEMON TEA 3.50',
        'SUB TOTAL 24.50',
        'TOTAL 24.50',
      ]),
    );
    expect(parsed.items).toEqual([
      { description: 'FISHBALL NOODLE', quantity: 3, unit_price: 7, total_price: 21 },
      { description: 'ICED LEMON TEA', quantity: 1, unit_price: 3.5, total_price: 3.5 },
    ]);
  });

  it('joins a description line with the priced quantity line under it', () => {
    const parsed = parseReceiptText(
      text([
        'RESTORAN WAN FOOK',
        'Date : 16-03-2018 12:07:10',
        'Description Qty U.price Total TAX',
        'Kopi (B)',
        '1x 2.20 2.20 SR',
        'Take Away',
        '4 x 0.20 0.80 SR',
        'Total QTY: 5',
        'TOTAL: 3.00',
      ]),
    );
    expect(parsed.items).toEqual([
      { description: 'Kopi (B)', quantity: 1, unit_price: 2.2, total_price: 2.2 },
      { description: 'Take Away', quantity: 4, unit_price: 0.2, total_price: 0.8 },
    ]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('reads QTY labels, barcodes before the name and a name printed under its barcode line', () => {
    const parsed = parseReceiptText(
      text([
        'STATIONERY CORNER',
        'PAPER A4 QTY 2 9.00',
        '9555484639363 GEL PEN 0.5MM 3.40',
        '4971850134824 1 53.00 53.00',
        'CALCULATOR SCIENTIFIC',
        'TOTAL 65.40',
      ]),
    );
    expect(parsed.items).toEqual([
      { description: 'PAPER A4', quantity: 2, unit_price: 4.5, total_price: 9 },
      { description: 'GEL PEN 0.5MM', quantity: null, unit_price: null, total_price: 3.4 },
      { description: 'CALCULATOR SCIENTIFIC', quantity: 1, unit_price: 53, total_price: 53 },
    ]);
  });

  it('does not take cashier, table or document lines for goods', () => {
    const parsed = parseReceiptText(
      text(['CAFE ALPHA', 'TABLE 12 2.00', 'Cashier: ANNA 1.00', 'LATTE 4.00', 'TOTAL 4.00']),
    );
    expect(parsed.items.map((i) => i.description)).toEqual(['LATTE']);
  });
});

describe('a German supermarket receipt', () => {
  // Made up in the shape of German discounter and supermarket tills: tax class letters after the
  // amounts (glued on where the engine dropped the space), a quantity line, the amount due, payment
  // and change, a tax table, opening hours and the card slip's date below.
  const receipt = text([
    'Hauptstr. 12',
    '12345 Musterstadt',
    'UNSERE OFFNUNGSZEITEN',
    'MO.-SA. 8.00 Uhr - 20.00 Uhr',
    'WURFELZUCKER 0,89C',
    'SALATBAR 2,34xB',
    '2x 0,69',
    'KAROTTENBROTCHEN 1,38 B',
    'PFAND 0,25*C',
    'ZU ZAHLEN EURO 4,86',
    'BARGELD 10,00',
    'ZURUCK 5,14',
    'MWST Netto MWST-BETRAG BRUTTO',
    'C 7,00% 4,54 0,32 4,86',
    'Datum 25.04.20 09:37 Uhr',
  ]);

  it('reads every item with its amount, the tax marks glued on or not, a count above its item', () => {
    const parsed = parseReceiptText(receipt);
    expect(parsed.items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price])).toEqual([
      ['WURFELZUCKER', null, null, 0.89],
      ['SALATBAR', null, null, 2.34],
      ['KAROTTENBROTCHEN', 2, 0.69, 1.38],
      ['PFAND', null, null, 0.25],
    ]);
  });

  it('takes no payment, change, opening-hours or tax-table line for an item', () => {
    const descriptions = parseReceiptText(receipt).items.map((i) => i.description.toUpperCase());
    for (const word of ['ZAHLEN', 'BARGELD', 'ZURUCK', 'MWST', 'UHR'])
      expect(descriptions.some((d) => d.includes(word))).toBe(false);
  });
});

describe('merchant', () => {
  it('takes the company printed in small letters with its legal form over a brand above it', () => {
    const parsed = parseReceiptText(
      text([
        'EXPrint',
        'Anzel Advertising (M) Sdn bhd (759785-H)',
        'No 21,Jalan Pinang',
        '50450 Kuala Lumpur,Malaysia',
        'Total 8.50',
      ]),
    );
    expect(parsed.merchant.name).toBe('Anzel Advertising (M) Sdn bhd');
    // Without a legal form, a line of mostly small letters is a sentence, not the name.
    const sentence = parseReceiptText(text(['EXPrint', 'thank you for your visit', 'Total 8.50']));
    expect(sentence.merchant.name).toBe('EXPrint');
  });

  it('skips document titles, specks and registration numbers above the name', () => {
    const parsed = parseReceiptText(
      text([
        'a a ed',
        'TAX INVOICE',
        'SINAR JAYA HARDWARE TRADING',
        'Company Reg. No. : 001055194X',
        'NO 37, JALAN MANIS 7, TAMAN SEGAR,',
        '56100 CHERAS, KUALA LUMPUR.',
        '+603-9130 2672',
      ]),
    );
    expect(parsed.merchant).toMatchObject({
      name: 'SINAR JAYA HARDWARE TRADING',
      postal_code: '56100',
      city: 'CHERAS',
      phone_number: '+603-9130 2672',
    });
  });

  it('drops the registration number after the name and repairs a misread SDN BHD', () => {
    expect(parseReceiptText('AEON CO. (M) BHD (126826-H)\nJALAN JEJAKA').merchant.name).toBe(
      'AEON CO. (M) BHD',
    );
    expect(parseReceiptText('MAJU JAYA (M) SON BHD\n(123456-A)').merchant.name).toBe('MAJU JAYA (M) SDN BHD');
    expect(parseReceiptText('BOOK CORNER SDN 8HD\nLOT 5').merchant.name).toBe('BOOK CORNER SDN BHD');
    expect(parseReceiptText('BOOK CORNER SDN BHID\nLOT 5').merchant.name).toBe('BOOK CORNER SDN BHD');
    expect(parseReceiptText('KEDAI RUNCIT MAJU 5/0\nLOT 5').merchant.name).toBe('KEDAI RUNCIT MAJU S/B');
    expect(parseReceiptText('BINTANG C0. (M) BHD\nLOT 5').merchant.name).toBe('BINTANG CO. (M) BHD');
    expect(parseReceiptText('LIM KEE ENTERPRISE FO\nLOT 5').merchant.name).toBe('LIM KEE ENTERPRISE');
    // Digits that are part of the name and a trailing CO stay.
    expect(parseReceiptText('99 SPEED MART S/B\nLOT 5').merchant.name).toBe('99 SPEED MART S/B');
    expect(parseReceiptText('LIM KEE TRADING CO\nLOT 5').merchant.name).toBe('LIM KEE TRADING CO');
  });

  it('prefers an upper-case line with a company suffix over a lower-case scrawl above it', () => {
    const parsed = parseReceiptText(
      text(['tan woon yann', 'BOOK TA .K (TAMAN DAYA) SDN BHD', '789417-W', 'TAMAN DAYA,']),
    );
    expect(parsed.merchant.name).toBe('BOOK TA .K (TAMAN DAYA) SDN BHD');
  });

  it('takes the brand with its branch when the next line spells both', () => {
    const parsed = parseReceiptText(
      text([
        'TAX INVOICE',
        "DOMINO'S PIZZA",
        'GST REG NO : 001894251248',
        "DOMINO'S PIZZA TAMAN UNIVERSITI",
        '30, Jln Kebudayaan 7',
      ]),
    );
    expect(parsed.merchant.name).toBe("DOMINO'S PIZZA TAMAN UNIVERSITI");
  });

  it('does not take a phone number, date or address for the name', () => {
    const parsed = parseReceiptText(
      text(['03-2093 7358', '12/03/2018', 'LOT 6, JALAN BATAI', 'BENS GROCER']),
    );
    expect(parsed.merchant.name).toBe('BENS GROCER');
  });

  it('joins a company name printed over two or three lines, and starts the address after it', () => {
    const legalFormBelow = parseReceiptText(
      text(['CITY PAPER', 'CO. (M) SDN BHD', '(123456-A)', 'NO 8, JALAN 7/118B', '56000 KUALA LUMPUR']),
    );
    expect(legalFormBelow.merchant).toMatchObject({
      name: 'CITY PAPER CO. (M) SDN BHD',
      street_address: 'NO 8, JALAN 7/118B, 56000 KUALA LUMPUR',
    });
    const bracketAcrossLines = parseReceiptText(
      text(['SINAR TOOLS', 'ENTERPRISE (BANDAR', 'BARU) SDN BHD', '822737-X', 'LOT 3, JALAN PELABUR 23/1']),
    );
    expect(bracketAcrossLines.merchant.name).toBe('SINAR TOOLS ENTERPRISE (BANDAR BARU) SDN BHD');
    const ampersand = parseReceiptText(
      text(['HOME GARDEN HARDWARE &', 'ELECTRICAL', 'NO.113G, JALAN SETIA 3', 'TEL: 03-3362 4137']),
    );
    expect(ampersand.merchant.name).toBe('HOME GARDEN HARDWARE & ELECTRICAL');
    // A name line followed by an address line stays alone.
    expect(parseReceiptText(text(['KEDAI RUNCIT AMAN &', 'NO 5, JALAN BESAR', 'KLANG'])).merchant.name).toBe(
      'KEDAI RUNCIT AMAN &',
    );
  });
});

describe('confidence and empty input', () => {
  it('reports the OCR confidence of the lines each field was read from', () => {
    const parsed = parseReceiptText(text(['SHOP ONE', 'Date: 01/02/2020', 'TOTAL 5.00']), {
      lineConfidences: [0.91, 0.82, 0.73],
    });
    expect(parsed.confidence).toMatchObject({
      'merchant.name': 0.91,
      'receipt.transaction_date': 0.82,
      'receipt.total_amount': 0.73,
    });
  });

  it('returns nulls, no items and a total that does not check out for text with nothing to read', () => {
    const parsed = parseReceiptText('~~ ||| ..\n\n');
    expect(parsed.merchant.name).toBeNull();
    expect(parsed.receipt.total_amount).toBeNull();
    expect(parsed.receipt.transaction_date).toBeNull();
    expect(parsed.receipt.currency_code).toBeNull();
    expect(parsed.items).toEqual([]);
    expect(parsed.receipt.total_checks_out).toBe(false);
  });

  it('follows the caller when told the country or the date order', () => {
    expect(parseReceiptText('SHOP\n03/04/2024', { country: 'US' }).receipt.transaction_date).toBe(
      '2024-03-04',
    );
    expect(parseReceiptText('SHOP\n03/04/2024', { dateOrder: 'mdy' }).receipt.transaction_date).toBe(
      '2024-03-04',
    );
    expect(parseReceiptText('SHOP\n03/04/2024').receipt.transaction_date).toBe('2024-04-03');
  });

  it('takes cash minus change as the total when the receipt rounds and the rounded total was misread', () => {
    const lines = [
      'SHOP',
      'SOAP 14.38',
      'Total Sales (Inclusive GST) RM 14.38',
      'Rounding Adjustment RM 0.02',
    ];
    const rounded = parseReceiptText(
      text([...lines, 'Rovnding RM 14.40', 'CASH RM 20.00', 'CHANGE RM 5.60']),
    );
    expect(rounded.receipt.total_amount).toBe(14.4);
    // No rounding applied (0.00), or a total two lines agree on: a misread cash amount changes nothing.
    const none = parseReceiptText(
      text(['SHOP', 'SOAP 5.00', 'Total 5.00', 'Rounding Adjustment 0.00', 'CASH 10.02', 'CHANGE 5.00']),
    );
    expect(none.receipt.total_amount).toBe(5);
    const agreed = parseReceiptText(
      text([
        'SHOP',
        'SOAP 5.00',
        'Total 5.00',
        'Rounding Adj 0.02',
        'Total After Rounding 5.00',
        'CASH 10.02',
        'CHANGE 5.00',
      ]),
    );
    expect(agreed.receipt.total_amount).toBe(5);
  });

  it('takes the amount under the rounding line when it is the total moved by the adjustment, whatever its label reads', () => {
    const garbled = parseReceiptText(
      text([
        'PRINT SHOP',
        'LAMINATION A4 2 @ 2.00 4.24',
        'COLOUR COPY 2 @ 2.00 4.24',
        'Total Amt Id GSTO 6%: 8.48',
        'Rounding Adjueawent (0.02)',
        'Tatel Ant Payabte: 8.50',
        'Paid Amount: 100.00',
        'Chonge 91.50',
      ]),
    );
    expect(garbled.receipt.total_amount).toBe(8.5);
    // An amount under the rounding line that is not the total moved by it (the cash paid) is not the
    // amount due, nor is one that is not a multiple of 0.05.
    const cash = parseReceiptText(
      text(['SHOP', 'SOAP 8.48', 'Total 8.48', 'Rounding (0.02)', 'Cash 10.00', 'Change 1.52']),
    );
    expect(cash.receipt.total_amount).toBe(8.48);
    const odd = parseReceiptText(text(['SHOP', 'SOAP 8.47', 'Total 8.47', 'Rounding 0.02', 'Xyz 8.49']));
    expect(odd.receipt.total_amount).toBe(8.47);
  });

  it('reads TOTAL from faint print whose T lost its bar and O its top (`IUIAL`)', () => {
    const parsed = parseReceiptText(
      text([
        'PHARMACY',
        '121062680 100 PLUS 500ML 2.28',
        'SUBIUIAL 2.28',
        'IUIAL (GSI INLL) 2.28',
        'CHANGE DUE 0.70',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(2.28);
    expect(parsed.receipt.subtotal).toBe(2.28);
  });

  it('reads cash printed as a deduction (`Cash -50.00`) as the amount tendered', () => {
    const parsed = parseReceiptText(
      text([
        'BOOK SHOP',
        'PAPER 3 @ 13.69 41.07',
        'Member Saving -9.60',
        'Total RM Incl. of GST 31.47',
        'Rounding Adi -0.02',
        'Total RN 31.45',
        'Cash -50.00',
        'CHANGE 18.55',
      ]),
    );
    expect(parsed.receipt.total_amount).toBe(31.45);
  });

  it('reads a labelled date whose slashes OCR dropped or read as a 1', () => {
    const read = (line: string) =>
      parseReceiptText(text(['SHOP', line, 'TOTAL 5.00'])).receipt.transaction_date;
    expect(read('RECEIPT #: CS00633800 DATE: 250412017')).toBe('2017-04-25');
    expect(read('DATE: 25042017')).toBe('2017-04-25');
    // Digits with no reading that is a real day are not read as a date.
    expect(read('DATE: 993312017')).toBeNull();
    // Without the label a run of digits is a number, not a date.
    expect(read('INVOICE 25042017')).toBeNull();
  });

  it('takes the date printed with the time over a product code that looks like a date', () => {
    const parsed = parseReceiptText(
      text(['HARDWARE SHOP', 'HA06HD01-3-70', '9065940 4X1.79 7.16', 'TOTAL 7.16', '15-07-18 10:35 SH01']),
    );
    expect(parsed.receipt.transaction_date).toBe('2018-07-15');
    expect(parsed.receipt.transaction_time).toBe('10:35:00');
  });

  it('passes over digits run on from letters when another date stands alone', () => {
    const parsed = parseReceiptText(
      text(['HARDWARE SHOP', 'XE11-12-30 2X5.30 10.60', 'PRINTED 24-01-16', 'TOTAL 10.60']),
    );
    expect(parsed.receipt.transaction_date).toBe('2016-01-24');
  });

  it('reads an ambiguous date in the order another date on the receipt proves', () => {
    const parsed = parseReceiptText(text(['SHOP', 'Date: 03/04/2024', 'Printed 03/28/2024 10:00']));
    expect(parsed.receipt.transaction_date).toBe('2024-03-04');
  });
});

describe('guessCountry', () => {
  it('recognises the countries it knows by their marks', () => {
    expect(guessCountry('ABC SDN BHD\nJALAN 1')).toBe('MY');
    expect(guessCountry('SHOP\nSPRINGFIELD, IL 62704')).toBe('US');
    expect(guessCountry('SHOP\nLEEDS LS1 4DT\nVAT REG 123')).toBe('GB');
    expect(guessCountry('SHOP PTE LTD\nSINGAPORE 123456')).toBe('SG');
    expect(guessCountry('SHOP\nTOTAL 5.00')).toBeNull();
  });
});

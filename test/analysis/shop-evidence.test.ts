/**
 * The shop read from the whole receipt with the shipped chain knowledge: synthetic receipt lines as
 * shops print them (a logo OCR cannot read, the name letter-spaced, in a web address, in the footer's
 * company line), never a street, slogan or item for the shop.
 */
import { describe, expect, it } from 'vitest';
import { parseReceiptText } from '@receipts/analyzer-ocr';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { enrichAnalysis, findChainEvidence, hostNames, joinSpacedLetters } from '@receipts/core';
import { DictionaryEnricher } from '@receipts/enricher-brands';

const chains = new DictionaryEnricher();
const parse = (lines: string[]) => parseReceiptText(lines.join('\n'), { chains });

/** A German discounter's receipt: the logo unread, the company named only in the footer. */
const FOOTER_ONLY = [
  'AoLeDI',
  'Pohlweg 110',
  '33100 Paderborn',
  'UNSERE OFFNUNGSZEITEN',
  'MO.-SA. 9.00 Uhr - 20.00 Uhr',
  'WURFELZUCKER 0,89 C',
  'BIO HONIG 3,29 C',
  'ZU ZAHLEN EURO 4,18',
  'BARGELD 5,00',
  'ZURUCK 0,82',
  'Vielen Dank fur Ihren Einkauf!',
  'Aldi GmbH & Co. KG, Schloss Holte',
  '10 (181078746) 09:48 02.03.2020',
];

describe('the shop from the whole receipt', () => {
  it('names the chain from the footer company line, never the street or the opening hours', () => {
    const parsed = parse(FOOTER_ONLY);
    expect(parsed.merchant.name).toBe('Aldi Nord');
    expect(parsed.merchant.owning_corporation).toBe('Aldi Nord');
    expect(parsed.receipt.receipt_type).toBe('grocery');
    expect(parsed.receipt.transaction_date).toBe('2020-03-02');
  });

  it('reads a name printed letter-spaced and a web address with the branch in it', () => {
    expect(joinSpacedLetters('A L D I')).toBe('ALDI');
    expect(hostNames('Infos unter www.marktkauf-lehr.de')).toEqual(['marktkauf lehr']);
    const parsed = parse([
      'FRISCHE EINKAUFEN GENUSS ERLEBEN',
      'WUNSCHLOS',
      'GLUCKLICH?',
      'Detmolder Str. 4',
      '33102 Paderborn',
      'www.marktkauf-lehr.de',
      'BROT 1,99 B',
      'SUMME EUR 1,99',
      'Marktkauf Lehr',
    ]);
    expect(parsed.merchant.name).toBe('Marktkauf');
    expect(parsed.merchant.owning_corporation).toBe('Edeka Zentrale');
  });

  it('keeps a heading that names the chain as printed, with its branch, and adds owner and category', () => {
    const parsed = parse([
      "DOMINO'S PIZZA TAMAN UNIVERSITI",
      'NO 12, JALAN PENDIDIKAN 3',
      '81300 SKUDAI JOHOR',
      'PIZZA 1 21.90',
      'TOTAL 21.90',
    ]);
    expect(parsed.merchant.name).toBe("DOMINO'S PIZZA TAMAN UNIVERSITI");
    expect(parsed.merchant.owning_corporation).toBe("Domino's Pizza, Inc.");
    expect(parsed.receipt.receipt_type).toBe('restaurant');
  });

  it('keeps a company heading that is not the chain: a franchisee or a shop inside a store', () => {
    const parsed = parse([
      'OTTOGO ENTERPRISE',
      'SHELL STATION KEPONG',
      'LOT 15944, JALAN KEPONG',
      'www.shell.com.my',
      'TEA 1 5.90',
      'TOTAL 5.90',
    ]);
    expect(parsed.merchant.name).toBe('OTTOGO ENTERPRISE');
    expect(parsed.merchant.owning_corporation ?? null).toBeNull();
  });

  it('never takes a chain named in an item line, a slogan or a bracket for the shop', () => {
    const evidence = findChainEvidence(
      [
        'KEDAI RUNCIT AH SENG',
        '(TESCO EXTRA ARA DAMANSARA)',
        'SHELL HELIX 1L 32.90',
        'Eine Aktion in Kooperation mit Kinder nutella und Lidl Plus',
        'TOTAL 32.90',
      ],
      chains,
    );
    expect(evidence).toBeNull();
    expect(parse(['KEDAI RUNCIT AH SENG', 'SHELL HELIX 1L 32.90', 'TOTAL 32.90']).merchant.name).toBe(
      'KEDAI RUNCIT AH SENG',
    );
  });

  it('reads the shop from the heading alone without chain knowledge', () => {
    const parsed = parseReceiptText(FOOTER_ONLY.join('\n'));
    expect(parsed.merchant.owning_corporation ?? null).toBeNull();
  });

  it("gives every merchant of a recognised chain its owner, for the Corporations report's shops", () => {
    const parsed = parse(FOOTER_ONLY);
    const enriched = enrichAnalysis({ ...parsed, analyzer: 'ocr', raw: null }, chains);
    expect(enriched.merchant.owning_corporation).toBe('Aldi Nord');
    for (const lines of [
      ['toom Baumarkt GmbH', 'Gruner Weg 41', 'SUMME EUR 19,99'],
      ['ROLLER', 'Senefelder Strasse 2', 'Summe 59,96', 'www.roller.de'],
      ['real GmbH', '33100 Paderborn', 'SUMME EUR 5,47'],
    ]) {
      const shop = parse(lines).merchant;
      expect(shop.owning_corporation, lines[0]).toBeTruthy();
      expect(
        enrichAnalysis({ ...parse(lines), analyzer: 'ocr', raw: null }, chains).merchant.owning_corporation,
      ).toBe(shop.owning_corporation);
    }
  });

  it('names the chain in the Textract mapping from the response text lines, as in the OCR parser', () => {
    const field = (type: string, value: string) => ({
      Type: { Text: type },
      ValueDetection: { Text: value },
    });
    const line = (text: string) => ({ BlockType: 'LINE', Text: text });
    const response = {
      ExpenseDocuments: [
        {
          SummaryFields: [field('VENDOR_NAME', 'WUNSCHLOS GLUCKLICH?'), field('TOTAL', '1,99')],
          Blocks: [
            line('WUNSCHLOS'),
            line('GLUCKLICH?'),
            line('www.marktkauf-lehr.de'),
            line('SUMME EUR 1,99'),
            line('Marktkauf Lehr'),
          ],
        },
      ],
    };
    const mapped = mapAnalyzeExpense(response, { chains });
    expect(mapped.merchant.name).toBe('Marktkauf');
    expect(mapped.merchant.owning_corporation).toBe('Edeka Zentrale');
    expect(mapped.receipt.receipt_type).toBe('grocery');
    expect(mapAnalyzeExpense(response).merchant.name).toBe('WUNSCHLOS GLUCKLICH?');
  });

  it('reads the country and currency from the receipt itself: decimal commas and German words beat a stray $ and a DE postcode', () => {
    const parsed = parse([
      'ROLLER',
      'Senefelder Strasse 2',
      'DE 33104 Paderborn',
      'Duschvorhang 29,98',
      'Badematte 29,98',
      'Summe 59,96',
      'Netto MwSt. 9,58',
      '$BA05R024747',
    ]);
    expect(parsed.receipt.country_region).toBe('DE');
    expect(parsed.receipt.currency_code).toBe('EUR');
    // The same marks on a receipt that writes decimal points stay a US reading.
    expect(
      parseReceiptText(['CORNER STORE', 'SPRINGFIELD, IL 62704', 'TOTAL $5.00'].join('\n')).receipt
        .country_region,
    ).toBe('US');
  });
});

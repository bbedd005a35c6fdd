import { describe, expect, it } from 'vitest';
import { DictionaryEnricher } from '../src';

const enricher = new DictionaryEnricher();
const read = (description: string, merchant?: string) =>
  enricher.brandFor(description, { merchant: merchant ?? null });

describe('brands on receipt lines as shops print them', () => {
  it.each([
    // abbreviations and truncations
    ['NESC CLASSIC 200G', undefined, 'Nescafé', 'Nestlé'],
    ['LKK SOS TIRAM 510G', undefined, 'Lee Kum Kee', 'Lee Kum Kee'],
    ['CKE ZERO 320ML', undefined, 'Coca-Cola Zero Sugar', 'The Coca-Cola Company'],
    ['D/LADY STRAW 200ML', undefined, 'Dutch Lady', 'FrieslandCampina'],
    ['KNR CBS PR120G', undefined, 'Knorr', 'Unilever'],
    // words run together or split
    ['DUTCHLADY UHT CHOC 1L', undefined, 'Dutch Lady', 'FrieslandCampina'],
    ['HUPSENG CREAM CRACKER', undefined, 'Hup Seng', 'Hup Seng Industries Berhad'],
    ['KAPALAPI SPECIAL MIX', undefined, 'Kapal Api', 'Santos Jaya Abadi'],
    ['100 PLUS 500ML', undefined, '100PLUS', 'Fraser and Neave'],
    ['COCACOLA1.5L', undefined, 'Coca-Cola', 'The Coca-Cola Company'],
    // Malaysia, Singapore, Indonesia
    ['KOPIKO CAPPUCINO 10S', undefined, 'Kopiko', 'Mayora Indah'],
    ['BEAR BRAND 140ML', undefined, 'Bear Brand', 'Nestlé'],
    ['ALICAFE 5IN1 TONGKAT ALI', undefined, 'Alicafe', 'Power Root Berhad'],
    ['VITAGEN LESS SUGAR 5X125ML', undefined, 'Vitagen', 'Malaysia Milk Sdn Bhd'],
    ['SOKLIN LIQUID 800ML', undefined, 'So Klin', 'Wings Group'],
    ['PRIMAX 95', 'PETRONAS DAGANGAN BHD', 'PETRONAS Primax', 'Petroliam Nasional Berhad'],
    ['V-POWER 97 32.15L', 'SHELL TIMUR SDN BHD', 'Shell V-Power', 'Shell plc'],
    ['PERTALITE', 'SPBU PERTAMINA 34.123', 'Pertalite', 'PT Pertamina (Persero)'],
    ['MARLBORO RED 20S', undefined, 'Marlboro', 'Philip Morris International'],
    ['infiniti 97 E4Mp3', 'BHPetrol Subang Airport', 'BHPetrol', 'Boustead Holdings Berhad'],
    ["KR600 KING'S SAFETY SHOES", undefined, "King's", 'Honeywell International'],
    ['SARI ROTI TAWAR SPECIAL', undefined, 'Sari Roti', 'Nippon Indosari Corpindo'],
    ['SILVERQUEEN CASHEW 62G', undefined, 'SilverQueen', 'Delfi Limited'],
    ['POCARI SWEAT 500ML', undefined, 'Pocari Sweat', 'Otsuka Holdings'],
    ['KHONG GUAN ASSORTED', undefined, 'Khong Guan', 'Khong Guan'],
    ['NUTRISARI JERUK 10S', undefined, 'NutriSari', 'Nutrifood Indonesia'],
    ['MASAKO AYAM 250G', undefined, 'Masako', 'Ajinomoto'],
    ['WARDAH LIGHTENING SERUM', undefined, 'Wardah', 'Paragon Technology and Innovation'],
    ['SUPER RING CHEESE 60G', undefined, 'Super Ring', 'Oriental Food Industries Holdings Berhad'],
    ['Dole Pineapple Pcs', undefined, 'Dole', 'Dole plc'],
    ['KANZLER SOSIS 65G', undefined, 'Kanzler', 'Cisarua Mountain Dairy'],
    ['AXE BRAND OIL 56ML', undefined, 'Axe Brand', 'Leung Kai Fook Medical Company'],
    ['AXE BODY SPRAY DARK', undefined, 'Axe', 'Unilever'],
    ['SUNQUICK ORANGE 840ML', undefined, 'Sunquick', 'CO-RO'],
    ['DRINHO SOYA 250ML', undefined, 'Drinho', 'Lam Soon Group'],
    // Germany and the EU
    ['JACOBS KRÖNUNG 500G', undefined, 'Jacobs', "JDE Peet's"],
    ['IKEA TEAPOT 1L', undefined, 'IKEA', 'Inter IKEA Group'],
    ['STOLZENFELS SEKT 0,2L', 'ALDI GmbH & Co. KG', 'Stolzenfels', 'Aldi Nord'],
    ['CHATEAU SAHNE/CARAMEL', 'ALDI GmbH & Co. KG', 'Château', 'Aldi Nord'],
    ['ALBI APFELSAFT 1L', undefined, 'albi', 'albi GmbH & Co. KG'],
    ['SOBIESKI VODKA 0,7L', undefined, 'Sobieski', 'Marie Brizard Wine & Spirits'],
    ['GIFFLAR ZIMTROELLC', undefined, 'Pågen', 'Pågen AB'],
    ['GUTFRIED GEFL./HÄHN. FL', undefined, 'Gutfried', 'Tönnies Holding'],
    ['PLANTA MARJERIN 240G', undefined, 'Planta', 'Upfield'],
    ['M&G R3 GEL PEN 0.5MM', undefined, 'M&G', 'M&G Stationery'],
    ['JAEGERMEISTER 0,7L', undefined, 'Jägermeister', 'Mast-Jägermeister SE'],
    ['HOMANN GEFLUEGELSALAT', undefined, 'Homann', 'Unternehmensgruppe Theo Müller'],
    ['COPPENRATH + WIESE TORTE', undefined, 'Coppenrath & Wiese', 'Dr. August Oetker KG'],
    ['SAGROTAN HYGIENE-SPRAY', undefined, 'Sagrotan', 'Reckitt'],
    ['AYAM BRAND SARDIN 155G', undefined, 'Ayam Brand', 'Ayam SARL'],
    ['MUNCHYS LEXUS CHEESE', undefined, "Munchy's", 'Universal Robina Corporation'],
    ['KRONENBOURG 1664 BLANC', undefined, 'Kronenbourg 1664', 'Carlsberg Group'],
    ['TEMPO TASCHENTUECHER', undefined, 'Tempo', 'Essity'],
    ['KÖLLN HAFERFLOCKEN', undefined, 'Kölln', 'Kölln'],
    ['KOELLN HAFERFLOCKEN', undefined, 'Kölln', 'Kölln'],
    ['FROSCH ESSIGREINIGER', undefined, 'Frosch', 'Werner & Mertz'],
    ['KROMBACHER PILS 20X0,5', undefined, 'Krombacher', 'Krombacher Brauerei'],
    ['POPP FARMERSALAT', undefined, 'Popp', 'Wernsing Food Family'],
    ['JOHMA FUSSILISALAT', undefined, 'Johma', 'Signature Foods'],
    ['ABTEI JAP HEILOEL', undefined, 'Abtei', 'Perrigo'],
    ['HARRY VOLLK.KUMPEL', undefined, 'Harry Brot', 'Harry-Brot'],
    ['PRINZENROLLE 400G', undefined, 'Prinzen Rolle', 'Griesson - de Beukelaer'],
    ['AFRI-COLA 1L', undefined, 'Afri Cola', 'MineralBrunnen Überkingen-Teinach'],
    ['SINUPRET EXTRACT 20ST', undefined, 'Sinupret', 'Bionorica SE'],
    ['MUELLERMILCH SCHOKO', undefined, 'Müllermilch', 'Unternehmensgruppe Theo Müller'],
    ['BOEKLUNDER WUERSTCHEN', undefined, 'Böklunder', 'Tönnies Holding'],
    ['WEIHENSTEPHANER HEFEWEISS', undefined, 'Weihenstephaner', 'Bayerische Staatsbrauerei Weihenstephan'],
    ['WEIHENSTEPHAN H-MILCH 1,5%', undefined, 'Weihenstephan', 'Unternehmensgruppe Theo Müller'],
    ['MEZZO MIX 1,5L', undefined, 'Mezzo Mix', 'The Coca-Cola Company'],
    ['BLEND-A-MED ZAHNCREME', undefined, 'Blend-a-med', 'Procter & Gamble'],
    // capitals running into small letters
    ['SELITstop Komfort-Fe', undefined, 'Selit', 'Selit Dämmtechnik GmbH'],
    ['HHAsahi 1+1/2 SR', undefined, 'Asahi', 'Asahi Group Holdings'],
    // the UK and the US
    ['TUNNOCKS TEACAKES 6PK', undefined, "Tunnock's", "Tunnock's"],
    ['BRANSTON PICKLE 360G', undefined, 'Branston', 'Mizkan'],
    ['AUNT BESSIES YORKSHIRE PUDS', undefined, "Aunt Bessie's", 'Nomad Foods'],
    ['LITTLE DEBBIE HONEY BUNS', undefined, 'Little Debbie', 'McKee Foods'],
    ['TWISTED TEA 12PK', undefined, 'Twisted Tea', 'The Boston Beer Company'],
    ['NATURES OWN HONEY WHEAT', undefined, "Nature's Own", 'Flowers Foods'],
    [
      'KIRKLAND SIG PAPER TOWEL',
      'COSTCO WHOLESALE #1234',
      'Kirkland Signature',
      'Costco Wholesale Corporation',
    ],
    ['GREAT VALUE MILK 1GAL', 'WAL-MART SUPERCENTER', 'Great Value', 'Walmart Inc.'],
    // electronics
    ['IPHONE 15 CASE', undefined, 'Apple', 'Apple Inc.'],
    ['STAEDTLER LUNA COLOUR PENCIL', undefined, 'Staedtler', 'Staedtler Mars'],
  ])('%j (at %s) is %s of %s', (line, shop, brand, owner) => {
    const found = read(line, shop);
    expect(found?.brand).toBe(brand);
    expect(found?.owning_corporation).toBe(owner);
  });

  it.each([
    // ordinary words that are also names must not match on their own
    'PICKUP TIME: 18:12:32',
    'TEPUNG JAGUNG CAP BINTANG 20X4',
    'TIME FRAME, MYDIN MAY BASED ON ITS ABSOLUTE',
    'VANILLA ESSENCE 30ML',
    'TEAPOT 1L',
    'APPLE FUJI 1KG',
    'PAGO CON TARJETA',
    'BINDING WIRE 1KG',
    'PAYDAY SALE DISCOUNT',
    'TETRA PAK 1L',
    'BUKO PIE',
    'GRANTS AND SUBSIDIES',
    'TEACHERS DAY CARD',
    'OISHI SUSHI SET',
    'DELUXE SCHINKEN',
    'JA! BANANEN',
    'PHILIPS LED BULB 9W',
    'PHILIPS 18W/E27/827 ESSENTIAL BULB',
    'JACOBS CREAM CRACKERS',
    'NASI LEMAK AYAM',
    'TEH TARIK',
    'ROTI CANAI',
    'PLASTIC BAG',
    'KARTENZAHLUNG',
    'SUMME EUR',
    'LEGO DUPLO ZUG',
    'MARIGOLD GLOVES M',
    'LOOSE BANANAS 8053',
    'SUL LUNG TANG',
    'LOR BBQ 1606',
    'EMERGENCY ROOM GENERAL',
    'Choco Melt',
    'Chicken Cesar Salad',
    'ITEM 5E55 3008',
    'PLANTA BAJA',
    'AYAM GORENG',
    'CHATEAU MARGAUX 2015',
    'HARRY POTTER TASCHENBUCH',
    'INFINITI Q50 SERVICE',
    'KINGS CROSS PARKING',
    'SAFI RESTAURANT',
    'GUINEA FOWL',
    'KANZLER WAHL 2025',
    'PASAR MALAM',
    'SIGNAL CABLE 2M',
    'TEELICHT WICK 10ER',
  ])('%j names no brand', (line) => {
    expect(read(line)).toBeNull();
  });
});

describe('names a receipt prints shortened', () => {
  it.each([
    // earlier words cut to their first letters, the last one whole
    ['TH.HENRY TONIC WAT', 'Thomas Henry'],
    ['MI SEDAAP MI GORENG AS', 'Mie Sedaap'],
    // a brand's product line, its brand cut short (umlauts spelt out or not)
    ['LEERD CARACTERE 12', 'Leerdammer'],
    ['MILR FRUEHL-QUARK', 'Milram'],
    ['MILR.FRUHL.QUARK', 'Milram'],
    // `+` printed for `&`
    ['G+G BIO MUELLBEUTE', 'gut & günstig'],
  ])('%j is %s, unsure unless read as written', (line, brand) => {
    expect(read(line, 'MARKTKAUF')?.brand).toBe(brand);
  });

  it('marks a name read from cut words unsure', () => {
    expect(read('TH.HENRY TONIC WAT')?.unsure).toBe(true);
    expect(read('THOMAS HENRY TONIC')?.unsure).toBeUndefined();
  });

  it('reads a cut word only when the rest of the name follows whole and one name fits', () => {
    expect(read('TH TONIC WATER')).toBeNull();
    expect(read('T.HENRY TONIC')).toBeNull(); // one letter is too little of a word
    expect(read('HENRY TONIC')).toBeNull();
  });

  it.each([
    'CARD NUMBER 1234',
    'COTTON WHITE MOP',
    'LUNCH BOX 3P SET',
    'VEGE ITEM',
    'CENT ROUNDING',
    'LEERD SCHEIBEN 12',
    'MILR QUARK 500G',
    'SCHWART MARMELADE',
  ])('does not read a cut first word alone: %j', (line) => {
    expect(read(line)).toBeNull();
  });

  it("reads a retailer's own label by its initials at that retailer only", () => {
    expect(read('G&G FEU.TOIL.PAP', 'EDEKA CENTER')).toMatchObject({ brand: 'gut & günstig' });
    expect(read('rQ MANDARINEN 1kg', 'real,- SB-Warenhaus')).toEqual({
      brand: 'real Quality',
      owning_corporation: 'SCP Group',
    });
    expect(read('RQ MANDARINEN 1KG', 'EDEKA')).toBeNull();
    expect(read('RQ MANDARINEN 1KG')).toBeNull();
  });
});

describe('shops that sell their own brand', () => {
  it("give a chain's own brand to every item of its receipts", () => {
    expect(read('POANG Polster f Ses', 'IKEA Deutschland GmbH & Co. KG')).toEqual({
      brand: 'IKEA',
      owning_corporation: 'Inter IKEA Group',
    });
    expect(read('POANG Polster f Ses', 'MÖBEL BOSS')).toBeNull();
  });

  it("give a maker's brand, unsure, to the items of its own bill", () => {
    expect(read('O.C. WHITE', 'GARDENIA BAKERIES (KL) SDN BHD')).toEqual({
      brand: 'Gardenia',
      owning_corporation: 'QAF Limited',
      unsure: true,
    });
    // a brand named in the line comes first; a shop whose name only holds a brand later is no maker
    expect(read('COKE 1.5L', 'GARDENIA BAKERIES (KL) SDN BHD')?.brand).toBe('Coca-Cola');
    expect(read('O.C. WHITE', 'KEDAI GARDENIA JAYA')).toBeNull();
    // nor is one whose name starts with a brand's short alias (Tiger Beer's `Tiger`)
    expect(read('BROWN SUGAR BOBA', 'TIGER SUGAR SS15')).toBeNull();
    // a chain is a shop, not a maker
    expect(read('PLASTIC BAG', 'GUARDIAN HEALTH AND BEAUTY SDN BHD')).toBeNull();
  });
});

describe("a retailer's own labels", () => {
  it('belong to the group of the shop that sells them', () => {
    expect(read('MILSANI H-MILCH 1,5%', 'ALDI SÜD')).toEqual({
      brand: 'Milsani',
      owning_corporation: 'Aldi Süd',
    });
    expect(read('MILSANI H-MILCH 1,5%', 'Aldi Nord')).toEqual({
      brand: 'Milsani',
      owning_corporation: 'Aldi Nord',
    });
    expect(read('MILBONA JOGHURT', 'LIDL DIENSTLEISTUNG')?.owning_corporation).toBe('Schwarz Gruppe');
    expect(read('K-CLASSIC SAHNE', 'KAUFLAND')?.owning_corporation).toBe('Schwarz Gruppe');
    expect(read('GUT&GUENSTIG BUTTER', 'EDEKA')?.owning_corporation).toBe('Edeka Zentrale');
    expect(read('BALEA DUSCHGEL', 'dm-drogerie markt')?.owning_corporation).toBe('dm-drogerie markt');
    expect(read('ISANA SHAMPOO', 'ROSSMANN')?.owning_corporation).toBe('Dirk Rossmann GmbH');
    expect(read('TOPVALU BESTPRICE RICE 5KG', 'AEON BIG (M) SDN BHD')?.owning_corporation).toBe(
      'AEON Co., Ltd.',
    );
    expect(read('TESCO FINEST SOURDOUGH', 'TESCO STORES LTD')?.owning_corporation).toBe('Tesco PLC');
    expect(read('FAIRPRICE KITCHEN TOWEL', 'NTUC FAIRPRICE CO-OPERATIVE')?.owning_corporation).toBe(
      'NTUC Enterprise',
    );
    expect(read('PASAR FRESH EGGS 10S', 'NTUC FAIRPRICE CO-OPERATIVE')?.brand).toBe('Pasar');
    expect(read('PASAR FRESH EGGS 10S', 'SHENG SIONG SUPERMARKET')).toBeNull();
    expect(read('EXTRA SPECIAL SOURDOUGH', 'ASDA STORES LTD')?.owning_corporation).toBe('TDR Capital');
    expect(read('EXTRA SPECIAL SOURDOUGH', 'TESCO STORES LTD')).toBeNull();
    expect(read('TRADER JOES DARK CHOC', "TRADER JOE'S #123")?.owning_corporation).toBe('Aldi Nord');
    expect(read('HILL COUNTRY FARE MILK', 'H-E-B #456')?.owning_corporation).toBe('H-E-B');
  });

  it('count only at that retailer when the name is a common word', () => {
    expect(read('JA! BANANEN', 'REWE Markt GmbH')).toEqual({
      brand: 'ja!',
      owning_corporation: 'REWE Group',
    });
    expect(read('JA! BANANEN', 'EDEKA')).toBeNull();
    expect(read('DELUXE SCHINKEN', 'Lidl')?.brand).toBe('Deluxe');
    expect(read('DELUXE SCHINKEN', 'Kaufland')).toBeNull();
  });

  it("are unsure on another chain's receipt", () => {
    expect(read('MILBONA JOGHURT', 'TESCO STORES LTD')).toEqual({
      brand: 'Milbona',
      owning_corporation: 'Schwarz Gruppe',
      unsure: true,
    });
  });
});

describe('how sure a reading is', () => {
  it('is sure of a name read as written', () => {
    expect(read('NESCAFE CLASSIC')?.unsure).toBeUndefined();
    expect(read('LKK SOS TIRAM')?.unsure).toBeUndefined();
  });

  it('is unsure when OCR confusions had to be forgiven or words had run together', () => {
    expect(read('NESCAF3 CLASSIC')).toEqual({ brand: 'Nescafé', owning_corporation: 'Nestlé', unsure: true });
    expect(read('C0LGATE 175G')?.unsure).toBe(true);
    expect(read('MRMUSCLEINTANKTBC')?.unsure).toBe(true);
    expect(read('HH GUINESS 12 GLASSES')).toEqual({
      brand: 'Guinness',
      owning_corporation: 'Diageo',
      unsure: true,
    });
  });
});

describe('the owners of the shops', () => {
  it.each([
    ['ALDI SÜD', 'Aldi Süd'],
    ['LIDL DIENSTLEISTUNG GMBH', 'Schwarz Gruppe'],
    ['KAUFLAND', 'Schwarz Gruppe'],
    ['PENNY MARKT GMBH', 'REWE Group'],
    ['NETTO MARKEN-DISCOUNT', 'Edeka Zentrale'],
    ['MARKTKAUF', 'Edeka Zentrale'],
    ['DM DROGERIE MARKT', 'dm-drogerie markt'],
    ['MUELLER DROGERIE', 'Müller Handels GmbH & Co. KG'],
    ['MEDIA MARKT', 'Ceconomy'],
    ['SATURN ELECTRO-HANDELSGESELLSCHAFT', 'Ceconomy'],
    ['HORNBACH BAUMARKT AG', 'Hornbach Holding'],
    ['ARAL TANKSTELLE', 'BP p.l.c.'],
    ['99 SPEED MART S/B', '99 Speed Mart Retail Holdings'],
    ['PETRONAS DAGANGAN BHD', 'Petroliam Nasional Berhad'],
    ['BHPetrol Subang Airport', 'Boustead Holdings Berhad'],
    ['INDOMARET', 'Salim Group'],
    ['ALFAMART', 'PT Sumber Alfaria Trijaya Tbk'],
    ['NTUC FAIRPRICE CO-OPERATIVE', 'NTUC Enterprise'],
    ['POPULAR BOOK CO. (M) SDN BHD', 'Popular Holdings'],
    ['MCDONALDS', "McDonald's Corporation"],
    ['IKEA', 'Ingka Group'],
  ])('%j is owned by %s', (merchant, owner) => {
    expect(enricher.corporationForMerchant(merchant)).toBe(owner);
  });

  it('knows no owner for a shop that is not a chain', () => {
    expect(enricher.corporationForMerchant('KEDAI RUNCIT AH SENG')).toBeNull();
    expect(enricher.corporationForMerchant('SYARIKAT PERNIAGAAN GIN KEE')).toBeNull();
  });
});

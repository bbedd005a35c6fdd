import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { STALE_EDIT_MESSAGE, STALE_MERCHANT_MESSAGE } from '@receipts/core/contract/edits';
import type { AppData, ReportItem } from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import type { MerchantDetailAnswer } from '@receipts/core/contract/details';
import { FakeAnalyzer, dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { figuresOf, recomputeFromRows } from '../../packages/core/test/support/recompute';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

/** The routes of review and correct, with what each refuses (read-only ones have nothing to go stale). */
const EDIT_ROUTES = [
  'updateReceipt',
  'saveReceipt',
  'saveItem',
  'deleteItem',
  'markReviewed',
  'reanalyseReceipt',
  'moveReceipt',
  'updateMerchant',
  'mergeMerchants',
  'listBrands',
  'getAnalysis',
] as const satisfies readonly RouteName[];

/** The fields of an item a person can set, as the edit form sends them. */
const pick = (item: ReportItem) => ({
  description: item.description,
  quantity: item.quantity,
  unit_price: item.unit_price,
  total_price: item.total_price,
  brand: item.brand,
});

const receiptImage = (merchant: string, total: number, date: string) =>
  dataUrlOf(
    fakeReceiptImage({
      merchant,
      postal: '1000',
      date,
      total,
      items: [
        { description: 'COCA-COLA', price: 2, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
        { description: 'BREAD', price: total - 2 },
      ],
    }),
  );

/**
 * Every review-and-correct route through HTTP against the real local stack, on both table stores:
 * another user's data is 403, bad input is a 400 that names the field and changes nothing, a stale
 * etag is 409 with the words the page shows, and the report figures match the rows afterwards.
 */
describe.each(STORE_BACKENDS)('review and correct on $storageBackend', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;

  const data = async () => {
    const answer = await alice.getAppData();
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const call = (client: ApiClient, route: RouteName, input: Record<string, unknown>) => {
    const { method, path } = ROUTES[route];
    return method === 'POST'
      ? client.call(method, path, { body: input })
      : client.call(method, path, {
          query: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])),
        });
  };
  const expectError = (answer: { status: number; body: unknown }, status: number, message?: RegExp) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    const body = answer.body as ErrorAnswer;
    expect(typeof body.message).toBe('string');
    if (message) expect(body.message).toMatch(message);
  };

  /** A valid request of each route on the current data (stale or not depends on `etag`). */
  function requests(
    now: AppData,
    userId: string,
    etag?: string,
  ): Record<(typeof EDIT_ROUTES)[number], Record<string, unknown>> {
    const receipt = now.reportReceipts.find((r) => r.merchant_name === 'Delhaize')!;
    const other = now.reportMerchants.find((m) => m.merchant_id !== receipt.merchant_id)!;
    const own = now.reportMerchants.find((m) => m.merchant_id === receipt.merchant_id)!;
    const item = now.reportProductItems.find((i) => i.receipt_id === receipt.receipt_id)!;
    const base = { userId, receiptId: receipt.receipt_id, etag: etag ?? receipt.etag };
    return {
      updateReceipt: { ...base, changes: { total_amount: 12.34 } },
      saveReceipt: {
        ...base,
        changes: { total_amount: 12.34 },
        items: [{ itemId: item.item_id, item: { ...pick(item), description: 'COLA' } }],
      },
      saveItem: {
        ...base,
        itemId: item.item_id,
        item: { description: 'COLA', quantity: 1, unit_price: 2, total_price: 2, brand: 'Coca-Cola' },
      },
      deleteItem: { ...base, itemId: item.item_id },
      markReviewed: base,
      reanalyseReceipt: base,
      moveReceipt: { ...base, merchantId: other.merchant_id },
      updateMerchant: {
        userId,
        merchantId: own.merchant_id,
        etag: etag ?? own.etag,
        changes: { city: 'Gent' },
      },
      mergeMerchants: {
        userId,
        merchantId: own.merchant_id,
        etag: etag ?? own.etag,
        duplicateId: other.merchant_id,
        duplicateEtag: etag ?? other.etag,
      },
      listBrands: { userId },
      getAnalysis: { userId, receiptId: receipt.receipt_id },
    };
  }

  beforeAll(async () => {
    env = await startTestStack({ storageBackend, analyzer: new FakeAnalyzer() });
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, `alice-${storageBackend}@example.com`, 'Alice'),
      signUpClient(env.stack, `bob-${storageBackend}@example.com`, 'Bob'),
    ]);
    expect(
      (await alice.upload('1710000000001-receipt.jpg', receiptImage('Delhaize', 7, '2024-03-01'))).status,
    ).toBe(202);
    expect(
      (await alice.upload('1710000000002-receipt.jpg', receiptImage('Colruyt', 9, '2024-03-05'))).status,
    ).toBe(202);
    expect(await alice.waitForQueue()).toEqual([]);
  }, 240_000);
  afterAll(async () => {
    await env?.stop();
  });

  it("answers 403 to another user on every route, and changes nothing of A's", async () => {
    const before = await data();
    const asAlice = requests(before, alice.userId);
    const asBobForAlice = requests(before, bob.userId);
    for (const route of EDIT_ROUTES) {
      // B naming A's user id, and B naming A's receipt under B's own id.
      expectError(await call(bob, route, asAlice[route]), 403, /own data|another user/);
      if ('receiptId' in asBobForAlice[route]) {
        expectError(await call(bob, route, asBobForAlice[route]), 403, /another user/);
      }
    }
    // A's merchants are not B's: under B's id they are simply not found.
    expectError(await call(bob, 'updateMerchant', asBobForAlice.updateMerchant), 404);
    expect(await data()).toEqual(before);
  });

  it('answers 400 with the field named to bad input, and changes nothing', async () => {
    const before = await data();
    const ok = requests(before, alice.userId);
    const item = (over: Record<string, unknown>) => ({
      ...ok.saveItem,
      item: { ...(ok.saveItem.item as object), ...over },
    });
    const changes = (over: Record<string, unknown>) => ({ ...ok.updateReceipt, changes: over });
    const bad: [RouteName, Record<string, unknown>, RegExp][] = [
      ['saveItem', item({ quantity: -1 }), /quantity must be more than 0/],
      ['saveItem', item({ description: 'x'.repeat(501) }), /description may be at most 500 characters/],
      ['saveItem', item({ total_price: 'ten' }), /total_price must be a number/],
      ['updateReceipt', changes({ total_amount: 'twelve' }), /total_amount must be a number/],
      [
        'saveReceipt',
        { ...ok.saveReceipt, items: [{ item: { ...(ok.saveItem.item as object), quantity: 0 } }] },
        /quantity must be more than 0/,
      ],
      ['updateReceipt', changes({ transaction_date: '2024-02-30' }), /transaction_date is not a day/],
      ['updateReceipt', changes({ currency_code: 'EUX' }), /currency_code is not a known/],
      ['updateReceipt', changes({ merchant_name: '  ' }), /merchant_name is required/],
      ['updateReceipt', changes({ owner: 'x' }), /Unrecognized key|owner/],
      ['updateReceipt', { ...ok.updateReceipt, etag: undefined }, /etag is required/],
      ['deleteItem', { ...ok.deleteItem, itemId: '../x' }, /itemId/],
      ['markReviewed', { ...ok.markReviewed, receiptId: "x' or 1=1" }, /receiptId/],
      ['reanalyseReceipt', { ...ok.reanalyseReceipt, userId: 'a b' }, /userId/],
      ['moveReceipt', { ...ok.moveReceipt, merchantId: '' }, /merchantId is required/],
      ['updateMerchant', { ...ok.updateMerchant, changes: { name: '' } }, /name is required/],
      [
        'mergeMerchants',
        { ...ok.mergeMerchants, duplicateId: ok.mergeMerchants.merchantId },
        /merged with itself/,
      ],
      ['listBrands', { userId: '../x' }, /userId/],
      ['getAnalysis', { ...ok.getAnalysis, receiptId: 'nope' }, /receiptId/],
    ];
    for (const [route, input, message] of bad) expectError(await call(alice, route, input), 400, message);
    expect(new Set(bad.map(([route]) => route))).toEqual(new Set(EDIT_ROUTES));
    expect(await data()).toEqual(before);
  });

  it('answers 409 with the reload message to an edit made on values changed since, and overwrites nothing', async () => {
    const read = await data();
    // Another tab saves first.
    const fresh = requests(read, alice.userId);
    expect((await call(alice, 'markReviewed', fresh.markReviewed)).status).toBe(200);
    const after = await data();
    const stale = requests(after, alice.userId, read.reportReceipts[0]!.etag);
    for (const route of EDIT_ROUTES.filter(
      (r) => !['updateMerchant', 'mergeMerchants', 'listBrands', 'getAnalysis'].includes(r),
    )) {
      const staleInput = {
        ...stale[route],
        etag: read.reportReceipts.find((r) => r.merchant_name === 'Delhaize')!.etag,
      };
      expectError(await call(alice, route, staleInput), 409, new RegExp(STALE_EDIT_MESSAGE));
    }
    for (const route of ['updateMerchant', 'mergeMerchants'] as const) {
      expectError(
        await call(alice, route, { ...stale[route], etag: 'W/"stale"' }),
        409,
        new RegExp(STALE_MERCHANT_MESSAGE),
      );
    }
    expect(await data()).toEqual(after);
  });

  it('edits, moves and merges through HTTP; every figure matches a recomputation from the rows', async () => {
    let now = await data();
    let ok = requests(now, alice.userId);
    expect((await call(alice, 'updateReceipt', ok.updateReceipt)).status).toBe(200);
    now = await data();
    ok = requests(now, alice.userId);
    const added = await call(alice, 'saveItem', {
      ...ok.saveItem,
      itemId: undefined,
      item: { description: 'KETCHUP', quantity: 1, unit_price: 3, total_price: 3, brand: 'Heinz' },
    });
    expect(added.status).toBe(200);
    now = await data();
    expect(now.brands.find((b) => b.name === 'Heinz')?.owning_corporation).toBe('The Kraft Heinz Company');
    ok = requests(now, alice.userId);
    expect((await call(alice, 'moveReceipt', ok.moveReceipt)).status).toBe(200);
    now = await data();
    expect(now.reportMerchants).toHaveLength(1);
    expect(figuresOf(now)).toEqual(await recomputeFromRows(env.stack.services.store, alice.userId));

    const brands = await call(alice, 'listBrands', { userId: alice.userId });
    expect(brands.status).toBe(200);
    expect(brands.body).toEqual(
      expect.arrayContaining([{ name: 'Heinz', owning_corporation: 'The Kraft Heinz Company' }]),
    );
    const analysis = await call(alice, 'getAnalysis', ok.getAnalysis);
    expect(analysis.status).toBe(200);
    expect(
      (analysis.body as { result: { receipt: { total_amount: number } } }).result.receipt.total_amount,
    ).toBe(7);
  });

  it('saves fields and items in one request under one etag: items left out go, new ones come, a stale save changes nothing', async () => {
    expect(
      (await alice.upload('1710000000003-receipt.jpg', receiptImage('Spar Express', 10, '2024-04-01')))
        .status,
    ).toBe(202);
    expect(await alice.waitForQueue()).toEqual([]);
    let now = await data();
    const receipt = now.reportReceipts.find((r) => r.merchant_name === 'Spar Express')!;
    const [cola, bread] = now.reportProductItems.filter((i) => i.receipt_id === receipt.receipt_id);
    expect([cola?.description, bread?.description]).toEqual(['COCA-COLA', 'BREAD']);
    const base = { userId: alice.userId, receiptId: receipt.receipt_id, etag: receipt.etag };
    const butter = { description: 'BUTTER', quantity: 2, unit_price: 1.5, total_price: 3, brand: 'Heinz' };
    const body = {
      ...base,
      changes: { total_amount: 5.5, transaction_time: '18:05' },
      items: [{ itemId: cola!.item_id, item: { ...pick(cola!), total_price: 2.5 } }, { item: butter }],
    };

    // Refused whole, each with words naming what is wrong; nothing written.
    expectError(await call(alice, 'saveReceipt', { ...base }), 400, /Nothing to save/);
    expectError(
      await call(alice, 'saveReceipt', { ...body, items: [body.items[0], body.items[0]] }),
      400,
      /same item twice/,
    );
    expectError(
      await call(alice, 'saveReceipt', { ...body, items: [{ item: { ...butter, description: ' ' } }] }),
      400,
      /description is required/,
    );
    const otherItem = now.reportProductItems.find((i) => i.receipt_id !== receipt.receipt_id)!;
    expectError(
      await call(alice, 'saveReceipt', { ...body, items: [{ itemId: otherItem.item_id, item: butter }] }),
      400,
      /not an item of this receipt/,
    );
    expectError(await call(bob, 'saveReceipt', { ...body, userId: bob.userId }), 403);
    expect((await data()).version).toBe(now.version);

    const saved = await call(alice, 'saveReceipt', body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    now = await data();
    const after = now.reportReceipts.find((r) => r.receipt_id === receipt.receipt_id)!;
    expect(after.total_amount).toBe(5.5);
    expect(after.transaction_time).toBe('18:05:00');
    expect(after.total_checks_out).toBe(true);
    expect(after.edited).toEqual(expect.arrayContaining(['total_amount', 'transaction_time', 'items']));
    const items = now.reportProductItems.filter((i) => i.receipt_id === receipt.receipt_id);
    expect(items.map((i) => [i.item_id, i.description, i.total_price])).toEqual([
      [cola!.item_id, 'COCA-COLA', 2.5],
      [expect.not.stringMatching(bread!.item_id), 'BUTTER', 3],
    ]);
    expect(items[1]!.brand).toBe('Heinz');
    expect(figuresOf(now)).toEqual(await recomputeFromRows(env.stack.services.store, alice.userId));

    // The same save again carries the etag it was read with: 409, and the first save stands.
    const stale = await call(alice, 'saveReceipt', { ...body, changes: { total_amount: 99 } });
    expectError(stale, 409, new RegExp(STALE_EDIT_MESSAGE));
    expect((await data()).reportReceipts.find((r) => r.receipt_id === receipt.receipt_id)!.total_amount).toBe(
      5.5,
    );
  });

  it('answers an old link to a merged merchant with the merchant it was merged into, through merges of merges', async () => {
    for (const [file, name] of [
      ['1710000000004-receipt.jpg', 'Aldi Nord'],
      ['1710000000005-receipt.jpg', 'Aldi'],
    ] as const) {
      expect((await alice.upload(file, receiptImage(name, 4, '2024-04-02'))).status).toBe(202);
    }
    expect(await alice.waitForQueue()).toEqual([]);
    let now = await data();
    const merchant = (name: string) => now.reportMerchants.find((m) => m.name === name)!;
    const [nord, aldi, spar] = [merchant('Aldi Nord'), merchant('Aldi'), merchant('Spar Express')];
    const detail = (client: ApiClient, merchantId: string) =>
      client.call<MerchantDetailAnswer>('GET', '/api/merchantDetail', {
        query: { userId: client.userId, merchantId },
      });
    const merge = (kept: typeof aldi, duplicate: typeof aldi) =>
      call(alice, 'mergeMerchants', {
        userId: alice.userId,
        merchantId: kept.merchant_id,
        etag: kept.etag,
        duplicateId: duplicate.merchant_id,
        duplicateEtag: duplicate.etag,
      });

    expect((await merge(aldi, nord)).status).toBe(200);
    let old = await detail(alice, nord.merchant_id);
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({
      merchant_id: aldi.merchant_id,
      merged_from: nord.merchant_id,
      visits: 2,
    });
    expect(old.body.merchant?.name).toBe('Aldi');
    // The merchant itself is answered as it is, without a redirect.
    expect((await detail(alice, aldi.merchant_id)).body.merged_from).toBeUndefined();

    now = await data();
    expect((await merge(merchant('Spar Express'), merchant('Aldi'))).status).toBe(200);
    old = await detail(alice, nord.merchant_id);
    expect(old.body).toMatchObject({
      merchant_id: spar.merchant_id,
      merged_from: nord.merchant_id,
      visits: 3,
    });
    expect((await detail(alice, aldi.merchant_id)).body.merchant_id).toBe(spar.merchant_id);
    // Another user is not told where someone else's merchant went.
    expect((await detail(bob, nord.merchant_id)).status).toBe(404);
  });

  it('assesses the review again after every edit; only "Mark reviewed" clears it regardless', async () => {
    const receiptOf = async () =>
      (await data()).reportReceipts.find((r) => r.transaction_date === '2024-03-05')!;
    const base = async () => {
      const r = await receiptOf();
      return { userId: alice.userId, receiptId: r.receipt_id, etag: r.etag };
    };
    const reasons = async () => {
      const r = await receiptOf();
      return { needs_review: r.needs_review, review_reasons: r.review_reasons };
    };
    expect(await reasons()).toEqual({ needs_review: false, review_reasons: [] });

    // A corrected total the items (2 + 7) no longer add up to: the receipt stays in review.
    const raised = await call(alice, 'updateReceipt', { ...(await base()), changes: { total_amount: 12 } });
    expect(raised.status).toBe(200);
    expect(await reasons()).toEqual({ needs_review: true, review_reasons: ['total_check_fails'] });

    // The missing item added: the items add up again, and the receipt leaves the review list.
    const item = { description: 'MILK', quantity: 1, unit_price: 3, total_price: 3, brand: null };
    expect((await call(alice, 'saveItem', { ...(await base()), item })).status).toBe(200);
    expect(await reasons()).toEqual({ needs_review: false, review_reasons: [] });

    // Flagged again by an edit, then marked reviewed: cleared whatever the checks say.
    await call(alice, 'updateReceipt', { ...(await base()), changes: { total_amount: 13 } });
    expect((await reasons()).needs_review).toBe(true);
    expect((await call(alice, 'markReviewed', await base())).status).toBe(200);
    expect(await reasons()).toEqual({ needs_review: false, review_reasons: [] });

    // Without any item left, the other checks still hold: a date in the future is flagged.
    const receiptId = (await receiptOf()).receipt_id;
    const items = (await data()).reportProductItems.filter((i) => i.receipt_id === receiptId);
    expect(items).toHaveLength(3);
    for (const i of items)
      expect((await call(alice, 'deleteItem', { ...(await base()), itemId: i.item_id })).status).toBe(200);
    expect((await data()).reportProductItems.filter((i) => i.receipt_id === receiptId)).toEqual([]);
    const future = await call(alice, 'updateReceipt', {
      ...(await base()),
      changes: { transaction_date: '2099-01-01' },
    });
    expect(future.status).toBe(200);
    const after = await data();
    const flagged = after.reportReceipts.find((r) => r.transaction_date === '2099-01-01')!;
    expect(flagged.review_reasons).toEqual(['future_date']);
    expect(figuresOf(after)).toEqual(await recomputeFromRows(env.stack.services.store, alice.userId));
  });

  it('gives a receipt that prints no date the day it was uploaded, noted, and leaves it out of review', async () => {
    const image = dataUrlOf(
      fakeReceiptImage({
        merchant: 'Bakmi GM',
        date: null,
        printsNoDate: true,
        total: 48000,
        items: [{ description: 'BAKMI', price: 48000 }],
      }),
    );
    const upload = await bob.call('POST', '/api/upload', {
      body: { userId: bob.userId, imgSrc: image, fileName: '1710000000003-receipt.jpg', day: '2024-03-07' },
    });
    expect(upload.status).toBe(202);
    expect(await bob.waitForQueue()).toEqual([]);
    const answer = await bob.getAppData();
    const receipt = answer.body.reportReceipts.find((r) => r.merchant_name === 'Bakmi GM')!;
    expect(receipt).toMatchObject({
      transaction_date: '2024-03-07',
      needs_review: false,
      review_reasons: ['date_from_upload'],
    });
  });
});

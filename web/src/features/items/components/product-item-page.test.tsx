import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { makeAppData, makeBrand, makeItem } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';

describe('Product item', () => {
  it("shows the item's description, brand and corporation and the items of the same brand", async () => {
    fakeApi({
      ...detailRoutes(
        makeAppData({
          brands: [makeBrand({ name: 'Lotus', owning_corporation: 'Lotus Bakeries' })],
          reportProductItems: [
            makeItem({ item_id: 'i1', description: 'Speculoos 250g', brand: 'Lotus', unit_price: 1.99 }),
            makeItem({
              item_id: 'i2',
              description: 'Speculoos spread',
              brand: 'Lotus',
              unit_price: 3.49,
              merchant_name: 'Aldi',
            }),
            makeItem({ item_id: 'i3', description: 'Cola', brand: 'Coca-Cola' }),
          ],
        }),
      ),
      'GET /api/listQueue': [],
    });
    renderApp('/ProductItem?itemId=i1', { state: signedInState() });
    expect(await screen.findByText('Lotus Bakeries')).toBeInTheDocument();
    // Each fact opens its own page.
    expect(screen.getByRole('link', { name: 'Lotus' })).toHaveAttribute('href', '/Brand?brandId=Lotus');
    expect(screen.getByRole('link', { name: 'Lotus Bakeries' })).toHaveAttribute(
      'href',
      '/Corporation?name=Lotus%20Bakeries',
    );
    expect(screen.getByRole('link', { name: /^Receipt of / })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/Receipt\?receiptId=/),
    );
    expect(screen.getByRole('link', { name: 'Colruyt' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/Merchant\?merchantId=/),
    );
    const table = screen.getByRole('table', { name: 'Items of the same brand' });
    // The brand's items come from the items report filtered by brand.
    expect(await within(table).findByText('Speculoos spread')).toBeInTheDocument();
    const rows = within(table.querySelector('tbody') as HTMLElement).getAllByRole('row');
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Speculoos 250g', 'Colruyt', '1.99'],
      ['Speculoos spread', 'Aldi', '3.49'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeApi } from '../../testing/fake-api';
import { detailRoutes } from '../../testing/fake-details';
import { makeAppData } from '../../testing/data';
import { renderApp, signedInState } from '../../testing/render';

async function menuEntries() {
  const nav = await screen.findByRole('navigation', { name: 'Menu' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('Menu', () => {
  it('shows only Home when signed out', async () => {
    renderApp('/Menu');
    expect(await menuEntries()).toEqual([['Home', '/']]);
  });

  it('adds Reports, Receipts, Needs review, Upload and Account when signed in, and the data version at the bottom', async () => {
    const api = fakeApi({
      ...detailRoutes(makeAppData({ version: '2024-05-01T10:00:00Z#7' })),
      'GET /api/listQueue': [],
    });
    renderApp('/Menu', { state: signedInState() });
    expect(await menuEntries()).toEqual([
      ['Home', '/'],
      ['Reports', '/Reports'],
      ['Receipts', '/Receipts'],
      ['Needs review', '/Review'],
      ['Upload', '/Camera?p=Upload'],
      ['Account: my data', '/Account'],
    ]);
    expect(await screen.findByText('Data version: 2024-05-01T10:00:00Z#7')).toBeInTheDocument();
    // The version comes with the header's one-row review count: the menu downloads no receipts.
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);
    expect(api.callsTo('GET', '/api/report').every((c) => c.query.pageSize === '1')).toBe(true);
  });

  it('adds the Storage Tester link for the admin account only', async () => {
    fakeApi({ ...detailRoutes(makeAppData()), 'GET /api/listQueue': [] });
    renderApp('/Menu', { state: signedInState({ userEmail: 'Admin@Example.com' }) });
    expect(await menuEntries()).toContainEqual(['Storage Tester', '/StorageTester']);
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

describe('Storage Tester', () => {
  it('lists tables and records, creates and deletes a test record, and pages', async () => {
    let records = [{ partitionKey: 'storage-tester', rowKey: 'test-1', note: 'hello' }];
    const api = fakeApi({
      'GET /api/listQueue': [],
      'GET /api/storage/tables': { tables: ['Receipts', 'Users'] },
      'GET /api/storage/records': (call) =>
        call.query.continuationToken
          ? { records: [{ partitionKey: 'p2', rowKey: 'r2' }] }
          : { records, continuationToken: 'next' },
      'POST /api/storage/records': () => {
        const record = { partitionKey: 'storage-tester', rowKey: 'test-2', note: 'new' };
        records = [...records, record];
        return { status: 201, body: record };
      },
      'DELETE /api/storage/records': (call) => {
        records = records.filter((r) => r.rowKey !== call.query.rowKey);
        return { deleted: true };
      },
    });
    const user = userEvent.setup();
    renderApp('/StorageTester', { state: signedInState({ userEmail: 'admin@example.com' }) });
    await user.click(await screen.findByRole('button', { name: 'List tables' }));
    expect(await screen.findByText('2 tables: Receipts, Users')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Table' }), 'Receipts');
    await user.click(screen.getByRole('button', { name: 'List records' }));
    const table = await screen.findByRole('table', { name: 'Records of Receipts' });
    expect(within(table).getByText('test-1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'More records' }));
    expect(await within(table).findByText('r2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create test record' }));
    expect(await screen.findByText('Created record storage-tester / test-2.')).toBeInTheDocument();
    expect(await within(table).findByText('test-2')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/storage/records')[0]?.body).toEqual({ table: 'Receipts' });

    await user.click(within(table).getByRole('button', { name: 'Delete record storage-tester test-1' }));
    await waitFor(() => expect(within(table).queryByText('test-1')).not.toBeInTheDocument());
  });

  it("shows the server's refusal for a non-admin", async () => {
    fakeApi({
      'GET /api/listQueue': [],
      'GET /api/storage/tables': {
        status: 403,
        body: { error: 'Forbidden', message: 'Only the admin may use the storage tester.' },
      },
    });
    renderApp('/StorageTester', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'List tables' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only the admin may use the storage tester.');
  });
});

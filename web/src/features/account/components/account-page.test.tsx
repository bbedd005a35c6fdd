import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../testing/fake-api';
import { fakeFirebaseModule } from '../../../testing/fake-firebase';
import { renderApp, signedInState } from '../../../testing/render';

describe('Account page', () => {
  it('offers the delete button only once DELETE is typed, then deletes, signs out and lands on Login', async () => {
    const api = fakeApi({
      'POST /api/deleteAccount': (call) =>
        (call.body as { confirmation: string }).confirmation === 'DELETE'
          ? { deleted: true, removed: { rows: 12, blobs: 3 } }
          : {
              status: 400,
              body: {
                error: 'InvalidRequest',
                message: 'To delete your account, type DELETE (in capital letters) in the confirmation box.',
              },
            },
    });
    const { router } = renderApp('/Account', { state: signedInState() });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Delete my account…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete my account' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
    expect(confirm).toBeDisabled();
    expect(router.state.location.pathname).toBe('/Account');

    await user.clear(within(dialog).getByLabelText('Type DELETE to confirm'));
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/Login'));
    expect(api.callsTo('POST', '/api/deleteAccount').map((c) => c.body)).toEqual([
      { userId: 'user-1', confirmation: 'DELETE' },
    ]);
    expect(fakeFirebaseModule.signOutUser).toHaveBeenCalled();
    expect(await screen.findByText('Your account and all its data were deleted.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Login with email' })).toBeInTheDocument();
  });

  it("asks for the data without images and shows the server's message when the download is refused", async () => {
    const tooLarge =
      'Your data with its images is larger than one download from this site can carry (about 4 MB).';
    const api = fakeApi({
      'GET /api/downloadMyData': { status: 413, body: { error: 'AnswerTooLarge', message: tooLarge } },
    });
    renderApp('/Account', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(tooLarge);
    await user.click(screen.getByRole('button', { name: 'Download without images' }));
    await waitFor(() => expect(api.callsTo('GET', '/api/downloadMyData')).toHaveLength(2));
    expect(api.callsTo('GET', '/api/downloadMyData').map((c) => c.query)).toEqual([
      { userId: 'user-1', images: 'true' },
      { userId: 'user-1', images: 'false' },
    ]);
    expect(api.calls.every((c) => c.authorization === 'Bearer test-token')).toBe(true);
  });

  it('downloads from the link the server answers with when the data is kept in storage (cloud)', async () => {
    const url = 'https://bucket.s3.amazonaws.com/exports/user-1/2026-01-01.zip?X-Amz-Signature=abc';
    const api = fakeApi({
      'GET /api/downloadMyData': { url, expiresAt: '2026-01-01T00:15:00.000Z' },
    });
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download });
    });
    try {
      renderApp('/Account', { state: signedInState() });
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Download my data' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]).toEqual({ href: url, download: '' });
      expect(api.callsTo('GET', '/api/downloadMyData').map((c) => c.query)).toEqual([
        { userId: 'user-1', images: 'true' },
      ]);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      click.mockRestore();
    }
  });

  it('lists the rules learnt from corrections and removes one', async () => {
    let rules = [
      {
        id: 'item~jayagrocer~nescclassic200g',
        kind: 'item',
        text: 'NESC CLASSIC 200G',
        shop: 'Jaya Grocer',
        chain: null,
        sets_brand: true,
        brand: 'Nescafé',
        owner: 'Nestlé',
        description: null,
        merchant_name: null,
        updated_at: '2026-02-01T10:00:00.000Z',
      },
      {
        id: 'merchant~jayagr0cer',
        kind: 'merchant',
        text: 'JAYA GR0CER',
        shop: null,
        chain: null,
        sets_brand: false,
        brand: null,
        owner: null,
        description: null,
        merchant_name: 'Jaya Grocer',
        updated_at: '2026-01-01T10:00:00.000Z',
      },
    ];
    const api = fakeApi({
      'GET /api/listCorrectionRules': () => ({ rules, limit: 2000 }),
      'DELETE /api/deleteCorrectionRule': (call) => {
        rules = rules.filter((r) => r.id !== call.query.ruleId);
        return { deleted: true };
      },
    });
    renderApp('/Account', { state: signedInState() });
    const user = userEvent.setup();

    const list = await screen.findByRole('list', { name: 'Your correction rules' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '“NESC CLASSIC 200G” at Jaya Grocer has the brand NescaféRemove',
      'The merchant read as “JAYA GR0CER” is Jaya GrocerRemove',
    ]);
    await user.click(within(list).getByRole('button', { name: 'Remove the rule for NESC CLASSIC 200G' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo('DELETE', '/api/deleteCorrectionRule').map((c) => c.query)).toEqual([
      { userId: 'user-1', ruleId: 'item~jayagrocer~nescclassic200g' },
    ]);
  });

  it('sends a signed-out visitor to Login', async () => {
    const { router } = renderApp('/Account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/Login'));
  });
});

import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { HeaderBar, type HeaderBarProps } from './header-bar';

function renderHeader(props: Partial<HeaderBarProps> = {}) {
  const onReportsClick = vi.fn();
  render(
    <MemoryRouter>
      <HeaderBar
        signedIn={false}
        newReport={false}
        pendingCount={0}
        onReportsClick={onReportsClick}
        {...props}
      />
    </MemoryRouter>,
  );
  return { onReportsClick };
}

const href = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

describe('HeaderBar', () => {
  it('shows only home, sign-in (removed user) and menu when signed out', () => {
    renderHeader({ pendingCount: 3, newReport: true });
    expect(href('Home')).toBe('/');
    expect(href('Menu')).toBe('/Menu');
    expect(href('Sign in (signed out)')).toBe('/Login');
    expect(screen.queryByRole('link', { name: /Reports/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /camera/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /in progress/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(3);
  });

  it('adds reports and camera when signed in, and the user icon becomes the followed user', () => {
    renderHeader({ signedIn: true });
    expect(href('Reports')).toBe('/Reports');
    expect(href('Scan a receipt with the camera')).toBe('/Camera?p=Camera');
    expect(href('Account (signed in)')).toBe('/Login');
    expect(screen.queryByRole('link', { name: /in progress/ })).not.toBeInTheDocument();
  });

  it('shows the pending counter with the upload icon, linking to the images in progress', () => {
    renderHeader({ signedIn: true, pendingCount: 2 });
    const counter = screen.getByRole('link', { name: '2 receipts in progress' });
    expect(counter).toHaveAttribute('href', '/ReceiptImages');
    expect(counter).toHaveTextContent('2');
    expect(counter.querySelector('svg')).not.toBeNull();
  });

  it('does not count failed or stuck scans as in progress, but links to them when nothing else is', () => {
    renderHeader({ signedIn: true, pendingCount: 0, attentionCount: 1 });
    expect(screen.queryByRole('link', { name: /in progress/ })).not.toBeInTheDocument();
    const attention = screen.getByRole('link', { name: '1 scan needs attention' });
    expect(attention).toHaveAttribute('href', '/ReceiptImages');
    expect(attention).toHaveTextContent('1');
  });

  it('shows only the in-progress counter while scans are on their way', () => {
    renderHeader({ signedIn: true, pendingCount: 1, attentionCount: 2 });
    expect(screen.getByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /attention/ })).not.toBeInTheDocument();
  });

  it('makes the reports icon blink while a new report is ready, and clears the flag when followed', async () => {
    const { onReportsClick } = renderHeader({ signedIn: true, newReport: true });
    const reports = screen.getByRole('link', { name: 'Reports (new report ready)' });
    const quiet = reports.className;
    expect(getComputedStyle(reports).animationIterationCount).toBe('infinite');
    await userEvent.setup().click(reports);
    expect(onReportsClick).toHaveBeenCalledOnce();
    expect(quiet).not.toBe('');
  });

  it('does not blink without a new report', () => {
    renderHeader({ signedIn: true, newReport: false });
    expect(getComputedStyle(screen.getByRole('link', { name: 'Reports' })).animationIterationCount).not.toBe(
      'infinite',
    );
  });

  it('gives every icon link a label for screen readers', () => {
    renderHeader({ signedIn: true, pendingCount: 1, newReport: true });
    for (const link of screen.getAllByRole('link')) expect(link).toHaveAccessibleName();
  });
});

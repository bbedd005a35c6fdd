import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JsonTree, shortenString } from './json-tree';

describe('JsonTree', () => {
  it('shortens strings after 30 characters with an ellipsis', () => {
    expect(shortenString('a'.repeat(30))).toBe('a'.repeat(30));
    expect(shortenString('b'.repeat(31))).toBe(`${'b'.repeat(30)}…`);
  });

  it('shows an expandable tree with long strings shortened and kept whole in the tooltip', async () => {
    const long = 'Rue de la Loi 200, 1040 Etterbeek, Belgium';
    render(
      <JsonTree
        ariaLabel="Analysis result"
        rootName="analysisResult"
        value={{
          merchant: { street_address: long, name: 'Delhaize' },
          items: [{ description: 'Bread', total: 2.1 }],
        }}
      />,
    );
    const tree = screen.getByRole('tree', { name: 'Analysis result' });
    expect(tree).toBeInTheDocument();
    const merchant = screen.getByRole('treeitem', { name: /^merchant/ });
    expect(merchant).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/Delhaize/)).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByText('merchant'));
    expect(merchant).toHaveAttribute('aria-expanded', 'true');
    const shortened = screen.getByText(`"${long.slice(0, 30)}…"`);
    expect(shortened).toHaveAttribute('title', long);
    expect(screen.getByText('"Delhaize"')).not.toHaveAttribute('title');
  });

  it('shows arrays with their length and numbers as numbers', async () => {
    render(<JsonTree ariaLabel="Data" value={{ items: [{ total: 2.1 }] }} />);
    expect(screen.getByText('[1]')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByText('items'));
    await userEvent.setup().click(screen.getByText('0'));
    expect(screen.getByText('2.1')).toBeInTheDocument();
  });
});

import { Open20Regular } from '@fluentui/react-icons/svg/open';
import { createColumnHelper, type DisplayColumnDef } from '@tanstack/react-table';
import { IconLink } from '../../../components/icon-link';

/** The open-details icon of the report tables. */
export function OpenLink({ to, label, onClick }: { to: string; label: string; onClick?: () => void }) {
  return <IconLink to={to} label={label} icon={<Open20Regular />} onClick={onClick} />;
}

/**
 * The last column of a report table: an {@link OpenLink} to the row's own screen, under a header only
 * screen readers see.
 * @param link - the link's target, accessible label and optional click handler for a row
 */
export function openColumn<T>(
  link: (row: T) => { to: string; label: string; onClick?: () => void },
): DisplayColumnDef<T, unknown> {
  return createColumnHelper<T>().display({
    id: 'open',
    header: () => <span className="visually-hidden">Open</span>,
    meta: { width: '56px' },
    cell: (info) => <OpenLink {...link(info.row.original)} />,
  });
}

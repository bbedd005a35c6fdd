import { Open20Regular } from '@fluentui/react-icons/svg/open';
import { IconLink } from '../../../components/icon-link';

/** The open-details icon of the report tables. */
export function OpenLink({ to, label, onClick }: { to: string; label: string; onClick?: () => void }) {
  return <IconLink to={to} label={label} icon={<Open20Regular />} onClick={onClick} />;
}

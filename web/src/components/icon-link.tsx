import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalXXS,
    minWidth: '44px',
    height: '44px',
    paddingInline: tokens.spacingHorizontalXS,
    borderRadius: tokens.borderRadiusMedium,
    color: 'inherit',
    textDecoration: 'none',
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
});

export interface IconLinkProps {
  to: string;
  /** What a screen reader says; also the tooltip. */
  label: string;
  icon: ReactNode;
  children?: ReactNode;
  className?: string;
  onClick?: () => void;
}

/** A router link that looks like an icon button, with a 44 px touch target. */
export function IconLink({ to, label, icon, children, className, onClick }: IconLinkProps) {
  const styles = useStyles();
  return (
    <Link
      to={to}
      aria-label={label}
      title={label}
      className={mergeClasses(styles.root, className)}
      onClick={onClick}
    >
      {icon}
      {children}
    </Link>
  );
}

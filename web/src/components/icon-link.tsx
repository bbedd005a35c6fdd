import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
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
    flexShrink: 0,
    '@media (max-width: 479px)': { minWidth: '40px', paddingInline: '2px' },
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':focus-visible': { outline: `2px solid currentColor`, outlineOffset: '-3px' },
  },
  // The screen being shown, marked by aria-current="page".
  current: { backgroundColor: tokens.colorSubtleBackgroundPressed },
  // On the header's brand colour.
  onBrand: { ':hover': { backgroundColor: tokens.colorBrandBackgroundHover } },
  onBrandCurrent: { backgroundColor: tokens.colorBrandBackgroundPressed },
});

export interface IconLinkProps {
  to: string;
  /** What a screen reader says; also the tooltip. */
  label: string;
  icon: ReactNode;
  children?: ReactNode;
  className?: string;
  onClick?: () => void;
  /** 'onBrand' for links on the header bar. */
  tone?: 'neutral' | 'onBrand';
}

/** A router link that looks like an icon button, with a 44 px touch target. */
export function IconLink({ to, label, icon, children, className, onClick, tone = 'neutral' }: IconLinkProps) {
  const styles = useStyles();
  return (
    <NavLink
      to={to}
      end
      aria-label={label}
      title={label}
      className={({ isActive }) =>
        mergeClasses(
          styles.root,
          tone === 'onBrand' && styles.onBrand,
          isActive && (tone === 'onBrand' ? styles.onBrandCurrent : styles.current),
          className,
        )
      }
      onClick={onClick}
    >
      {icon}
      {children}
    </NavLink>
  );
}

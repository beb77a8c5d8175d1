/**
 * The reusable button: text, icon, size, kind (default primary), radius, tooltip,
 * disabled and active states. With `href` it renders a link that looks the same (header and
 * navigation go through hash links, so the router's leave-confirmation sees them).
 *
 * Every size keeps a touch target of at least 48 px (docs/architecture.md, Look and feel; gloves); `small` only looks
 * smaller. An icon-only button takes its accessible name from `tooltip`.
 */
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ComponentType, ReactNode, Ref } from 'react';
import type { IconProps } from '../icons/icons';

type ButtonKind = 'primary' | 'secondary' | 'danger' | 'ghost';
type ButtonSize = 'small' | 'medium' | 'large';
type ButtonRadius = 'none' | 'small' | 'medium' | 'round';

interface CommonProps {
  text?: ReactNode;
  icon?: ComponentType<IconProps>;
  /** Icon after the text instead of before it. */
  iconEnd?: boolean;
  size?: ButtonSize;
  kind?: ButtonKind;
  radius?: ButtonRadius;
  /** Shown on hover and keyboard focus; also the accessible name of an icon-only button. */
  tooltip?: string;
  /** A toggled or current state (pressed toggle, current navigation item). */
  active?: boolean;
  disabled?: boolean;
  /** Stretch to the width of the container (phone layouts). */
  block?: boolean;
  className?: string;
  children?: ReactNode;
}

// `ref` reaches function components as a prop (React 19, Preact 11); it is forwarded to the element.
export type ButtonProps = CommonProps &
  Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'disabled'> & { href?: undefined; ref?: Ref<HTMLButtonElement> };
export type LinkButtonProps = CommonProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'children'> & { href: string; ref?: Ref<HTMLAnchorElement> };

const ICON_SIZE: Record<ButtonSize, number> = { small: 18, medium: 22, large: 26 };

function classes(props: CommonProps, iconOnly: boolean): string {
  const { size = 'medium', kind = 'primary', radius = 'medium', active, disabled, block, className } = props;
  return [
    'btn',
    `btn--${kind}`,
    `btn--${size}`,
    `btn--radius-${radius}`,
    iconOnly ? 'btn--icon-only' : '',
    active ? 'btn--active' : '',
    disabled ? 'btn--disabled' : '',
    block ? 'btn--block' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

function Content({ text, icon: Icon, iconEnd, size = 'medium', children }: CommonProps) {
  const icon = Icon ? <Icon size={ICON_SIZE[size]} /> : null;
  const label = text ?? children;
  return (
    <>
      {!iconEnd && icon}
      {label !== undefined && label !== null && label !== '' ? <span className="btn__text">{label}</span> : null}
      {iconEnd && icon}
    </>
  );
}

export function Button(props: ButtonProps | LinkButtonProps) {
  const { text, icon, iconEnd, size, kind, radius, tooltip, active, disabled, block, className, children, ...rest } = props;
  const iconOnly = Boolean(icon) && (text === undefined || text === '') && children === undefined;
  const cls = classes({ size, kind, radius, active, disabled, block, className }, iconOnly);
  // The tooltip is drawn by CSS on hover and keyboard focus (components.css); no `title`, which
  // would show a second, native tooltip.
  const a11y = {
    'data-tooltip': tooltip,
    'aria-label': iconOnly ? tooltip : undefined,
  };
  const content = (
    <Content text={text} icon={icon} iconEnd={iconEnd} size={size}>
      {children}
    </Content>
  );

  if (typeof rest.href === 'string') {
    const { href, onClick, ...anchorRest } = rest as Omit<LinkButtonProps, keyof CommonProps>;
    return (
      <a
        {...anchorRest}
        {...a11y}
        className={cls}
        // A disabled link has no href (not focusable, not followable) but keeps its place.
        href={disabled ? undefined : href}
        aria-disabled={disabled || undefined}
        aria-current={active ? 'page' : undefined}
        onClick={disabled ? (event) => event.preventDefault() : onClick}
      >
        {content}
      </a>
    );
  }

  const { type = 'button', ...buttonRest } = rest as Omit<ButtonProps, keyof CommonProps>;
  return (
    <button
      {...buttonRest}
      {...a11y}
      // A submit button must be asked for explicitly; the default "submit" surprises in forms.
      type={type}
      className={cls}
      disabled={disabled}
      aria-pressed={active === undefined ? undefined : active}
    >
      {content}
    </button>
  );
}

import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { Button } from '../../src/client/components/button/button';
import { DownloadIcon } from '../../src/client/components/icons/icons';

afterEach(cleanup);

describe('Button (text, icon, size, kind, radius, tooltip, disabled, active)', () => {
  it('defaults: primary kind, medium size, medium radius, type=button, not a toggle', () => {
    render(<Button text="Shrani" />);
    const button = screen.getByRole('button', { name: 'Shrani' });
    expect(button.className.split(' ')).toEqual(expect.arrayContaining(['btn', 'btn--primary', 'btn--medium', 'btn--radius-medium']));
    expect(button.getAttribute('type')).toBe('button');
    expect(button.hasAttribute('aria-pressed')).toBe(false);
  });

  it('kind, size and radius map to classes', () => {
    render(<Button text="Izbriši" kind="danger" size="large" radius="round" />);
    const cls = screen.getByRole('button').className.split(' ');
    expect(cls).toEqual(expect.arrayContaining(['btn--danger', 'btn--large', 'btn--radius-round']));
    expect(cls).not.toContain('btn--primary');
  });

  it('an icon-only button is named by its tooltip; the icon is hidden from screen readers', () => {
    render(<Button icon={DownloadIcon} tooltip="Prenos podatkov" />);
    const button = screen.getByRole('button', { name: 'Prenos podatkov' });
    expect(button.className).toContain('btn--icon-only');
    expect(button.getAttribute('data-tooltip')).toBe('Prenos podatkov');
    expect(button.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('text with an icon keeps the text as its name and the tooltip as a hint', () => {
    render(<Button icon={DownloadIcon} text="Prenos" tooltip="Prenos podatkov" />);
    const button = screen.getByRole('button', { name: 'Prenos' });
    expect(button.hasAttribute('aria-label')).toBe(false);
    expect(button.getAttribute('data-tooltip')).toBe('Prenos podatkov');
  });

  it('disabled: not clickable, marked disabled', async () => {
    const onClick = jest.fn();
    render(<Button text="Pošlji" disabled onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Pošlji' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.className).toContain('btn--disabled');
    // A user's click: a browser sends none to a disabled button.
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('active: aria-pressed and the active class; inactive toggle says aria-pressed=false', () => {
    const { rerender } = render(<Button text="Premor" active />);
    expect(screen.getByRole('button').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button').className).toContain('btn--active');
    rerender(<Button text="Premor" active={false} />);
    expect(screen.getByRole('button').getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button').className).not.toContain('btn--active');
  });

  it('clicks call onClick; ref reaches the element', () => {
    const onClick = jest.fn();
    const ref = createRef<HTMLButtonElement>();
    render(<Button ref={ref} text="V redu" onClick={onClick} />);
    fireEvent.click(screen.getByRole('button'));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(ref.current?.tagName).toBe('BUTTON');
  });

  it('with href it is a link; active marks the current page; disabled removes the href', () => {
    const { rerender } = render(<Button href="#/about" text="O aplikaciji" active />);
    const link = screen.getByRole('link', { name: 'O aplikaciji' });
    expect(link.getAttribute('href')).toBe('#/about');
    expect(link.getAttribute('aria-current')).toBe('page');
    rerender(<Button href="#/about" text="O aplikaciji" disabled />);
    const disabled = screen.getByText('O aplikaciji').closest('a')!;
    expect(disabled.hasAttribute('href')).toBe(false);
    expect(disabled.getAttribute('aria-disabled')).toBe('true');
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { sl } from '../../src/common/i18n/sl';
import { EmptyState } from '../../src/client/components/empty-state/empty-state';
import * as Icons from '../../src/client/components/icons/icons';
import { Loading } from '../../src/client/components/loading/loading';
import { Page } from '../../src/client/components/page/page';

afterEach(cleanup);

describe('Icons (logo, comment info, no wifi, download, …)', () => {
  const icons = Object.entries(Icons).filter(([name]) => name.endsWith('Icon')) as Array<[string, (p: Icons.IconProps) => ReactElement]>;

  it('include the logo, comment-info, no-wifi and download icons', () => {
    expect(icons.map(([name]) => name)).toEqual(expect.arrayContaining(['LogoIcon', 'CommentInfoIcon', 'NoWifiIcon', 'DownloadIcon']));
  });

  it.each(icons)('%s is decorative without a title and a named image with one', (_name, Icon) => {
    const { container, rerender } = render(<Icon size={32} />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('width')).toBe('32');
    rerender(<Icon title="Brez povezave" />);
    expect(screen.getByRole('img', { name: 'Brez povezave' })).toBeTruthy();
  });

  it('two logos on one page do not share a clip-path id', () => {
    const { container } = render(
      <>
        <Icons.LogoIcon />
        <Icons.LogoIcon />
      </>,
    );
    const ids = Array.from(container.querySelectorAll('clipPath')).map((c) => c.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('Loading', () => {
  it("says 'Nalagam...' in a polite status region", () => {
    render(<Loading />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Nalagam...');
    expect(sl.common.loading).toBe('Nalagam...');
    expect(status.getAttribute('aria-live')).toBe('polite');
  });

  it('takes another text and an inline layout', () => {
    render(<Loading text="Pošiljam..." inline />);
    expect(screen.getByRole('status').className).toContain('loading--inline');
    expect(screen.getByText('Pošiljam...')).toBeTruthy();
  });
});

describe('Page and EmptyState', () => {
  it('Page renders the title as the h1, lead, actions and back link', () => {
    render(
      <Page title="Poti" lead="Vse poti" actions={<button type="button">Nova</button>} back={<a href="#/">Nazaj</a>}>
        <p>vsebina</p>
      </Page>,
    );
    const h1 = screen.getByRole('heading', { level: 1, name: 'Poti' });
    expect(h1.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByText('Vse poti')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nova' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Nazaj' })).toBeTruthy();
    expect(screen.getByText('vsebina')).toBeTruthy();
  });

  it('EmptyState shows icon, title, text, action and its tone', () => {
    const { container } = render(
      <EmptyState icon={Icons.LockIcon} title="Zaklenjeno" tone="warning" action={<button type="button">Domov</button>}>
        <p>Ni dostopa.</p>
      </EmptyState>,
    );
    expect(container.querySelector('.empty-state--warning')).not.toBeNull();
    expect(container.querySelector('[data-icon="lock"]')).not.toBeNull();
    expect(screen.getByText('Zaklenjeno')).toBeTruthy();
    expect(screen.getByText('Ni dostopa.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Domov' })).toBeTruthy();
  });
});

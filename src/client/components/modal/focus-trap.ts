/** Keyboard focus helpers for dialogs: what can take focus, and keeping Tab inside a container. */

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

export function focusableElements(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true' && !el.closest('[inert]'),
  );
}

/**
 * Moves focus to the other end when Tab would leave the container. Returns true when it handled
 * the key, so the caller can stop the event.
 */
export function trapTab(event: KeyboardEvent, container: HTMLElement): boolean {
  if (event.key !== 'Tab') return false;
  const items = focusableElements(container);
  if (items.length === 0) {
    // Nothing to focus inside: keep focus on the container itself.
    event.preventDefault();
    container.focus();
    return true;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const current = document.activeElement;
  const inside = current instanceof Node && container.contains(current);
  if (event.shiftKey && (current === first || current === container || !inside)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (current === last || !inside)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

/** The app's scripts, which index.html lists and the first entry loads once the early reads have left. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { APP_SCRIPTS_META, loadAppScripts } from '../../src/client/app/bootstrap/app-scripts';

afterEach(() => {
  document.head.querySelector(`meta[name="${APP_SCRIPTS_META}"]`)?.remove();
  for (const script of document.body.querySelectorAll('script')) script.remove();
});

describe('loadAppScripts', () => {
  it('adds the listed scripts in their order, each run in that order as it arrives', () => {
    const meta = document.createElement('meta');
    meta.name = APP_SCRIPTS_META;
    meta.content = '/static/js/371.js /static/js/early.js  /static/js/main.js';
    document.head.append(meta);
    loadAppScripts(document);
    const scripts = [...document.body.querySelectorAll('script')];
    expect(scripts.map((script) => script.getAttribute('src'))).toEqual(['/static/js/371.js', '/static/js/early.js', '/static/js/main.js']);
    expect(scripts.every((script) => !script.async)).toBe(true);
  });

  it('adds nothing without the list', () => {
    loadAppScripts(document);
    expect(document.body.querySelectorAll('script')).toHaveLength(0);
  });
});

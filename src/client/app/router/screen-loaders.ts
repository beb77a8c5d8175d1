/**
 * The screens' code, loaded once each, by React.lazy or ahead of it: main.tsx asks for the first
 * screen's before the store and the app start (preloadScreen), and the outlet renders a screen
 * whose code is already here directly (loadedScreen): React.lazy would suspend once more even
 * for code already loaded, and show the screen a task (on a phone, a few frames) later.
 * A module of its own: the router and the route table both use it, and neither may import the other.
 */
import type { ComponentType, LazyExoticComponent } from 'react';

export interface ScreenLoader<P> {
  start: () => Promise<{ default: ComponentType<P> }>;
  loaded: ComponentType<P> | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- keyed by any screen's wrapper; each entry's props match its own wrapper
const loaders = new WeakMap<LazyExoticComponent<ComponentType<any>>, ScreenLoader<any>>();

export function registerScreenLoader<P>(screen: LazyExoticComponent<ComponentType<P>>, loader: ScreenLoader<P>): void {
  loaders.set(screen, loader);
}

/** Starts loading a screen's code before it renders. */
export function preloadScreen<P>(screen: LazyExoticComponent<ComponentType<P>>): void {
  loaders
    .get(screen)
    ?.start()
    .catch(() => undefined);
}

/** The screen's component once its code is loaded, else null. */
export function loadedScreen<P>(screen: LazyExoticComponent<ComponentType<P>>): ComponentType<P> | null {
  return (loaders.get(screen)?.loaded as ComponentType<P> | null | undefined) ?? null;
}

/**
 * Leaving a page with unsaved entered data asks for confirmation with exactly
 * sl.leavePage.confirm. A screen declares its state with `useUnsavedChanges(dirty)`; the router
 * asks `useLeaveConfirmation()` before it changes the screen, and closing or reloading the tab is
 * caught by `beforeunload` (browsers show their own wording there; the exact text is set as the
 * return value where a browser still displays it).
 *
 * The registry lives in a provider, not in a module variable, so every test and every app
 * instance gets its own.
 */
import { createContext, useCallback, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sl } from '../../../common/i18n/sl';
import { ConfirmLeaveDialog } from './confirm-leave-dialog';

export interface LeaveConfirmation {
  /** True when some mounted screen holds unsaved data. */
  hasUnsavedChanges(): boolean;
  /**
   * Resolves true when leaving may proceed: at once when nothing is unsaved, otherwise after the
   * user confirmed in the dialog (false when they chose to stay).
   */
  confirmLeave(): Promise<boolean>;
}

interface Registry extends LeaveConfirmation {
  /** `onDiscard`: called when the user agrees to leave while the screen holds unsaved data. */
  setDirty(id: string, dirty: boolean, onDiscard?: () => void): void;
}

const UnsavedChangesContext = createContext<Registry | null>(null);

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const dirtyIds = useRef(new Set<string>());
  const discards = useRef(new Map<string, () => void>());
  const [dirtyCount, setDirtyCount] = useState(0);
  const [pending, setPending] = useState<{ promise: Promise<boolean>; resolve: (ok: boolean) => void } | null>(null);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  const registry = useMemo<Registry>(
    () => ({
      setDirty(id, dirty, onDiscard) {
        if (dirty) dirtyIds.current.add(id);
        else dirtyIds.current.delete(id);
        if (dirty && onDiscard) discards.current.set(id, onDiscard);
        else discards.current.delete(id);
        setDirtyCount(dirtyIds.current.size);
      },
      hasUnsavedChanges: () => dirtyIds.current.size > 0,
      confirmLeave() {
        if (dirtyIds.current.size === 0) return Promise.resolve(true);
        if (pendingRef.current) return pendingRef.current.promise;
        let resolve!: (ok: boolean) => void;
        const promise = new Promise<boolean>((r) => {
          resolve = r;
        });
        const entry = { promise, resolve };
        pendingRef.current = entry;
        setPending(entry);
        return promise;
      },
    }),
    [],
  );

  const answer = useCallback((leave: boolean) => {
    const entry = pendingRef.current;
    if (!entry) return;
    // The user agreed to lose the data: the screens that held it are about to go away.
    if (leave) {
      for (const id of dirtyIds.current) discards.current.get(id)?.();
      discards.current.clear();
      dirtyIds.current.clear();
      setDirtyCount(0);
    }
    pendingRef.current = null;
    setPending(null);
    entry.resolve(leave);
  }, []);

  useEffect(() => {
    if (dirtyCount === 0) return undefined;
    // Attached only while something is unsaved: an idle beforeunload handler would keep browsers
    // from putting the page into the back/forward cache.
    function onBeforeUnload(event: BeforeUnloadEvent) {
      event.preventDefault();
      event.returnValue = sl.leavePage.confirm;
      return sl.leavePage.confirm;
    }
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirtyCount]);

  return (
    <UnsavedChangesContext.Provider value={registry}>
      {children}
      {pending ? <ConfirmLeaveDialog onStay={() => answer(false)} onLeave={() => answer(true)} /> : null}
    </UnsavedChangesContext.Provider>
  );
}

function useRegistry(): Registry {
  const registry = useContext(UnsavedChangesContext);
  if (!registry) throw new Error('useUnsavedChanges/useLeaveConfirmation need an <UnsavedChangesProvider>');
  return registry;
}

/**
 * Declares that the calling screen holds unsaved entered data while `dirty` is true; `onDiscard`
 * is called when the user agrees to leave it (the data is then to be lost, as the question says). Layout
 * effects, so the registry knows as the screen commits: on Preact a passive effect's clean-up on
 * unmount waits for the next frame, and a parent rendered again before that runs its own pending
 * effects first — an editor closed after saving still counted as unsaved when its screen then
 * went back to the list, and the "leave?" dialog stayed open over the list.
 */
export function useUnsavedChanges(dirty: boolean, onDiscard?: () => void): void {
  const registry = useRegistry();
  const id = useId();
  // The latest callback, behind one function that stays the same between renders.
  const discard = useRef(onDiscard);
  discard.current = onDiscard;
  const hasDiscard = onDiscard !== undefined;
  useLayoutEffect(() => {
    registry.setDirty(id, dirty, hasDiscard ? () => discard.current?.() : undefined);
  }, [registry, id, dirty, hasDiscard]);
  useLayoutEffect(() => () => registry.setDirty(id, false), [registry, id]);
}

/** For the router (and any in-app navigation): ask before leaving a screen with unsaved data. */
export function useLeaveConfirmation(): LeaveConfirmation {
  return useRegistry();
}

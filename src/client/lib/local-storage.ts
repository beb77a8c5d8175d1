/** localStorage, or null where there is none (Node) or the browser blocks it (privacy settings): callers then keep nothing on the device, and nothing else breaks. */
export function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

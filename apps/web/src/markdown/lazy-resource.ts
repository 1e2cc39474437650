/**
 * A value loaded once on demand (a dynamic import), readable synchronously once there, with
 * subscribers told when it arrives — for useSyncExternalStore.
 *
 * @example
 * const math = lazyResource(() => import('./math-plugins.ts'));
 * math.load(); math.get(); // undefined until loaded
 */
export interface LazyResource<Value> {
  get: () => Value | undefined;
  load: () => Promise<Value>;
  subscribe: (listener: () => void) => () => void;
}

export function lazyResource<Value>(loader: () => Promise<Value>): LazyResource<Value> {
  let value: Value | undefined;
  let loading: Promise<Value> | undefined;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    load: () => {
      loading ??= loader().then((loaded) => {
        value = loaded;
        for (const listener of listeners) listener();
        return loaded;
      });
      return loading;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

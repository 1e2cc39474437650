type Subscribe = (listener: () => void) => () => void;

const batchedOf = new WeakMap<Subscribe, Subscribe>();

/**
 * A store's `subscribe` whose listeners hear of changes at most once per animation frame. A
 * streaming reply changes the conversation store ~100 times a second (a batch of deltas every few
 * ms); each change rendered at once is a React commit and a layout of the growing message, most of
 * them never painted. Components that draw the conversation subscribe through this; they still
 * read the newest snapshot whenever they render. The same function comes back for the same
 * `subscribe`, so `useSyncExternalStore` keeps its subscription.
 *
 * @example
 * const snapshot = useSyncExternalStore(frameBatched(store.subscribe), store.getSnapshot);
 */
export function frameBatched(subscribe: Subscribe): Subscribe {
  let batched = batchedOf.get(subscribe);
  if (batched === undefined) {
    batched = (listener) => {
      let frame: number | undefined;
      const unsubscribe = subscribe(() => {
        if (frame !== undefined) return;
        frame = requestAnimationFrame(() => {
          frame = undefined;
          listener();
        });
      });
      return () => {
        unsubscribe();
        if (frame !== undefined) cancelAnimationFrame(frame);
      };
    };
    batchedOf.set(subscribe, batched);
  }
  return batched;
}

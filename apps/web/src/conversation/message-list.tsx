import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import type { RunView } from '../conversation-state/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { ArrowDownIcon } from '../icons/index.ts';
import { RunRow } from './run-row.tsx';
import { useFirstScreenDrawn } from '../first-screen/index.ts';
import { useMessageFocus } from '../navigation/index.ts';

export interface MessageListProps {
  conversationId: string;
  runs: readonly RunView[];
  busy: boolean;
  onEdit: (run: RunView, text: string) => void;
  onRegenerate: (messageId: string) => void;
  onSelectBranch: (messageId: string) => void;
  /** Older turns exist above: scrolling near the top asks for them. */
  hasEarlier: boolean;
  onLoadEarlier: () => void;
}

const LOAD_EARLIER_THRESHOLD = 600;
const PIN_THRESHOLD = 80;
/** A scroll this soon after the person's input is theirs (smooth wheel scrolling lasts ~150 ms). */
const USER_INPUT_WINDOW_MS = 500;
const ESTIMATED_ROW_HEIGHT = 180;
const LIST_PADDING = 24;

/**
 * The conversation as a virtual list of turns (@tanstack/react-virtual): only the rows in view
 * (plus overscan) are in the DOM, each measured after it renders, so thousands of messages scroll
 * smoothly. While the view is at the bottom it stays pinned there as text streams in; scrolling up
 * unpins it and offers "jump to latest".
 */
export function MessageList(props: MessageListProps): ReactElement {
  const { conversationId, runs, busy, onEdit, onRegenerate, onSelectBranch, hasEarlier, onLoadEarlier } =
    props;
  const t = useTranslation();
  const scroller = useRef<HTMLDivElement | null>(null);
  const pinned = useRef(true);
  const distanceFromBottom = useRef(0);
  const firstRunId = useRef<string | undefined>(undefined);
  const [showJump, setShowJump] = useState(false);
  const firstScreenDrawn = useFirstScreenDrawn();
  const virtualizer = useVirtualizer({
    count: runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    // The rows above the view follow the first screen.
    overscan: firstScreenDrawn ? 2 : 0,
    getItemKey: (index) => runs[index]?.run.id ?? index,
    paddingStart: LIST_PADDING,
    paddingEnd: LIST_PADDING,
    // A conversation opens at its end: the first render already lays out the newest turns for a
    // viewport of the window's height, instead of the oldest ones only to scroll them away.
    initialOffset: () =>
      Math.max(0, runs.length * ESTIMATED_ROW_HEIGHT + 2 * LIST_PADDING - window.innerHeight),
    initialRect: { width: 0, height: window.innerHeight },
  });

  // The scroller starts at the end before the virtualizer first reads its position (its layout
  // effect runs after this ref is attached), so it keeps the rows it rendered first.
  const mountScroller = useCallback((element: HTMLDivElement | null) => {
    if (element !== null && scroller.current === null) element.scrollTop = element.scrollHeight;
    scroller.current = element;
  }, []);

  // Another conversation opened in this list starts at its end too.
  const shownConversation = useRef(conversationId);
  useLayoutEffect(() => {
    if (shownConversation.current === conversationId) return;
    shownConversation.current = conversationId;
    pinned.current = true;
    setShowJump(false);
    if (runs.length > 0) virtualizer.scrollToIndex(runs.length - 1, { align: 'end' });
    // Only when the conversation changes: later growth is handled below.
  }, [conversationId]);

  // Earlier turns prepended above: keep what was on screen where it was.
  useLayoutEffect(() => {
    const element = scroller.current;
    const first = runs[0]?.run.id;
    const previous = firstRunId.current;
    firstRunId.current = first;
    if (element === null || previous === undefined || first === previous || pinned.current) return;
    if (!runs.some((run) => run.run.id === previous)) return;
    element.scrollTop = element.scrollHeight - element.clientHeight - distanceFromBottom.current;
  }, [runs]);

  // Growth (a new turn, streamed text, a row measured taller) and a shorter viewport (the composer
  // grew) keep a pinned view at the bottom. A ResizeObserver hears of both right after the browser's
  // layout, so moving the scroll position costs no extra (forced) layout per streamed frame.
  const list = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    const content = list.current;
    if (element === null || content === null || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      // Past the end clamps to the end; the content's own height is already laid out.
      if (pinned.current) element.scrollTop = content.offsetHeight + element.clientHeight;
    });
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A message search hit: scroll its turn into view, asking for earlier turns until it is loaded.
  const focus = useMessageFocus((state) => state.target);
  const clearFocus = useMessageFocus((state) => state.clear);
  useLayoutEffect(() => {
    if (focus === undefined || focus.conversationId !== conversationId || runs.length === 0) return;
    const index = runs.findIndex(
      (run) =>
        run.user.id === focus.messageId ||
        run.assistant.id === focus.messageId ||
        run.run.id === focus.messageId,
    );
    if (index === -1) {
      if (hasEarlier) onLoadEarlier();
      else clearFocus();
      return;
    }
    pinned.current = false;
    setShowJump(true);
    virtualizer.scrollToIndex(index, { align: 'start' });
    clearFocus();
  }, [focus, conversationId, runs, hasEarlier]);

  // Only the person scrolls a pinned view away from the bottom. Rows measured taller than their
  // estimate grow the list below the view, and the virtualizer's own scroll adjustment for the rows
  // above fires a scroll event then: read as a scroll up, it left a long conversation about 850 px
  // above its newest message (decision 0042). So a pinned view unpins only when it moved up right
  // after the person's own input (wheel, touch, keys, a pointer on the scrollbar).
  const lastScrollTop = useRef(0);
  const lastInput = useRef(Number.NEGATIVE_INFINITY);
  const onInput = useCallback(() => {
    lastInput.current = performance.now();
  }, []);
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    const movedUp = element.scrollTop < lastScrollTop.current;
    lastScrollTop.current = element.scrollTop;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    const byPerson = movedUp && performance.now() - lastInput.current < USER_INPUT_WINDOW_MS;
    if (pinned.current && !byPerson) {
      if (distance > 0) element.scrollTop = element.scrollHeight;
      distanceFromBottom.current = 0;
      return;
    }
    distanceFromBottom.current = distance;
    pinned.current = distance < PIN_THRESHOLD;
    setShowJump(!pinned.current);
    if (hasEarlier && element.scrollTop < LOAD_EARLIER_THRESHOLD) onLoadEarlier();
  }, [hasEarlier, onLoadEarlier]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="message-scroller"
      ref={mountScroller}
      onScroll={onScroll}
      onWheel={onInput}
      onTouchMove={onInput}
      onKeyDown={onInput}
      onPointerDown={onInput}
      onPointerMove={(event) => {
        // Dragging the scrollbar: every move while a button is held is the person's.
        if (event.buttons !== 0) onInput();
      }}
      data-testid="message-scroller"
    >
      <div
        ref={list}
        className="message-list"
        role="log"
        aria-label={t('conversation.label')}
        aria-live="off"
        style={{ height: `${String(virtualizer.getTotalSize())}px` }}
      >
        {items.map((item) => {
          const run = runs[item.index];
          if (run === undefined) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="virtual-row"
              style={{ transform: `translateY(${String(item.start)}px)` }}
            >
              <RunRow
                run={run}
                isLast={item.index === runs.length - 1}
                busy={busy}
                onEdit={onEdit}
                onRegenerate={onRegenerate}
                onSelectBranch={onSelectBranch}
              />
            </div>
          );
        })}
      </div>
      {showJump && (
        <button
          type="button"
          className="jump-to-latest"
          aria-label={t('conversation.jumpToLatest')}
          onClick={() => {
            pinned.current = true;
            setShowJump(false);
            virtualizer.scrollToIndex(runs.length - 1, { align: 'end' });
          }}
        >
          <ArrowDownIcon size={16} />
        </button>
      )}
    </div>
  );
}

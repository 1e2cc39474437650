import { createContext, useContext, type ComponentType } from 'react';
import type { UiAction, UiActionResult, UiScope } from '@youyou/contracts';

/** What a custom widget is drawn with: the `props` of its `Widget` node. */
export interface UiWidgetProps {
  props: Readonly<Record<string, string | number | boolean>>;
}

/** The host's custom widgets by name (A2UI's custom catalog): what `Widget` nodes draw. */
export type UiWidgets = Readonly<Record<string, ComponentType<UiWidgetProps>>>;

/** What every node of one drawn document shares: its data model and how its actions run. */
export interface UiSurfaceContext {
  /** The document's data model (its own `data`, the panel's data over it, and what inputs wrote). */
  data: unknown;
  /** Writes a value at a JSON Pointer of the data model. */
  setValue(pointer: string, value: unknown): void;
  /**
   * Runs an action on the server with the arguments already read; resolves with its result, or
   * rejects with the server's error. `confirmed` after the user agreed to a confirmation.
   */
  run(action: UiAction, argumentsMap: Record<string, unknown>, confirmed: boolean): Promise<UiActionResult>;
  /** Actions can run (false where a document is only shown, e.g. a preview). */
  interactive: boolean;
  locale: string;
  /** Prefix of element ids, unique per drawn document. */
  idPrefix: string;
  /** The custom widgets this host draws; a `Widget` node naming another one is a placeholder. */
  widgets: UiWidgets;
}

export const UiContext = createContext<UiSurfaceContext | undefined>(undefined);

export function useUiSurface(): UiSurfaceContext {
  const context = useContext(UiContext);
  if (context === undefined) throw new Error('a UI node is drawn outside a UiDocumentView');
  return context;
}

/** The scope a node resolves its bindings in. */
export function scopeOf(context: UiSurfaceContext, base: string): UiScope {
  return { data: context.data, base };
}

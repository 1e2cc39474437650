import { z } from 'zod';
import { LocalizedTextSchema } from '../settings/index.ts';
import { DynamicValueSchema } from './dynamic.ts';

/**
 * Where UI documents are shown (spec agent-system-skeleton-design-r4 §4.4, §4.6): extension
 * panels as right-column tabs, cards in the conversation (a `card` message part), and the action
 * call a button or a form sends back. The documents travel as they were declared; the renderer
 * reads them with `readUiDocument`, so a document it cannot draw shows a placeholder instead of
 * failing the page.
 */

/** Who provides something (§4.1 principle 4): `builtin`, `extension:<id>`, `user` or `profile`. */
export const UiSourceSchema = z.string().regex(/^(builtin|user|profile|extension:[A-Za-z0-9._-]{1,100})$/);

/**
 * One extension panel: a right-column tab drawn from a UI document.
 *
 * @example
 * UiPanelSchema.parse({ id: 'example.weather', source: 'extension:example', title: { en: 'Weather', 'zh-CN': '天气' },
 *   schema: { version: 1, root: { component: 'Text', text: 'Sunny' } } });
 */
export const UiPanelSchema = z
  .object({
    /** Unique across sources, e.g. `<extension id>.<panel name>`. */
    id: z.string().min(1).max(200),
    source: UiSourceSchema,
    /** The tab's title in both languages of the UI. */
    title: LocalizedTextSchema,
    /** The UI document as declared (see `UiDocumentSchema`); drawn with a placeholder when it is not valid. */
    schema: z.unknown(),
    /** Data merged over the document's own `data` (top-level keys replace). */
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'UiPanel' });
export type UiPanel = z.infer<typeof UiPanelSchema>;

/** `GET /api/extensions/panels`: the panels of every enabled extension. */
export const UiPanelListSchema = z.object({ panels: z.array(UiPanelSchema) });
export type UiPanelList = z.infer<typeof UiPanelListSchema>;

/** Where an action was pressed. */
export const UiSurfaceReferenceSchema = z.object({
  kind: z.enum(['panel', 'card']),
  /** The panel id, or the card id. */
  id: z.string().min(1).max(200),
});
export type UiSurfaceReference = z.infer<typeof UiSurfaceReferenceSchema>;

/**
 * `POST /api/extensions/actions`: run the tool or command a button or form names, with its
 * arguments already read from the data model. The server checks that the source declares it and
 * applies the same confirmation policy as any call of that tool: a `confirm` tool answers
 * `ACTION_CONFIRMATION_REQUIRED` until the request says `confirmed: true`; a `deny` tool is refused.
 *
 * @example
 * UiActionRequestSchema.parse({ source: 'extension:example', surface: { kind: 'panel', id: 'example.weather' },
 *   action: { tool: 'example_weather', arguments: { city: 'Oslo' } } });
 */
export const UiActionRequestSchema = z.object({
  source: UiSourceSchema,
  surface: UiSurfaceReferenceSchema,
  action: z.union([
    z
      .object({ tool: z.string().min(1).max(128), arguments: z.record(z.string(), z.unknown()).optional() })
      .strict(),
    z
      .object({
        command: z.string().min(1).max(128),
        arguments: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
  ]),
  /** For a card: the conversation it is in (the call is audited there). */
  conversation_id: z.string().min(1).max(200).optional(),
  /** The user confirmed a call the policy asks to confirm. */
  confirmed: z.boolean().optional(),
});
export type UiActionRequest = z.infer<typeof UiActionRequestSchema>;

/** What an action returned: the tool's output (the renderer shows it under the button). */
export const UiActionResultSchema = z.object({
  output: z.string(),
  is_error: z.boolean(),
  duration_ms: z.number(),
  /** When the tool answered with a new UI document (a refreshed panel or card), that document. */
  schema: z.unknown().optional(),
});
export type UiActionResult = z.infer<typeof UiActionResultSchema>;

/** Stable codes of action errors (HTTP bodies). */
export const UI_ACTION_ERROR_CODES = [
  'ACTION_NOT_DECLARED',
  'ACTION_CONFIRMATION_REQUIRED',
  'ACTION_DENIED',
] as const;
export type UiActionErrorCode = (typeof UI_ACTION_ERROR_CODES)[number];

/** The payload of `card.posted`: a tool or extension put a UI card into the answer. */
export const CardPostedPayloadSchema = z.object({
  message_id: z.string(),
  card_id: z.string().min(1).max(200),
  source: UiSourceSchema,
  title: z.string().max(200).optional(),
  /** The tool call that posted it. */
  call_id: z.string().optional(),
  /** The UI document (see `UiDocumentSchema`). */
  schema: z.unknown(),
});
export type CardPostedPayload = z.infer<typeof CardPostedPayloadSchema>;

/**
 * The UI-schema event types, spread into the contract's event registry.
 *
 * @example
 * UI_CARD_EVENT_PAYLOAD_SCHEMAS['card.posted'].parse(event.payload);
 */
export const UI_CARD_EVENT_PAYLOAD_SCHEMAS = { 'card.posted': CardPostedPayloadSchema } as const;

/** Arguments as a card or panel declares them, before the data model is read (for tests and tools). */
export const UiDeclaredArgumentsSchema = z.record(z.string(), DynamicValueSchema);

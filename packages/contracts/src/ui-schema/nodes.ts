import { z } from 'zod';
import {
  DataBindingSchema,
  DynamicStringSchema,
  DynamicValueSchema,
  type DataBinding,
  type DynamicString,
  type DynamicValue,
} from './dynamic.ts';
import { formFieldSchema, type FormField } from './form-fields.ts';

/**
 * The UI-schema vocabulary (spec agent-system-skeleton-design-r4 §4.6): one finite set of
 * components that extension panels, conversation cards and HITL form cards are written in, drawn
 * by one generic renderer. Names and shapes follow A2UI's basic catalog (v0.9) where the two
 * overlap (`component` names the kind; Text, Column, Row, List, Card, Divider, Button, TextField,
 * CheckBox, ChoicePicker, DateTimeInput, Slider); the spec's own words are Section, KeyValue
 * ("kv"), Form, Markdown, DocRef ("doc-ref"), Actions and ChartLite ("chart-lite"). Unlike A2UI's
 * flat list of components that point at each other by id, a document is a tree: children are
 * nested. `adaptA2uiSurface` turns an A2UI surface into one.
 */

/** The version of the vocabulary a document is written in. */
export const UI_SCHEMA_VERSION = 1;

/** What something does when pressed: call a tool or a command its extension declares. */
export type UiAction =
  | { tool: string; arguments?: Record<string, DynamicValue> }
  | { command: string; arguments?: Record<string, DynamicValue> };

const actionNameSchema = z.string().regex(/^[A-Za-z0-9_.:/-]{1,128}$/);
/**
 * An action: the id of a tool or a command, with arguments that may be bound to the data model.
 * It runs on the server, through the same confirmation policy as any call of that tool.
 *
 * @example
 * UiActionSchema.parse({ tool: 'weather_lookup', arguments: { city: { path: '/city' } } });
 */
export const UiActionSchema = z.union([
  z
    .object({ tool: actionNameSchema, arguments: z.record(z.string(), DynamicValueSchema).optional() })
    .strict(),
  z
    .object({ command: actionNameSchema, arguments: z.record(z.string(), DynamicValueSchema).optional() })
    .strict(),
]) as z.ZodType<UiAction>;

/** How children of a layout line up (A2UI's `align` and `justify`). */
export const UI_ALIGN = ['start', 'center', 'end', 'stretch'] as const;
export const UI_JUSTIFY = [
  'start',
  'center',
  'end',
  'spaceBetween',
  'spaceAround',
  'spaceEvenly',
  'stretch',
] as const;
export const TEXT_VARIANTS = ['h1', 'h2', 'h3', 'h4', 'h5', 'caption', 'body'] as const;
export const BUTTON_VARIANTS = ['default', 'primary', 'borderless'] as const;

/** Children: nested nodes, or a template drawn once per item of a list in the data model. */
export type UiChildren = UiNode[] | { path: string; template: UiNode };

interface NodeBase {
  /** Optional: names the node in problems and tests. */
  id?: string;
}
export interface TextNode extends NodeBase {
  component: 'Text';
  text: DynamicString;
  variant?: (typeof TEXT_VARIANTS)[number];
}
export interface MarkdownNode extends NodeBase {
  component: 'Markdown';
  text: DynamicString;
}
export interface LayoutNode extends NodeBase {
  component: 'Column' | 'Row';
  children: UiChildren;
  align?: (typeof UI_ALIGN)[number];
  justify?: (typeof UI_JUSTIFY)[number];
}
export interface ListNode extends NodeBase {
  component: 'List';
  children: UiChildren;
  direction?: 'vertical' | 'horizontal';
  /** Shown when a template's list is empty. */
  emptyText?: DynamicString;
}
export interface CardNode extends NodeBase {
  component: 'Card';
  child: UiNode;
}
export interface SectionNode extends NodeBase {
  component: 'Section';
  title: DynamicString;
  description?: DynamicString;
  children: UiChildren;
}
export interface DividerNode extends NodeBase {
  component: 'Divider';
  axis?: 'horizontal' | 'vertical';
}
export interface KeyValueNode extends NodeBase {
  component: 'KeyValue';
  items: { label: DynamicString; value: DynamicString }[];
}
export interface ButtonNode extends NodeBase {
  component: 'Button';
  label: DynamicString;
  variant?: (typeof BUTTON_VARIANTS)[number];
  action: UiAction;
}
export interface ActionsNode extends NodeBase {
  component: 'Actions';
  actions: { label: DynamicString; variant?: (typeof BUTTON_VARIANTS)[number]; action: UiAction }[];
}
export interface TextFieldNode extends NodeBase {
  component: 'TextField';
  label: DynamicString;
  value: DataBinding;
  variant?: 'shortText' | 'longText' | 'number' | 'obscured';
  placeholder?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  patternMessage?: string;
}
export interface CheckBoxNode extends NodeBase {
  component: 'CheckBox';
  label: DynamicString;
  value: DataBinding;
}
export interface ChoicePickerNode extends NodeBase {
  component: 'ChoicePicker';
  label?: DynamicString;
  variant?: 'multipleSelection' | 'mutuallyExclusive';
  options: { label: DynamicString; value: string }[];
  value: DataBinding;
  required?: boolean;
}
export interface DateTimeInputNode extends NodeBase {
  component: 'DateTimeInput';
  label?: DynamicString;
  value: DataBinding;
  enableDate?: boolean;
  enableTime?: boolean;
  required?: boolean;
}
export interface SliderNode extends NodeBase {
  component: 'Slider';
  label?: DynamicString;
  min?: number;
  max: number;
  value: DataBinding;
}
export interface FormNode extends NodeBase {
  component: 'Form';
  fields: FormField[];
  /** Where the values live in the data model (initial values are read from there); default: the node's own state. */
  value?: DataBinding;
  submitLabel?: DynamicString;
  /** Called with its own arguments plus one argument per field (field id → value). */
  action: UiAction;
}
export type DocRefTarget = { artifact: string } | { document: string } | { url: string };
export interface DocRefNode extends NodeBase {
  component: 'DocRef';
  title: DynamicString;
  target: DocRefTarget;
  excerpt?: DynamicString;
}
export interface ChartLiteNode extends NodeBase {
  component: 'ChartLite';
  variant?: 'bar' | 'line';
  title?: DynamicString;
  points: { label: string; value: number }[] | DataBinding;
  unit?: string;
}
/**
 * A custom widget of the host that draws the document (A2UI's custom catalog components): the
 * settings centre draws its provider list, its MCP servers … this way. A host that has no widget of
 * that name shows the same visible placeholder as for an unknown component.
 */
export interface WidgetNode extends NodeBase {
  component: 'Widget';
  widget: string;
  /** Plain values the widget is drawn with (the setting a `setting` widget edits …). */
  props?: Record<string, string | number | boolean>;
}
/** What stands where a component could not be drawn: the renderer shows it as a visible placeholder. */
export interface UnsupportedNode extends NodeBase {
  component: 'Unsupported';
  /** The component name as written (an A2UI `Image`, a newer vocabulary's node, …). */
  original: string;
  reason: string;
}

/** One node of a UI document. */
export type UiNode =
  | TextNode
  | MarkdownNode
  | LayoutNode
  | ListNode
  | CardNode
  | SectionNode
  | DividerNode
  | KeyValueNode
  | ButtonNode
  | ActionsNode
  | TextFieldNode
  | CheckBoxNode
  | ChoicePickerNode
  | DateTimeInputNode
  | SliderNode
  | FormNode
  | DocRefNode
  | ChartLiteNode
  | WidgetNode
  | UnsupportedNode;
export type UiComponentName = UiNode['component'];

/** Every component name of the vocabulary, `Unsupported` included. */
export const UI_COMPONENTS = [
  'Text',
  'Markdown',
  'Column',
  'Row',
  'List',
  'Card',
  'Section',
  'Divider',
  'KeyValue',
  'Button',
  'Actions',
  'TextField',
  'CheckBox',
  'ChoicePicker',
  'DateTimeInput',
  'Slider',
  'Form',
  'DocRef',
  'ChartLite',
  'Widget',
  'Unsupported',
] as const satisfies readonly UiComponentName[];

const nodeReference: z.ZodType<UiNode> = z.lazy(() => UiNodeSchema);
const childrenSchema = z.union([
  z.array(nodeReference).max(500),
  z.object({ path: z.string().max(500), template: nodeReference }).strict(),
]);
const idSchema = z.string().max(128).optional();
const nodeObject = <Shape extends z.ZodRawShape>(component: string, shape: Shape) =>
  z.object({ component: z.literal(component), id: idSchema, ...shape }).strict();
const buttonVariant = z.enum(BUTTON_VARIANTS).optional();

const nodeSchemas = [
  nodeObject('Text', { text: DynamicStringSchema, variant: z.enum(TEXT_VARIANTS).optional() }),
  nodeObject('Markdown', { text: DynamicStringSchema }),
  ...(['Column', 'Row'] as const).map((component) =>
    nodeObject(component, {
      children: childrenSchema,
      align: z.enum(UI_ALIGN).optional(),
      justify: z.enum(UI_JUSTIFY).optional(),
    }),
  ),
  nodeObject('List', {
    children: childrenSchema,
    direction: z.enum(['vertical', 'horizontal']).optional(),
    emptyText: DynamicStringSchema.optional(),
  }),
  nodeObject('Card', { child: nodeReference }),
  nodeObject('Section', {
    title: DynamicStringSchema,
    description: DynamicStringSchema.optional(),
    children: childrenSchema,
  }),
  nodeObject('Divider', { axis: z.enum(['horizontal', 'vertical']).optional() }),
  nodeObject('KeyValue', {
    items: z.array(z.object({ label: DynamicStringSchema, value: DynamicStringSchema }).strict()).max(200),
  }),
  nodeObject('Button', { label: DynamicStringSchema, variant: buttonVariant, action: UiActionSchema }),
  nodeObject('Actions', {
    actions: z
      .array(
        z.object({ label: DynamicStringSchema, variant: buttonVariant, action: UiActionSchema }).strict(),
      )
      .min(1)
      .max(20),
  }),
  nodeObject('TextField', {
    label: DynamicStringSchema,
    value: DataBindingSchema,
    variant: z.enum(['shortText', 'longText', 'number', 'obscured']).optional(),
    placeholder: z.string().max(200).optional(),
    required: z.boolean().optional(),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().positive().optional(),
    pattern: z.string().min(1).max(500).optional(),
    patternMessage: z.string().max(200).optional(),
  }),
  nodeObject('CheckBox', { label: DynamicStringSchema, value: DataBindingSchema }),
  nodeObject('ChoicePicker', {
    label: DynamicStringSchema.optional(),
    variant: z.enum(['multipleSelection', 'mutuallyExclusive']).optional(),
    options: z
      .array(z.object({ label: DynamicStringSchema, value: z.string().min(1).max(200) }).strict())
      .min(1)
      .max(100),
    value: DataBindingSchema,
    required: z.boolean().optional(),
  }),
  nodeObject('DateTimeInput', {
    label: DynamicStringSchema.optional(),
    value: DataBindingSchema,
    enableDate: z.boolean().optional(),
    enableTime: z.boolean().optional(),
    required: z.boolean().optional(),
  }),
  nodeObject('Slider', {
    label: DynamicStringSchema.optional(),
    min: z.number().optional(),
    max: z.number(),
    value: DataBindingSchema,
  }),
  nodeObject('Form', {
    fields: z.array(formFieldSchema).min(1).max(30),
    value: DataBindingSchema.optional(),
    submitLabel: DynamicStringSchema.optional(),
    action: UiActionSchema,
  }),
  nodeObject('DocRef', {
    title: DynamicStringSchema,
    target: z.union([
      z.object({ artifact: z.string().min(1).max(200) }).strict(),
      z.object({ document: z.string().min(1).max(200) }).strict(),
      z
        .object({
          url: z
            .string()
            .regex(/^https?:\/\/[^\s]+$/i)
            .max(2000),
        })
        .strict(),
    ]),
    excerpt: DynamicStringSchema.optional(),
  }),
  nodeObject('ChartLite', {
    variant: z.enum(['bar', 'line']).optional(),
    title: DynamicStringSchema.optional(),
    points: z.union([
      z.array(z.object({ label: z.string().max(200), value: z.number() }).strict()).max(500),
      DataBindingSchema,
    ]),
    unit: z.string().max(20).optional(),
  }),
  nodeObject('Widget', {
    widget: z
      .string()
      .regex(/^[a-z][a-z0-9_-]*$/)
      .max(60),
    props: z.record(z.string().max(60), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
  }),
  nodeObject('Unsupported', { original: z.string().max(200), reason: z.string().max(2000) }),
] as const;

/**
 * One node of the vocabulary, strictly: the schema an extension author validates against. A
 * renderer reads documents with `readUiDocument`, which turns what it cannot draw into
 * `Unsupported` nodes instead of failing.
 *
 * @example
 * UiNodeSchema.parse({ component: 'Text', text: 'Hello', variant: 'h2' });
 */
export const UiNodeSchema: z.ZodType<UiNode> = z
  .discriminatedUnion('component', nodeSchemas)
  .meta({ id: 'UiNode' }) as unknown as z.ZodType<UiNode>;

/** A UI document: the vocabulary's version, the tree, and the data its bindings read. */
export interface UiDocument {
  version: typeof UI_SCHEMA_VERSION;
  title?: string;
  root: UiNode;
  data?: Record<string, unknown>;
}

/**
 * A UI document (a panel, a card, a form), strictly.
 *
 * @example
 * UiDocumentSchema.parse({ version: 1, root: { component: 'Markdown', text: '**Hi**' } });
 */
export const UiDocumentSchema: z.ZodType<UiDocument> = z
  .object({
    version: z.literal(UI_SCHEMA_VERSION),
    title: z.string().max(200).optional(),
    root: UiNodeSchema,
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict() as unknown as z.ZodType<UiDocument>;

/** Where a node keeps its child nodes, for walkers that need not know every component. */
export function childNodes(node: UiNode): UiNode[] {
  switch (node.component) {
    case 'Card':
      return [node.child];
    case 'Column':
    case 'Row':
    case 'List':
    case 'Section':
      return Array.isArray(node.children) ? node.children : [node.children.template];
    default:
      return [];
  }
}

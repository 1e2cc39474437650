import {
  UI_FORMAT_FUNCTIONS,
  writePointer,
  type DataBinding,
  type DynamicString,
  type DynamicValue,
} from './dynamic.ts';
import {
  UI_SCHEMA_VERSION,
  type ButtonNode,
  type TextFieldNode,
  type UiAction,
  type UiChildren,
  type UiDocument,
  type UiNode,
} from './nodes.ts';
import { fromA2uiV08, isA2uiV08 } from './a2ui-v08.ts';
import type { UnsupportedReport } from './read.ts';

/**
 * A2UI (google/A2UI, basic catalog v0.9 and v0.10, and v0.8's standard catalog) to this
 * vocabulary. A surface arrives as messages: `createSurface`, `updateComponents` (a flat list of
 * components that name their children by id, the root having id `root`) and `updateDataModel`
 * (v0.8's `surfaceUpdate`, `dataModelUpdate` and `beginRendering` are rewritten into these first). The adapter resolves the
 * adjacency list into a tree, keeps data bindings as they are (both use JSON Pointers), maps
 * each basic-catalog component to ours, and turns what has no counterpart into an explicit
 * `Unsupported` node. The mapping table is in docs/ui-schema.md.
 */

/** What came out of an A2UI surface. */
export interface A2uiAdaptation {
  surfaceId: string | undefined;
  document: UiDocument;
  /** Components drawn as placeholders, and why. */
  unsupported: UnsupportedReport[];
  /** Properties the adapter dropped without losing the component (checks it cannot express, weights). */
  notes: string[];
}

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FORMAT_FUNCTIONS: ReadonlySet<string> = new Set(UI_FORMAT_FUNCTIONS);
const EMAIL_PATTERN = '[^@\\s]+@[^@\\s]+\\.[^@\\s]+';

/** Components with no counterpart here, and why. */
const UNSUPPORTED_REASONS: Readonly<Record<string, string>> = {
  Image: 'images from a surface are not loaded (the page loads nothing from other origins)',
  Icon: 'icons by name are not part of this vocabulary',
  Video: 'media players are not part of this vocabulary',
  AudioPlayer: 'media players are not part of this vocabulary',
  Modal: 'modal dialogs are not part of this vocabulary',
};

class Converter {
  readonly unsupported: UnsupportedReport[] = [];
  readonly notes: string[] = [];
  data: unknown = {};
  private readonly visiting = new Set<string>();

  private readonly components: ReadonlyMap<string, Raw>;

  constructor(components: ReadonlyMap<string, Raw>) {
    this.components = components;
  }

  private placeholder(id: string, original: string, reason: string): UiNode {
    this.unsupported.push({ path: id, component: original, reason });
    return { component: 'Unsupported', id, original, reason };
  }

  /** A DynamicString, or the reason it is not one of ours. */
  private text(value: unknown): DynamicString | { unsupported: string } {
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (isObject(value) && typeof value['path'] === 'string') return { path: value['path'] };
    if (isObject(value) && typeof value['call'] === 'string') {
      if (FORMAT_FUNCTIONS.has(value['call']) && (value['args'] === undefined || isObject(value['args']))) {
        const args: Record<string, string | number | boolean | DataBinding> = {};
        for (const [name, argument] of Object.entries((value['args'] ?? {}) as Raw)) {
          if (typeof argument === 'string' || typeof argument === 'number' || typeof argument === 'boolean')
            args[name] = argument;
          else if (isObject(argument) && typeof argument['path'] === 'string')
            args[name] = { path: argument['path'] };
          else return { unsupported: `a nested call in the arguments of ${value['call']}` };
        }
        return { call: value['call'] as (typeof UI_FORMAT_FUNCTIONS)[number], args };
      }
      return { unsupported: `the function ${value['call']}` };
    }
    return { unsupported: 'a value that is neither text nor a binding' };
  }

  /** An input's binding; a literal or missing value gets a path of its own, holding the literal. */
  private binding(id: string, value: unknown, fallback: unknown): DataBinding {
    if (isObject(value) && typeof value['path'] === 'string') return { path: value['path'] };
    const path = `/__a2ui/${id.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    this.data = writePointer(this.data, path, value ?? fallback);
    return { path };
  }

  private action(id: string, value: unknown): UiAction | { unsupported: string } {
    if (isObject(value) && isObject(value['event']) && typeof value['event']['name'] === 'string') {
      const argumentsMap: Record<string, DynamicValue> = {};
      for (const [name, argument] of Object.entries(
        isObject(value['event']['context']) ? value['event']['context'] : {},
      )) {
        if (isObject(argument) && typeof argument['path'] === 'string')
          argumentsMap[name] = { path: argument['path'] };
        else if (isObject(argument)) this.notes.push(`${id}: action argument ${name} is a call; dropped`);
        else argumentsMap[name] = argument as DynamicValue;
      }
      return {
        tool: value['event']['name'],
        ...(Object.keys(argumentsMap).length > 0 ? { arguments: argumentsMap } : {}),
      };
    }
    if (isObject(value) && isObject(value['functionCall']))
      return { unsupported: `the client-side function ${String(value['functionCall']['call'])}` };
    return { unsupported: 'an action without an event' };
  }

  /** Text-field rules from A2UI checks: required, length, regex, email. */
  private checks(id: string, checks: unknown): Partial<TextFieldNode> {
    const rules: Partial<TextFieldNode> = {};
    if (!Array.isArray(checks)) return rules;
    for (const check of checks) {
      const condition = isObject(check) && isObject(check['condition']) ? check['condition'] : undefined;
      const args = condition !== undefined && isObject(condition['args']) ? condition['args'] : {};
      const message = isObject(check) && typeof check['message'] === 'string' ? check['message'] : undefined;
      switch (condition?.['call']) {
        case 'required':
          rules.required = true;
          break;
        case 'length':
          if (typeof args['min'] === 'number') rules.minLength = args['min'];
          if (typeof args['max'] === 'number') rules.maxLength = args['max'];
          break;
        case 'regex':
        case 'email':
          rules.pattern = condition['call'] === 'email' ? EMAIL_PATTERN : String(args['pattern']);
          if (message !== undefined) rules.patternMessage = message.slice(0, 200);
          break;
        default:
          this.notes.push(`${id}: check ${String(condition?.['call'])} is not expressed; dropped`);
      }
    }
    return rules;
  }

  private children(id: string, value: unknown): UiChildren {
    if (Array.isArray(value))
      return value
        .filter((child): child is string => typeof child === 'string')
        .map((child) => this.node(child));
    if (isObject(value) && typeof value['componentId'] === 'string' && typeof value['path'] === 'string')
      return { path: value['path'], template: this.node(value['componentId']) };
    this.notes.push(`${id}: children are neither a list nor a template; none drawn`);
    return [];
  }

  /** A button's label: the text of its child (a Text, or the first Text inside it). */
  private label(childId: unknown): DynamicString {
    const visit = (id: unknown, depth: number): DynamicString | undefined => {
      if (typeof id !== 'string' || depth > 8) return undefined;
      const child = this.components.get(id);
      if (child === undefined) return undefined;
      if (child['component'] === 'Text') {
        const text = this.text(child['text']);
        return typeof text === 'object' && 'unsupported' in text ? undefined : text;
      }
      for (const next of [child['child'], ...(Array.isArray(child['children']) ? child['children'] : [])]) {
        const found = visit(next, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    };
    return visit(childId, 0) ?? (typeof childId === 'string' ? childId : '');
  }

  node(id: string): UiNode {
    const raw = this.components.get(id);
    if (raw === undefined) return this.placeholder(id, '(missing)', `no component has id "${id}"`);
    if (this.visiting.has(id))
      return this.placeholder(id, String(raw['component']), 'the component contains itself');
    this.visiting.add(id);
    try {
      return this.convert(id, raw);
    } finally {
      this.visiting.delete(id);
    }
  }

  private convert(id: string, raw: Raw): UiNode {
    const component = typeof raw['component'] === 'string' ? raw['component'] : '(none)';
    if (raw['weight'] !== undefined) this.notes.push(`${id}: weight is not expressed; dropped`);
    const textOf = (name: string): DynamicString | undefined => {
      const value = this.text(raw[name]);
      if (typeof value === 'object' && 'unsupported' in value) {
        this.notes.push(`${id}: ${name} uses ${value.unsupported}; shown empty`);
        return '';
      }
      return raw[name] === undefined ? undefined : value;
    };
    const optional = <Key extends string, Value>(key: Key, value: Value | undefined) =>
      (value === undefined ? {} : { [key]: value }) as Partial<Record<Key, Value>>;
    const oneOf = <Value extends string>(value: unknown, allowed: readonly Value[]): Value | undefined =>
      typeof value === 'string' && (allowed as readonly string[]).includes(value)
        ? (value as Value)
        : undefined;
    switch (component) {
      case 'Text':
        return {
          component: 'Text',
          id,
          text: textOf('text') ?? '',
          ...optional(
            'variant',
            oneOf(raw['variant'], ['h1', 'h2', 'h3', 'h4', 'h5', 'caption', 'body'] as const),
          ),
        };
      case 'Column':
      case 'Row':
        return {
          component,
          id,
          children: this.children(id, raw['children']),
          ...optional('align', oneOf(raw['align'], ['start', 'center', 'end', 'stretch'] as const)),
          ...optional(
            'justify',
            oneOf(raw['justify'], [
              'start',
              'center',
              'end',
              'spaceBetween',
              'spaceAround',
              'spaceEvenly',
              'stretch',
            ] as const),
          ),
        };
      case 'List':
        return {
          component: 'List',
          id,
          children: this.children(id, raw['children']),
          ...optional('direction', oneOf(raw['direction'], ['vertical', 'horizontal'] as const)),
        };
      case 'Card':
        return {
          component: 'Card',
          id,
          child:
            typeof raw['child'] === 'string'
              ? this.node(raw['child'])
              : { component: 'Column', children: [] },
        };
      case 'Tabs': {
        // Tabs draw as one section per tab: everything stays visible, nothing is lost.
        const tabs = Array.isArray(raw['tabs']) ? raw['tabs'].filter(isObject) : [];
        return {
          component: 'Column',
          id,
          children: tabs.map((tab, index) => {
            const title = this.text(tab['title']);
            return {
              component: 'Section',
              id: `${id}.${index}`,
              title: typeof title === 'object' && 'unsupported' in title ? `${index + 1}` : title,
              children: typeof tab['child'] === 'string' ? [this.node(tab['child'])] : [],
            };
          }),
        };
      }
      case 'Divider':
        return {
          component: 'Divider',
          id,
          ...optional('axis', oneOf(raw['axis'], ['horizontal', 'vertical'] as const)),
        };
      case 'Button': {
        const label = this.label(raw['child']);
        const action = this.action(id, raw['action']);
        const functionCall =
          isObject(raw['action']) && isObject(raw['action']['functionCall'])
            ? raw['action']['functionCall']
            : undefined;
        if (
          functionCall?.['call'] === 'openUrl' &&
          isObject(functionCall['args']) &&
          typeof functionCall['args']['url'] === 'string' &&
          /^https?:\/\//i.test(functionCall['args']['url'])
        )
          return { component: 'DocRef', id, title: label, target: { url: functionCall['args']['url'] } };
        if ('unsupported' in action)
          return this.placeholder(id, 'Button', `its action is ${action.unsupported}`);
        const variant = oneOf(raw['variant'], ['default', 'primary', 'borderless'] as const);
        const button: ButtonNode = {
          component: 'Button',
          id,
          label,
          action,
          ...optional('variant', variant),
        };
        return button;
      }
      case 'TextField':
        return {
          component: 'TextField',
          id,
          label: textOf('label') ?? '',
          value: this.binding(id, raw['value'], ''),
          ...optional(
            'variant',
            oneOf(raw['variant'], ['shortText', 'longText', 'number', 'obscured'] as const),
          ),
          ...(typeof raw['validationRegexp'] === 'string' ? { pattern: raw['validationRegexp'] } : {}),
          ...this.checks(id, raw['checks']),
        };
      case 'CheckBox':
        return {
          component: 'CheckBox',
          id,
          label: textOf('label') ?? '',
          value: this.binding(id, raw['value'], false),
        };
      case 'ChoicePicker': {
        const options = (Array.isArray(raw['options']) ? raw['options'] : [])
          .filter(isObject)
          .map((option) => {
            const label = this.text(option['label']);
            return {
              label: typeof label === 'object' && 'unsupported' in label ? String(option['value']) : label,
              value: String(option['value']),
            };
          });
        if (options.length === 0) return this.placeholder(id, 'ChoicePicker', 'it has no options');
        return {
          component: 'ChoicePicker',
          id,
          options,
          value: this.binding(id, raw['value'], []),
          ...optional('label', textOf('label')),
          ...optional('variant', oneOf(raw['variant'], ['multipleSelection', 'mutuallyExclusive'] as const)),
          ...(this.checks(id, raw['checks']).required === true ? { required: true } : {}),
        };
      }
      case 'DateTimeInput':
        return {
          component: 'DateTimeInput',
          id,
          value: this.binding(id, raw['value'], ''),
          ...optional('label', textOf('label')),
          ...(typeof raw['enableDate'] === 'boolean' ? { enableDate: raw['enableDate'] } : {}),
          ...(typeof raw['enableTime'] === 'boolean' ? { enableTime: raw['enableTime'] } : {}),
        };
      case 'Slider':
        return {
          component: 'Slider',
          id,
          value: this.binding(id, raw['value'], typeof raw['min'] === 'number' ? raw['min'] : 0),
          max: typeof raw['max'] === 'number' ? raw['max'] : 100,
          ...(typeof raw['min'] === 'number' ? { min: raw['min'] } : {}),
          ...optional('label', textOf('label')),
        };
      default:
        return this.placeholder(
          id,
          component,
          UNSUPPORTED_REASONS[component] ??
            `"${component}" is not in A2UI's basic catalog or has no counterpart here`,
        );
    }
  }
}

/**
 * Turns an A2UI surface into a UI document. Takes the messages of one surface (an array, or an
 * object with `messages` as the A2UI examples are written); later `updateComponents` replace
 * components by id, `updateDataModel` writes at its `path` (the whole model without one).
 *
 * @example
 * const { document, unsupported } = adaptA2uiSurface([
 *   { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: '…/basic/catalog.json' } },
 *   { version: 'v0.9', updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'Hi' }] } },
 * ]);
 * document.root; // { component: 'Text', id: 'root', text: 'Hi' }
 */
export function adaptA2uiSurface(input: unknown, options: { surfaceId?: string } = {}): A2uiAdaptation {
  const given: unknown[] = Array.isArray(input)
    ? input
    : isObject(input) && Array.isArray(input['messages'])
      ? input['messages']
      : [input];
  // v0.8 names its root in beginRendering; v0.9 and later call it "root".
  const v08 = isA2uiV08(given) ? fromA2uiV08(given) : undefined;
  const messages: unknown[] = v08?.messages ?? given;
  const rootId = v08?.root ?? 'root';
  let surfaceId = options.surfaceId;
  let data: unknown = {};
  const components = new Map<string, Raw>();
  const notes: string[] = [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    const body = [message['createSurface'], message['updateComponents'], message['updateDataModel']].find(
      isObject,
    );
    const messageSurface =
      body !== undefined && typeof body['surfaceId'] === 'string' ? body['surfaceId'] : undefined;
    if (surfaceId === undefined) surfaceId = messageSurface;
    if (messageSurface !== undefined && messageSurface !== surfaceId) continue;
    if (isObject(message['updateComponents']) && Array.isArray(message['updateComponents']['components'])) {
      for (const component of message['updateComponents']['components']) {
        if (isObject(component) && typeof component['id'] === 'string')
          components.set(component['id'], component);
      }
    }
    if (isObject(message['updateDataModel'])) {
      const update = message['updateDataModel'];
      const path = typeof update['path'] === 'string' ? update['path'] : '';
      data = path === '' || path === '/' ? update['value'] : writePointer(data, path, update['value']);
    }
    if (message['deleteSurface'] !== undefined)
      notes.push('deleteSurface is ignored: the surface is drawn as it stands');
  }
  const converter = new Converter(components);
  converter.data = isObject(data) ? data : {};
  const root = converter.node(rootId);
  return {
    surfaceId,
    document: {
      version: UI_SCHEMA_VERSION,
      root,
      ...(isObject(converter.data) ? { data: converter.data } : {}),
    },
    unsupported: converter.unsupported,
    notes: [...notes, ...converter.notes],
  };
}

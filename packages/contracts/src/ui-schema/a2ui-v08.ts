/**
 * A2UI v0.8 (`surfaceUpdate`, `dataModelUpdate`, `beginRendering`; components wrapped as
 * `{ "Text": { … } }`, values as `{ literalString }`, children as `{ explicitList }`) rewritten as
 * the v0.9 messages `adaptA2uiSurface` reads. Only shapes change here; what maps to what is decided
 * in one place, the v0.9 converter.
 */

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether messages are in v0.8's shapes. */
export function isA2uiV08(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isObject(message) &&
      (isObject(message['surfaceUpdate']) ||
        isObject(message['dataModelUpdate']) ||
        isObject(message['beginRendering'])),
  );
}

const LITERALS = ['literalString', 'literalNumber', 'literalBoolean', 'literalArray'] as const;

interface Rewrite {
  /** Data the literals of bound values initialise (v0.8: a path with a literal writes it first). */
  writes: { path: string; value: unknown }[];
}

/** A v0.8 bound value as v0.9's: a literal, or `{ path }`. */
function value(input: unknown, rewrite: Rewrite): unknown {
  if (!isObject(input)) return input;
  const literal = LITERALS.find((key) => key in input);
  if (typeof input['path'] === 'string') {
    if (literal !== undefined) rewrite.writes.push({ path: input['path'], value: input[literal] });
    return { path: input['path'] };
  }
  return literal === undefined ? input : input[literal];
}

function children(input: unknown): unknown {
  if (!isObject(input)) return input;
  if (Array.isArray(input['explicitList'])) return input['explicitList'];
  const template = input['template'];
  if (isObject(template)) return { componentId: template['componentId'], path: template['dataBinding'] };
  return input;
}

function contextObject(input: unknown, rewrite: Rewrite): Raw {
  const context: Raw = {};
  if (!Array.isArray(input)) return context;
  for (const entry of input) {
    if (isObject(entry) && typeof entry['key'] === 'string')
      context[entry['key']] = value(entry['value'], rewrite);
  }
  return context;
}

function component(raw: Raw, rewrite: Rewrite): Raw {
  const wrapper = isObject(raw['component']) ? raw['component'] : {};
  const type = Object.keys(wrapper)[0] ?? '(none)';
  const props = isObject(wrapper[type]) ? (wrapper[type] as Raw) : {};
  const out: Raw = { id: raw['id'], component: type };
  if (raw['weight'] !== undefined) out['weight'] = raw['weight'];
  const copy = (
    from: string,
    to = from,
    convert: (input: unknown) => unknown = (input) => value(input, rewrite),
  ) => {
    if (props[from] !== undefined) out[to] = convert(props[from]);
  };
  switch (type) {
    case 'Text':
      copy('text');
      copy('usageHint', 'variant', (input) => input);
      break;
    case 'Row':
    case 'Column':
    case 'List':
      copy('children', 'children', children);
      copy('distribution', 'justify', (input) => input);
      copy('alignment', 'align', (input) => input);
      copy('direction', 'direction', (input) => input);
      break;
    case 'Card':
      copy('child', 'child', (input) => input);
      break;
    case 'Tabs':
      copy('tabItems', 'tabs', (input) =>
        Array.isArray(input)
          ? input
              .filter(isObject)
              .map((tab) => ({ title: value(tab['title'], rewrite), child: tab['child'] }))
          : input,
      );
      break;
    case 'Divider':
      copy('axis', 'axis', (input) => input);
      break;
    case 'Button':
      copy('child', 'child', (input) => input);
      if (props['primary'] === true) out['variant'] = 'primary';
      if (isObject(props['action']))
        out['action'] = {
          event: {
            name: props['action']['name'],
            context: contextObject(props['action']['context'], rewrite),
          },
        };
      break;
    case 'TextField':
      copy('label');
      copy('text', 'value');
      copy('validationRegexp', 'validationRegexp', (input) => input);
      if (props['textFieldType'] === 'date') {
        out['component'] = 'DateTimeInput';
        out['enableDate'] = true;
      } else copy('textFieldType', 'variant', (input) => input);
      break;
    case 'CheckBox':
    case 'DateTimeInput':
      copy('label');
      copy('value');
      copy('enableDate', 'enableDate', (input) => input);
      copy('enableTime', 'enableTime', (input) => input);
      break;
    case 'MultipleChoice':
      out['component'] = 'ChoicePicker';
      copy('selections', 'value');
      copy('options', 'options', (input) =>
        Array.isArray(input)
          ? input
              .filter(isObject)
              .map((option) => ({ label: value(option['label'], rewrite), value: option['value'] }))
          : input,
      );
      out['variant'] = props['maxAllowedSelections'] === 1 ? 'mutuallyExclusive' : 'multipleSelection';
      break;
    case 'Slider':
      copy('label');
      copy('value');
      copy('minValue', 'min', (input) => input);
      copy('maxValue', 'max', (input) => input);
      break;
    default:
      // Image, Icon, Video, AudioPlayer, Modal and custom components: the converter marks them.
      for (const [key, item] of Object.entries(props)) out[key] = value(item, rewrite);
  }
  return out;
}

/**
 * A v0.8 `contents` list (`{ key, valueString | valueNumber | valueBoolean | valueMap }`) as one
 * write per leaf, so that an update merges into what literals and earlier updates wrote.
 */
function leaves(input: unknown, base: string): { path: string; value: unknown }[] {
  if (!Array.isArray(input)) return [];
  return input.flatMap((entry: unknown) => {
    if (!isObject(entry) || typeof entry['key'] !== 'string') return [];
    const path = `${base}/${entry['key'].replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if ('valueMap' in entry) return leaves(entry['valueMap'], path);
    for (const key of ['valueString', 'valueNumber', 'valueBoolean'] as const)
      if (key in entry) return [{ path, value: entry[key] }];
    return [];
  });
}

/**
 * v0.8 messages as v0.9 ones, and the root v0.8 names in `beginRendering`.
 *
 * @example
 * const { messages, root } = fromA2uiV08([{ beginRendering: { surfaceId: 's', root: 'main' } }]);
 * root; // 'main'
 */
export function fromA2uiV08(input: readonly unknown[]): { messages: Raw[]; root: string | undefined } {
  const messages: Raw[] = [];
  let root: string | undefined;
  for (const message of input) {
    if (!isObject(message)) continue;
    const update = message['surfaceUpdate'];
    if (isObject(update) && Array.isArray(update['components'])) {
      const rewrite: Rewrite = { writes: [] };
      const components = update['components'].filter(isObject).map((raw) => component(raw, rewrite));
      messages.push({ updateComponents: { surfaceId: update['surfaceId'], components } });
      for (const write of rewrite.writes)
        messages.push({
          updateDataModel: { surfaceId: update['surfaceId'], path: write.path, value: write.value },
        });
    }
    const data = message['dataModelUpdate'];
    if (isObject(data)) {
      const base =
        typeof data['path'] === 'string' && data['path'] !== '/' ? data['path'].replace(/\/$/, '') : '';
      for (const leaf of leaves(data['contents'], base))
        messages.push({
          updateDataModel: { surfaceId: data['surfaceId'], path: leaf.path, value: leaf.value },
        });
    }
    const begin = message['beginRendering'];
    if (isObject(begin)) {
      if (typeof begin['root'] === 'string') root = begin['root'];
      messages.push({ createSurface: { surfaceId: begin['surfaceId'] } });
    }
    if (message['deleteSurface'] !== undefined) messages.push({ deleteSurface: message['deleteSurface'] });
  }
  return { messages, root };
}

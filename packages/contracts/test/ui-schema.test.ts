import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  adaptA2uiSurface,
  applyRunEvent,
  childPointer,
  formValueProblems,
  jsonSchemas,
  readUiDocument,
  resolveText,
  uiDocumentProblems,
  UiDocumentSchema,
  writePointer,
  type LayoutNode,
  type UiNode,
} from '../src/index.ts';
import { eventLog } from './fixtures.ts';

const sample = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./a2ui-samples/${name}`, import.meta.url), 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });

const VALID = [
  { version: 1, root: { component: 'Text', text: 'Hello', variant: 'h2' } },
  {
    version: 1,
    title: 'Every component',
    data: { city: 'Oslo', rows: [{ name: 'a' }], points: [{ label: 'Mon', value: 3 }] },
    root: {
      component: 'Section',
      title: { path: '/city' },
      children: [
        { component: 'Markdown', text: '**bold**' },
        { component: 'Row', align: 'center', children: [{ component: 'Divider', axis: 'vertical' }] },
        {
          component: 'List',
          children: { path: '/rows', template: { component: 'Text', text: { path: 'name' } } },
        },
        {
          component: 'Card',
          child: { component: 'KeyValue', items: [{ label: 'City', value: { path: '/city' } }] },
        },
        {
          component: 'Button',
          label: 'Go',
          variant: 'primary',
          action: { tool: 'go', arguments: { city: { path: '/city' } } },
        },
        { component: 'Actions', actions: [{ label: 'Run', action: { command: 'example.run' } }] },
        {
          component: 'TextField',
          label: 'City',
          value: { path: '/city' },
          required: true,
          pattern: '[A-Z].*',
        },
        { component: 'CheckBox', label: 'Yes', value: { path: '/yes' } },
        { component: 'ChoicePicker', options: [{ label: 'A', value: 'a' }], value: { path: '/pick' } },
        { component: 'DateTimeInput', value: { path: '/day' }, enableDate: true },
        { component: 'Slider', max: 10, value: { path: '/level' } },
        {
          component: 'Form',
          fields: [{ id: 'n', type: 'number', label: 'N', min: 1 }],
          action: { tool: 'save' },
        },
        { component: 'DocRef', title: 'Spec', target: { url: 'https://example.com/spec' } },
        { component: 'DocRef', title: 'Report', target: { artifact: 'a1' } },
        { component: 'ChartLite', variant: 'bar', points: { path: '/points' }, unit: 'h' },
        { component: 'Text', text: { call: 'formatNumber', args: { value: 3.14159, decimals: 2 } } },
        { component: 'Unsupported', original: 'Video', reason: 'no media' },
      ],
    },
  },
];

const INVALID = [
  { version: 2, root: { component: 'Text', text: 'x' } },
  { version: 1, root: { component: 'Text' } },
  { version: 1, root: { component: 'Video', url: 'x' } },
  { version: 1, root: { component: 'Text', text: 'x', colour: 'red' } },
  { version: 1, root: { component: 'Button', label: 'x', action: { script: 'alert(1)' } } },
  { version: 1, root: { component: 'DocRef', title: 'x', target: { url: 'javascript:alert(1)' } } },
  {
    version: 1,
    root: { component: 'Column', children: [{ component: 'Text', text: { call: 'eval', args: {} } }] },
  },
];

describe('the UI-schema vocabulary', () => {
  it('accepts and rejects the same documents as zod and as JSON Schema', () => {
    const schema = jsonSchemas()['UiDocument'];
    expect(schema).toBeDefined();
    const validate = ajv.compile(schema ?? {});
    for (const document of VALID) {
      expect(UiDocumentSchema.safeParse(document).success, JSON.stringify(document)).toBe(true);
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    }
    for (const document of INVALID) {
      expect(UiDocumentSchema.safeParse(document).success, JSON.stringify(document)).toBe(false);
      expect(validate(document), JSON.stringify(document)).toBe(false);
    }
  });

  it('publishes the panel, the action request and the card part as JSON Schema', () => {
    expect(Object.keys(jsonSchemas())).toEqual(
      expect.arrayContaining([
        'UiNode',
        'UiPanelList',
        'UiActionRequest',
        'UiActionResult',
        'CardPostedPayload',
      ]),
    );
  });

  it('reads an unknown component as a placeholder and draws the rest of the tree', () => {
    const reading = readUiDocument({
      version: 1,
      root: {
        component: 'Column',
        children: [
          { component: 'Text', text: 'kept' },
          { component: 'Carousel', id: 'c1', slides: [] },
          { component: 'Text', text: 'x', colour: 'red' },
        ],
      },
    });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const children = (reading.document.root as LayoutNode).children as UiNode[];
    expect(children.map((child) => child.component)).toEqual(['Text', 'Unsupported', 'Unsupported']);
    expect(reading.unsupported).toEqual([
      {
        path: 'root.children.1',
        component: 'Carousel',
        reason: '"Carousel" is not a component of this vocabulary',
      },
      { path: 'root.children.2', component: 'Text', reason: expect.stringContaining('colour') },
    ]);
  });

  it('keeps a Widget node for its host to draw, and makes one with a bad name or props a placeholder', () => {
    const reading = readUiDocument({
      version: 1,
      root: {
        component: 'Column',
        children: [
          { component: 'Widget', widget: 'setting', props: { key: 'run.temperature' } },
          { component: 'Widget', widget: 'Not A Name' },
          { component: 'Widget', widget: 'setting', props: { key: { nested: true } } },
        ],
      },
    });
    if (!reading.ok) throw new Error('should read');
    const root = reading.document.root as LayoutNode;
    expect(root.children).toMatchObject([
      { component: 'Widget', widget: 'setting', props: { key: 'run.temperature' } },
      { component: 'Unsupported', original: 'Widget' },
      { component: 'Unsupported', original: 'Widget' },
    ]);
    expect(reading.unsupported.map((report) => report.path)).toEqual(['root.children.1', 'root.children.2']);
  });

  it('refuses a document of another version or without a root, listing every problem', () => {
    const reading = readUiDocument({ version: 2, data: [] });
    expect(reading).toEqual({
      ok: false,
      problems: [
        { path: 'version', message: expect.stringContaining('must be 1') },
        { path: 'root', message: 'must be a node' },
        { path: 'data', message: 'must be an object' },
      ],
    });
    expect(readUiDocument('<script>').ok).toBe(false);
  });

  it('turns a form with a select without options into a placeholder, and lists it as a problem', () => {
    const document = {
      version: 1,
      root: { component: 'Form', fields: [{ id: 'a', type: 'select', label: 'A' }], action: { tool: 't' } },
    };
    expect(uiDocumentProblems(document)).toEqual([
      { path: 'root', message: 'fields.0.options: a select field needs options' },
    ]);
  });

  it('stops drawing past the nesting limit instead of recursing without end', () => {
    let node: unknown = { component: 'Text', text: 'deep' };
    for (let index = 0; index < 40; index += 1) node = { component: 'Card', child: node };
    const reading = readUiDocument({ version: 1, root: node });
    expect(reading.ok && reading.unsupported[0]?.reason).toBe('nested deeper than 32');
  });
});

describe('bound values', () => {
  const scope = { data: { name: 'Ada', books: [{ title: 'Snow', price: 12.5 }] }, base: '/books/0' };

  it('reads absolute and relative paths and applies the formatting functions', () => {
    expect(resolveText({ path: '/name' }, scope)).toBe('Ada');
    expect(resolveText({ path: 'title' }, scope)).toBe('Snow');
    expect(resolveText({ call: 'formatString', args: { value: '${/name} reads ${title}' } }, scope)).toBe(
      'Ada reads Snow',
    );
    expect(
      resolveText({ call: 'formatNumber', args: { value: { path: 'price' }, decimals: 1 } }, scope, 'en'),
    ).toBe('12.5');
    expect(resolveText({ call: 'formatCurrency', args: { value: 9, currency: 'EUR' } }, scope, 'en')).toBe(
      '€9.00',
    );
    expect(
      resolveText(
        { call: 'formatDate', args: { value: '2026-03-04T05:06:00', format: 'yyyy-MM-dd HH:mm' } },
        scope,
      ),
    ).toBe('2026-03-04 05:06');
    expect(resolveText({ path: '/missing' }, scope)).toBe('');
  });

  it('writes a copy and never writes through __proto__', () => {
    const data = { a: { b: 1 } };
    expect(writePointer(data, '/a/c', 2)).toEqual({ a: { b: 1, c: 2 } });
    expect(writePointer(data, childPointer('/', 'top'), 3)).toEqual({ a: { b: 1 }, top: 3 });
    expect(childPointer('/a', 'x/y')).toBe('/a/x~1y');
    expect(data).toEqual({ a: { b: 1 } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    writePointer({}, '/__proto__/polluted', true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('form values', () => {
  it('checks minimum length and pattern, with the pattern message when there is one', () => {
    const fields = [
      {
        id: 'code',
        type: 'text' as const,
        label: 'Code',
        pattern: '[A-Z]{3}',
        patternMessage: 'three capitals',
      },
      { id: 'note', type: 'textarea' as const, label: 'Note', minLength: 5 },
    ];
    expect(formValueProblems(fields, { code: 'abc', note: 'hi' })).toEqual([
      { path: 'code', message: 'three capitals' },
      { path: 'note', message: 'must be at least 5 characters' },
    ]);
    expect(formValueProblems(fields, { code: 'ABC', note: 'hello' })).toEqual([]);
  });
});

describe('A2UI surfaces', () => {
  it('turns a basic-catalog form surface into a tree with its bindings, checks and event', () => {
    const { surfaceId, document, unsupported, notes } = adaptA2uiSurface(sample('booking-form.json'));
    expect(surfaceId).toBe('booking');
    expect(unsupported).toEqual([]);
    expect(notes).toEqual([]);
    expect(uiDocumentProblems(document)).toEqual([]);
    expect(document.data).toEqual({ booking: { name: '', seats: ['2'], terrace: false, day: '' } });
    const root = document.root as Extract<UiNode, { component: 'Card' }>;
    const main = root.child as LayoutNode;
    const [title, name, seats, terrace, when, divider, actions] = main.children as UiNode[];
    expect(title).toEqual({ component: 'Text', id: 'title', text: 'Book a table', variant: 'h2' });
    expect(name).toEqual({
      component: 'TextField',
      id: 'guest-name',
      label: 'Name',
      value: { path: '/booking/name' },
      required: true,
      maxLength: 40,
    });
    expect(seats).toMatchObject({
      component: 'ChoicePicker',
      variant: 'mutuallyExclusive',
      value: { path: '/booking/seats' },
    });
    expect(terrace).toMatchObject({ component: 'CheckBox', value: { path: '/booking/terrace' } });
    expect(when).toMatchObject({ component: 'DateTimeInput', enableDate: true });
    expect(divider).toEqual({ component: 'Divider', id: 'divider' });
    expect((actions as LayoutNode).children).toEqual([
      {
        component: 'Button',
        id: 'book-button',
        label: 'Book',
        variant: 'primary',
        action: {
          tool: 'book_table',
          arguments: { name: { path: '/booking/name' }, seats: { path: '/booking/seats' } },
        },
      },
      { component: 'DocRef', id: 'menu-button', title: 'Menu', target: { url: 'https://example.com/menu' } },
    ]);
  });

  it('keeps templates and formatting, draws tabs as sections, and marks media and icons unsupported', () => {
    const { document, unsupported } = adaptA2uiSurface(sample('reading-list.json'));
    expect(uiDocumentProblems(document)).toEqual([]);
    expect(unsupported.map((report) => [report.path, report.component])).toEqual([
      ['icon', 'Icon'],
      ['cover', 'Image'],
      ['plays', 'Video'],
    ]);
    const root = document.root as LayoutNode;
    const [, books, tabs] = root.children as UiNode[];
    expect(books).toMatchObject({
      component: 'List',
      children: { path: '/books', template: { component: 'Row' } },
    });
    const row = (books as { children: { template: LayoutNode } }).children.template;
    const title = (row.children as UiNode[])[1] as Extract<UiNode, { component: 'Text' }>;
    expect(resolveText(title.text, { data: document.data, base: '/books/1' })).toBe('Ice (1967)');
    expect(tabs).toMatchObject({
      component: 'Column',
      children: [
        {
          component: 'Section',
          title: 'Notes',
          children: [{ component: 'Text', text: 'Read the short ones first.' }],
        },
        { component: 'Section', title: 'Plays', children: [{ component: 'Unsupported', original: 'Video' }] },
      ],
    });
  });

  it('reads a v0.8 surface: wrapped components, literal values, explicit lists, contents and the beginRendering root', () => {
    const { surfaceId, document, unsupported } = adaptA2uiSurface(sample('support-ticket-v08.json'));
    expect(surfaceId).toBe('ticket');
    expect(uiDocumentProblems(document)).toEqual([]);
    expect(unsupported.map((report) => report.component)).toEqual(['Image']);
    // The literal beside a path initialises it; dataModelUpdate contents (valueMap) merge in.
    expect(document.data).toEqual({ ticket: { summary: 'Printer jam', priority: 'low', notify: true } });
    const card = document.root as Extract<UiNode, { component: 'Card' }>;
    const column = card.child as LayoutNode;
    expect(column).toMatchObject({ component: 'Column', id: 'ticket-column', align: 'stretch' });
    const [heading, summary, priority, notify, , send] = column.children as UiNode[];
    expect(heading).toEqual({ component: 'Text', id: 'heading', text: 'New support ticket', variant: 'h3' });
    expect(summary).toEqual({
      component: 'TextField',
      id: 'summary',
      label: 'Summary',
      value: { path: '/ticket/summary' },
      variant: 'shortText',
    });
    expect(priority).toMatchObject({
      component: 'ChoicePicker',
      variant: 'mutuallyExclusive',
      options: [
        { label: 'Low', value: 'low' },
        { label: 'High', value: 'high' },
      ],
      value: { path: '/ticket/priority' },
    });
    expect(notify).toMatchObject({
      component: 'CheckBox',
      label: 'Email me',
      value: { path: '/ticket/notify' },
    });
    expect(send).toEqual({
      component: 'Button',
      id: 'send',
      label: 'Send',
      variant: 'primary',
      action: { tool: 'file_ticket', arguments: { summary: { path: '/ticket/summary' }, channel: 'web' } },
    });
  });

  it('gives a literal input value a path of its own, and survives a missing child and a cycle', () => {
    const { document, unsupported } = adaptA2uiSurface([
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['field', 'ghost', 'loop'] },
            { id: 'field', component: 'TextField', label: 'Say', value: 'hello' },
            { id: 'loop', component: 'Card', child: 'loop' },
          ],
        },
      },
    ]);
    expect(document.data).toEqual({ __a2ui: { field: 'hello' } });
    expect(unsupported.map((report) => report.reason)).toEqual([
      'no component has id "ghost"',
      'the component contains itself',
    ]);
    expect(uiDocumentProblems(document)).toEqual([]);
  });
});

describe('card parts', () => {
  it('a card.posted event adds a card part to the answer', () => {
    const { numbered, created } = eventLog();
    const schema = { version: 1, root: { component: 'Text', text: 'Sunny' } };
    let projection = applyRunEvent(undefined, created('r1'));
    projection = applyRunEvent(
      projection,
      numbered({
        run_id: 'r1',
        type: 'card.posted',
        payload: { message_id: 'r1', card_id: 'c1', source: 'extension:example', title: 'Weather', schema },
      }),
    );
    expect(projection?.assistant.parts).toEqual([
      {
        type: 'card',
        card_id: 'c1',
        source: 'extension:example',
        title: 'Weather',
        schema,
        status: 'complete',
      },
    ]);
  });
});

import { formFieldsProblems, type CardProblem } from './form-fields.ts';
import { UI_COMPONENTS, UI_SCHEMA_VERSION, UiNodeSchema, type UiDocument, type UiNode } from './nodes.ts';

/** The most nodes and the deepest nesting a renderer draws; past them the rest is unsupported. */
export const UI_DOCUMENT_LIMITS = { nodes: 2000, depth: 32 } as const;

/** A node the reader replaced by an `Unsupported` placeholder, and why. */
export interface UnsupportedReport {
  path: string;
  component: string;
  reason: string;
}

/** What `readUiDocument` returns: the document to draw, or why there is nothing to draw. */
export type UiDocumentReading =
  | { ok: true; document: UiDocument; unsupported: UnsupportedReport[] }
  | { ok: false; problems: CardProblem[] };

const KNOWN: ReadonlySet<string> = new Set(UI_COMPONENTS);
const CHILD_LIST_COMPONENTS: ReadonlySet<string> = new Set(['Column', 'Row', 'List', 'Section']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Walk {
  count: number;
  unsupported: UnsupportedReport[];
}

function placeholder(walk: Walk, path: string, original: string, reason: string, id?: unknown): UiNode {
  walk.unsupported.push({ path, component: original, reason });
  return {
    component: 'Unsupported',
    ...(typeof id === 'string' ? { id: id.slice(0, 128) } : {}),
    original: original.slice(0, 200),
    reason: reason.slice(0, 2000),
  };
}

function readNode(raw: unknown, path: string, depth: number, walk: Walk): UiNode {
  walk.count += 1;
  if (!isObject(raw)) return placeholder(walk, path, '(not an object)', 'a node must be an object');
  const component = typeof raw['component'] === 'string' ? raw['component'] : '(none)';
  if (walk.count > UI_DOCUMENT_LIMITS.nodes)
    return placeholder(walk, path, component, `more than ${UI_DOCUMENT_LIMITS.nodes} nodes`, raw['id']);
  if (depth > UI_DOCUMENT_LIMITS.depth)
    return placeholder(walk, path, component, `nested deeper than ${UI_DOCUMENT_LIMITS.depth}`, raw['id']);
  if (!KNOWN.has(component))
    return placeholder(
      walk,
      path,
      component,
      `"${component}" is not a component of this vocabulary`,
      raw['id'],
    );
  // Children first, so that one bad child becomes a placeholder and its parent still draws.
  const node: Record<string, unknown> = { ...raw };
  if (component === 'Card') node['child'] = readNode(raw['child'], `${path}.child`, depth + 1, walk);
  if (CHILD_LIST_COMPONENTS.has(component)) {
    const children = raw['children'];
    if (Array.isArray(children))
      node['children'] = children.map((child, index) =>
        readNode(child, `${path}.children.${index}`, depth + 1, walk),
      );
    else if (isObject(children) && 'template' in children)
      node['children'] = {
        ...children,
        template: readNode(children['template'], `${path}.children.template`, depth + 1, walk),
      };
  }
  const parsed = UiNodeSchema.safeParse(node);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return placeholder(walk, path, component, `${where}${issue?.message ?? 'invalid'}`, raw['id']);
  }
  if (parsed.data.component === 'Form') {
    const problem = formFieldsProblems(parsed.data.fields, 'fields.')[0];
    if (problem !== undefined)
      return placeholder(walk, path, component, `${problem.path}: ${problem.message}`, raw['id']);
  }
  return parsed.data;
}

/**
 * Reads a UI document leniently, the way a renderer must: a component this vocabulary does not
 * know, or a node that breaks its component's rules, becomes an `Unsupported` node (listed in
 * `unsupported`) and the rest of the tree still draws. Only a document without a usable shape (not
 * an object, another version, no root) is refused, with the problems.
 *
 * @example
 * const reading = readUiDocument({ version: 1, root: { component: 'Video', url: 'x' } });
 * // reading.ok === true; reading.document.root.component === 'Unsupported'
 */
export function readUiDocument(input: unknown): UiDocumentReading {
  if (!isObject(input))
    return { ok: false, problems: [{ path: '(document)', message: 'must be an object' }] };
  const problems: CardProblem[] = [];
  if (input['version'] !== UI_SCHEMA_VERSION)
    problems.push({
      path: 'version',
      message: `must be ${UI_SCHEMA_VERSION} (this renderer's vocabulary); got ${JSON.stringify(input['version'])}`,
    });
  if (!isObject(input['root'])) problems.push({ path: 'root', message: 'must be a node' });
  if (input['data'] !== undefined && !isObject(input['data']))
    problems.push({ path: 'data', message: 'must be an object' });
  if (input['title'] !== undefined && typeof input['title'] !== 'string')
    problems.push({ path: 'title', message: 'must be text' });
  if (problems.length > 0) return { ok: false, problems };
  const walk: Walk = { count: 0, unsupported: [] };
  const root = readNode(input['root'], 'root', 0, walk);
  const document: UiDocument = {
    version: UI_SCHEMA_VERSION,
    root,
    ...(typeof input['title'] === 'string' ? { title: input['title'] } : {}),
    ...(isObject(input['data']) ? { data: input['data'] } : {}),
  };
  return { ok: true, document, unsupported: walk.unsupported };
}

/**
 * Everything wrong with a document, strictly: what an extension's install check or a tool that
 * posts a card reports. Empty when the document draws without a single placeholder.
 *
 * @example
 * uiDocumentProblems({ version: 1, root: { component: 'Text' } });
 * // [{ path: 'root', message: 'text: …' }]
 */
export function uiDocumentProblems(input: unknown): CardProblem[] {
  const reading = readUiDocument(input);
  if (!reading.ok) return reading.problems;
  return reading.unsupported.map((report) => ({ path: report.path, message: report.reason }));
}

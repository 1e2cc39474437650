// A lint rule for STYLE.md's "one folder per concept": the folders under a source root must form
// no cycle, type-only imports included. import-x/no-cycle ignores `import type`, and two of our
// folder cycles (hooks → plugins, i18n ↔ preferences) were type-only.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** Folder → folders it imports from, for every .ts/.tsx file under `root`; cached per lint run. */
const graphs = new Map();

function folderOf(root, file) {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || !relative.includes(path.sep)) return undefined;
  return relative.split(path.sep)[0];
}

function graphOf(root) {
  let graph = graphs.get(root);
  if (graph !== undefined) return graph;
  graph = new Map();
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) {
        const from = folderOf(root, full);
        if (from === undefined) continue;
        const edges = graph.get(from) ?? new Set();
        graph.set(from, edges);
        for (const match of readFileSync(full, 'utf8').matchAll(IMPORT)) {
          const to = folderOf(root, path.resolve(path.dirname(full), match[1]));
          if (to !== undefined && to !== from) edges.add(to);
        }
      }
    }
  };
  walk(root);
  graphs.set(root, graph);
  return graph;
}

function reaches(graph, start, target) {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const folder = stack.pop();
    if (folder === target) return true;
    if (seen.has(folder)) continue;
    seen.add(folder);
    for (const next of graph.get(folder) ?? []) stack.push(next);
  }
  return false;
}

export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Forbid import cycles between the folders of a source root, type imports included.',
    },
    schema: [{ type: 'object', properties: { roots: { type: 'array', items: { type: 'string' } } } }],
    messages: {
      cycle: "Folder '{{from}}' imports '{{to}}', which imports '{{from}}' back (a folder cycle).",
    },
  },
  create(context) {
    const roots = (context.options[0]?.roots ?? []).map((root) => path.resolve(context.cwd, root));
    const file = context.filename;
    const root = roots.find((candidate) => !path.relative(candidate, file).startsWith('..'));
    if (root === undefined) return {};
    const from = folderOf(root, file);
    if (from === undefined) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = folderOf(root, path.resolve(path.dirname(file), source));
      if (to === undefined || to === from) return;
      if (reaches(graphOf(root), to, from)) context.report({ node, messageId: 'cycle', data: { from, to } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

import type { AgentNode, AgentTree } from '@youyou/contracts';

/** Every sub-agent of a conversation's agent tree, depth first (the roots' own runs left out). */
export function allNodes(tree: AgentTree): AgentNode[] {
  const nodes: AgentNode[] = [];
  const walk = (list: AgentNode[]): void => {
    for (const node of list) {
      nodes.push(node);
      walk(node.children);
    }
  };
  for (const root of tree.roots) walk(root.children);
  return nodes;
}

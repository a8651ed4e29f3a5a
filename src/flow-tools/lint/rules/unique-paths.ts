import { stringMeta, type StateNode } from '../../../domain/flow/model';
import type { MeaningRule } from '../rule';

export const uniquePaths: MeaningRule = {
  name: 'unique-paths',
  description: 'Each page has a path of its own, in its flow and across all flows: a path opens exactly one page.',
  stage: 'meaning',
  check({ topLevel, otherFlowPaths, lineOf }, report) {
    const pathOwner = new Map<string, StateNode>();
    for (const node of topLevel) {
      const path = stringMeta(node, 'path');
      if (path === undefined) continue;
      const first = pathOwner.get(path);
      if (first) report(`${node.pointer}/meta/path`, `path "${path}" is already used by state "${first.path[0]}" (line ${lineOf(`${first.pointer}/meta/path`)}); each page needs its own path`);
      else pathOwner.set(path, node);
      if (otherFlowPaths?.includes(path)) report(`${node.pointer}/meta/path`, `path "${path}" is also used by another flow; each page needs a path of its own across all flows`);
    }
  },
};

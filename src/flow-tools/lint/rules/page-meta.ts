import { metaOf, stringMeta, topLevelOf } from '../../../domain/flow/model';
import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';

export const pageMeta: MeaningRule = {
  name: 'page-meta',
  description: 'Page metadata sits on top-level states only; a page has path, screen and title together; a state that leaves the flow (exitTo) is final and no page.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      if (node === root) continue;
      const meta = metaOf(node);
      if (node.parent !== root) {
        const pageKeys = Object.keys(meta);
        if (pageKeys.length > 0) report(`${node.pointer}/meta`, `meta.${pageKeys.join(', meta.')} is only read on top-level states; sub-state ${pathLabel(node)} is part of the page of "${topLevelOf(node).path[0]}"`);
        continue;
      }
      const path = stringMeta(node, 'path');
      if (meta.exitTo !== undefined) {
        if (node.config.type !== 'final') report(`${node.pointer}/meta/exitTo`, `state ${pathLabel(node)} has meta.exitTo, so it must be "type": "final" (it leaves this flow)`);
        if (path !== undefined) report(`${node.pointer}/meta/path`, `state ${pathLabel(node)} leaves the flow (meta.exitTo), so it cannot also be a page (meta.path)`);
      } else if (path === undefined) {
        const pageOnly = ['screen', 'step', 'form', 'entry', 'title'].filter((k) => meta[k] !== undefined);
        if (pageOnly.length > 0) report(`${node.pointer}/meta`, `state ${pathLabel(node)} has meta.${pageOnly.join(', meta.')} but no meta.path: only a page (a state with a path) uses them`);
      } else {
        if (stringMeta(node, 'screen') === undefined) report(`${node.pointer}/meta`, `page ${pathLabel(node)} (path "${path}") has no meta.screen`);
        if (meta.title === undefined) report(`${node.pointer}/meta`, `page ${pathLabel(node)} (path "${path}") has no meta.title (it is the heading and the document title)`);
      }
    }
  },
};

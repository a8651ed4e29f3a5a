import { stringMeta } from '../../../domain/flow/model';
import { isOneOf, screenNames } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { unknownName } from '../words';

export const knownScreens: MeaningRule = {
  name: 'known-screens',
  description: 'meta.screen names a screen of the vocabulary (src/domain/flow/vocabulary.ts): the client has no other.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      const screen = node === root ? undefined : stringMeta(node, 'screen');
      if (screen !== undefined && !isOneOf(screenNames, screen)) report(`${node.pointer}/meta/screen`, unknownName('screen', screen, screenNames));
    }
  },
};

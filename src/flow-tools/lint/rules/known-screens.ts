import { stringMeta } from '../../../domain/flow/model';
import { screenNames } from '../../../domain/flow/vocabulary';
import { knownNamesRule } from '../known-names';

export const knownScreens = knownNamesRule({
  name: 'known-screens',
  description: 'meta.screen names a screen of the vocabulary (src/domain/flow/vocabulary.ts): the client has no other.',
  kind: 'screen',
  known: screenNames,
  namesIn: (node) => {
    const screen = stringMeta(node, 'screen');
    return screen === undefined ? [] : [{ value: screen, pointer: `${node.pointer}/meta/screen` }];
  },
});

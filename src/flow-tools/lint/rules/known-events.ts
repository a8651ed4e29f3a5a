import { escapePointerSegment } from '../../../domain/json-pointer';
import { isObject } from '../../../domain/flow/model';
import { eventTypes, isOneOf } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { unknownName } from '../words';

export const knownEvents: MeaningRule = {
  name: 'known-events',
  description: 'The keys of "on" are events a screen sends (the vocabulary): any other would never happen.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      const on = node.config.on;
      if (node === root || !isObject(on)) continue;
      for (const event of Object.keys(on)) {
        if (!isOneOf(eventTypes, event)) report(`${node.pointer}/on/${escapePointerSegment(event)}`, unknownName('event', event, eventTypes));
      }
    }
  },
};

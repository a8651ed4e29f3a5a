import { escapePointerSegment } from '../../../domain/json-pointer';
import { isObject } from '../../../domain/flow/model';
import { eventTypes } from '../../../domain/flow/vocabulary';
import { knownNamesRule } from '../known-names';

export const knownEvents = knownNamesRule({
  name: 'known-events',
  description: 'The keys of "on" are events a screen sends (the vocabulary): any other would never happen.',
  kind: 'event',
  known: eventTypes,
  namesIn: (node) => {
    const on = node.config.on;
    return isObject(on) ? Object.keys(on).map((event) => ({ value: event, pointer: `${node.pointer}/on/${escapePointerSegment(event)}` })) : [];
  },
});

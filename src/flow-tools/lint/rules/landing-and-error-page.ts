import { isPage } from '../../../domain/flow/model';
import type { MeaningRule } from '../rule';
import { quoteList, withChoices } from '../words';

export const landingAndErrorPage: MeaningRule = {
  name: 'landing-and-error-page',
  description: 'meta.landing and meta.errorState name pages (top-level states with a path) of the flow.',
  stage: 'meaning',
  check({ root, topLevel, meta }, report) {
    const pages = topLevel.filter(isPage).map((n) => n.path[0] ?? '');
    for (const key of ['landing', 'errorState'] as const) {
      const name = String(meta[key]);
      const state = root.children.get(name);
      if (!state) report(`/meta/${key}`, withChoices(`meta.${key} "${name}" is not a state of this flow`, name, 'pages', pages));
      else if (!isPage(state)) report(`/meta/${key}`, `meta.${key} "${name}" is a state without meta.path, so it cannot be opened as a page (pages: ${quoteList(pages)})`);
    }
  },
};

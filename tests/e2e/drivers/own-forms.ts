/**
 * The forms the drivers answer with data of their own (drivers/index.ts formDrivers: the bank's
 * applicants of applicants.ts, the furigana and the address search checked on the way); every
 * other form is answered from its schema (generic-form.ts). Apart from the drivers, so that the
 * journeys' planner (tests/model/plan.ts) can tell which forms' conditions the samples decide
 * without loading the browser's drivers.
 */
export const FORMS_WITH_DRIVER = ['personal', 'workplace', 'parent', 'branch', 'sealLess'] as const;
export type FormWithDriver = (typeof FORMS_WITH_DRIVER)[number];

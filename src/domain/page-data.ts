/**
 * The ids of the JSON data blocks the server writes into every page
 * (`<script type="application/json" id="…">`, never executed, so the CSP's ban on inline
 * scripts holds) and the client reads at start: the bank's settings and the linted flows.
 */
export const PAGE_DATA_IDS = { settings: 'client-settings', flows: 'client-flows' } as const;

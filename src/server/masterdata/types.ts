/** The bank master data's shapes live in src/domain/masterdata.ts (the page reads them too). */
export * from '../../domain/masterdata.js';

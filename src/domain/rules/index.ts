/**
 * Rules a JSON Schema cannot say, written once and run by the browser form and the server
 * alike (pure functions: no DOM, no Node APIs). Check functions return the Japanese message
 * from ../messages.ts, or null when the value passes.
 */
export * from './field-error.js';
export * from './kana.js';
export * from './names.js';
export * from './dates.js';
export * from './phones.js';
export * from './address.js';
export * from './workplace.js';
export * from './occupations.js';
export * from './parent.js';
export * from './forms.js';
export * from './verification-code.js';
export * from './pin.js';

/**
 * Identity check (eKYC) and document constants shared by the server and the page.
 *
 * Status numbers of POST /api/ekyc/status. Spec section 9 gives 1, 2 and 4; the other two are
 * ours, chosen far from the spec's so that no future spec number is likely to collide:
 *
 * - 1 CREATED: the session exists at the provider; the applicant has not finished there.
 * - 2 PROVIDER_PROCESSING: the provider has the applicant's documents and is checking them.
 * - 4 BANKER_PROCESSING: the provider approved; the application is handed to the bank
 *   (with `supplement` in GET /api/ekyc when the bank also wants a current-address document).
 * - 8 FAILED: the provider could not complete the check (technical failure, session expired).
 * - 9 REJECTED: the provider refused the documents or the face match.
 *
 * The page keeps polling on 1 and 2, goes on at 4, and shows /ekyc-error on any other number
 * (spec section 4), so 8 and 9 need no special handling there; both allow a new attempt
 * (POST /api/ekyc again), up to EKYC_MAX_ATTEMPTS per application.
 */
export const EKYC_STATUS = {
  created: 1,
  providerProcessing: 2,
  bankerProcessing: 4,
  failed: 8,
  rejected: 9,
} as const;

export type EkycStatus = (typeof EKYC_STATUS)[keyof typeof EKYC_STATUS];

export const EKYC_STATUSES: readonly EkycStatus[] = Object.values(EKYC_STATUS);

export function isEkycStatus(value: unknown): value is EkycStatus {
  return typeof value === 'number' && (EKYC_STATUSES as readonly number[]).includes(value);
}

/** 1 and 2: the provider has not decided yet (the page keeps polling). */
export function isEkycPending(status: EkycStatus): boolean {
  return status === EKYC_STATUS.created || status === EKYC_STATUS.providerProcessing;
}

/**
 * The entered items an OpenID Connect check compares with the card's data (docs/adr/0035): the
 * person's name, birthday (the form's field names) and address; a child application's check
 * compares the parent's name and birthday only.
 */
export const EKYC_COMPARED_FIELDS = ['name', 'birthday', 'address'] as const;

export type EkycComparedField = (typeof EKYC_COMPARED_FIELDS)[number];

/**
 * Why a check was rejected (9), when the applicant can act on it: POST /api/ekyc/status adds
 * it to the status, and the poller hands it to the eKYC error page. `mismatch`: the card's data
 * differ from what was entered, in `fields` (which items only, never their values).
 */
export interface EkycRefusal {
  reason: 'mismatch';
  fields: EkycComparedField[];
}

/** The refusal in an answer or a page's navigation data, or null when there is none (a generic failure). */
export function ekycRefusalOf(value: unknown): EkycRefusal | null {
  if (typeof value !== 'object' || value === null) return null;
  const { reason, fields } = value as Record<string, unknown>;
  if (reason !== 'mismatch' || !Array.isArray(fields)) return null;
  const known = EKYC_COMPARED_FIELDS.filter((field) => fields.includes(field));
  return known.length > 0 ? { reason, fields: known } : null;
}

/** Sessions an application may start (a retry after an error is a new session). */
export const EKYC_MAX_ATTEMPTS = 5;

/**
 * Document types of POST /api/documents. The first three are the spec's (section 3, child
 * flow: the child's individual number card, then a residence certificate or a maternity
 * handbook). CURRENT_ADDRESS_DOCUMENT is ours: the general flow's /supplement step, where the
 * applicant uploads a current-address document (a utility bill, a tax receipt…) when the
 * identity check approved the person but the bank asks for proof of the current address.
 */
export const DOCUMENT_TYPES = [
  'INDIVIDUAL_NUMBER_CARD',
  'CERTIFICATE_RESIDENCE',
  'MATERNITY_HANDBOOK',
  'CURRENT_ADDRESS_DOCUMENT',
] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export function isDocumentType(value: unknown): value is DocumentType {
  return typeof value === 'string' && (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** Types each application type may upload. */
export const DOCUMENT_TYPES_BY_APPLICATION: Readonly<Record<'GENERAL' | 'CHILD', readonly DocumentType[]>> = {
  GENERAL: ['CURRENT_ADDRESS_DOCUMENT'],
  CHILD: ['INDIVIDUAL_NUMBER_CARD', 'CERTIFICATE_RESIDENCE', 'MATERNITY_HANDBOOK'],
};

/** A child application's documents: the individual number card and one supplementary document. */
export function hasChildDocuments(types: ReadonlySet<DocumentType>): boolean {
  return types.has('INDIVIDUAL_NUMBER_CARD') && (types.has('CERTIFICATE_RESIDENCE') || types.has('MATERNITY_HANDBOOK'));
}

/**
 * Upload limits (spec section 9): files up to 1 MB are sent as they are, larger ones are
 * re-encoded by the page as JPEG within 1920 x 1080 until they fit. The server refuses more
 * than 1 MB, types other than JPEG and PNG (by content, not name), and pictures whose sides
 * are outside DOCUMENT_MIN_SIDE..DOCUMENT_MAX_SIDE pixels (too small to read, or not a photo
 * the page made: a phone camera's full size is about 4000 px).
 */
export const DOCUMENT_MAX_BYTES = 1_048_576;
export const DOCUMENT_MAX_SIDE = 4096;
export const DOCUMENT_MIN_SIDE = 200;

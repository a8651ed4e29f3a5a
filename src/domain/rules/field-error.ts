/** One rule failure, addressed to the form field (body property) that shows it. */
export interface FieldError {
  field: string;
  message: string;
}

import type { ZodType } from 'zod';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Runs a zod schema and keeps the first message per field, in the schema's order. */
export function validate<K extends string>(schema: ZodType, values: unknown): FieldErrors<K> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors<K> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form') as K;
    if (!errors[key]) errors[key] = issue.message;
  }
  return errors;
}

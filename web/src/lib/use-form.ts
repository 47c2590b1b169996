import { useCallback, useRef, useState } from 'react';

import type { FieldErrors } from '@/lib/validation';

/** Form values plus per-field errors; editing a field clears its error (spec §5). */
export function useForm<T extends Record<string, unknown>>(initial: T) {
  type Key = Extract<keyof T, string>;
  const initialRef = useRef(initial);
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<Key>>({});

  const setField = useCallback(<K extends Key>(key: K, value: T[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  }, []);

  const reset = useCallback(() => {
    setValues(initialRef.current);
    setErrors({});
  }, []);

  return { values, errors, setField, setErrors, setValues, reset };
}

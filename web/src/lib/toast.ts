import { atom } from 'jotai';

import { appStore } from '@/lib/store';

export type ToastVariant = 'default' | 'success' | 'error';

export type Toast = {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
};

export const toastsAtom = atom<Toast[]>([]);

let nextId = 1;

export function toast(input: {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}): number {
  const id = nextId++;
  const variant = input.variant ?? 'default';
  // An error must be read to be acted on: it stays until dismissed.
  const duration = variant === 'error' ? Infinity : (input.duration ?? 5000);
  const entry: Toast = { ...input, id, variant, duration };
  appStore.set(toastsAtom, (toasts) => [...toasts.slice(-3), entry]);
  return id;
}

export function dismissToast(id: number) {
  appStore.set(toastsAtom, (toasts) => toasts.filter((t) => t.id !== id));
}

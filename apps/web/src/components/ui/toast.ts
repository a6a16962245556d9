/**
 * Toasts: one visible at a time (spec 01 §3). Errors are destructive toasts titled 'Error' (spec 02 §8).
 * sonner loads with the first toast, not with every page that may raise one (record 210); its Toaster mounts
 * then too (toaster-demand.ts), and sonner shows a toast raised before its Toaster subscribed.
 */
import { requestToaster } from './toaster-demand';

type Toast = typeof import('sonner').toast;

let loading: Promise<Toast> | undefined;

function raise(show: (toast: Toast) => void): void {
  requestToaster();
  loading ??= import('sonner').then((module) => module.toast);
  void loading.then(show);
}

export const notify = {
  success: (title: string, description?: string) =>
    raise((toast) => toast.success(title, description ? { description } : undefined)),
  error: (description: string, title = 'Error') => raise((toast) => toast.error(title, { description })),
  info: (title: string, description?: string) =>
    raise((toast) => toast(title, description ? { description } : undefined)),
};

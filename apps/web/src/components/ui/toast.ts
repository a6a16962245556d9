/** Toasts: one visible at a time (spec 01 §3). Errors are destructive toasts titled 'Error' (spec 02 §8). */
import { toast } from 'sonner';
import { requestToaster } from './toaster-demand';

requestToaster();

export const notify = {
  success: (title: string, description?: string) =>
    toast.success(title, description ? { description } : undefined),
  error: (description: string, title = 'Error') => toast.error(title, { description }),
  info: (title: string, description?: string) => toast(title, description ? { description } : undefined),
};

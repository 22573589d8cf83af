export type ToastType = 'success' | 'error' | 'info';

export interface Toast {
  type: ToastType;
  title: string;
  description?: string;
}

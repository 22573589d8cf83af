// What the Backup & Recovery screen shows of a backup (the loader sends no more).
import type { Backup } from './backups.server.ts';

export type BackupView = Pick<
  Backup,
  'id' | 'name' | 'description' | 'type' | 'status' | 'createdAt' | 'size' | 'recordCount' | 'tables' | 'error'
> & {
  /** What this user may do with it (the services decide the same way). */
  canDelete: boolean;
  canRestore: boolean;
};

/** A table to choose (create) or export, with its label. */
export interface TableChoice {
  name: string;
  label: string;
}

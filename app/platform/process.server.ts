// Whether a process id names a live process on this machine (a lock or marker file's holder).
// EPERM: it exists but belongs to another user.
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

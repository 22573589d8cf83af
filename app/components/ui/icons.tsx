// Small inline SVG icons (no icon font, nothing fetched).
type IconProps = { className?: string };
const base = 'h-5 w-5';
const svg = (d: string) =>
  function Icon({ className }: IconProps) {
    return (
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className={className ?? base}>
        <path d={d} />
      </svg>
    );
  };

export const HomeIcon = svg('M3 11.5 12 4l9 7.5M5 10v10h5v-6h4v6h5V10');
export const BellIcon = svg('M18 16v-5a6 6 0 1 0-12 0v5l-2 2h16l-2-2ZM10 20a2 2 0 0 0 4 0');
export const GearIcon = svg('M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.4-3a7.4 7.4 0 0 0-.1-1.3l2-1.6-2-3.4-2.4 1a7.5 7.5 0 0 0-2.2-1.3L14.3 3h-4l-.4 2.4a7.5 7.5 0 0 0-2.2 1.3l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.6l-2 1.6 2 3.4 2.4-1a7.5 7.5 0 0 0 2.2 1.3l.4 2.4h4l.4-2.4a7.5 7.5 0 0 0 2.2-1.3l2.4 1 2-3.4-2-1.6c.1-.4.1-.9.1-1.3Z');
export const UserIcon = svg('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0');
export const LogoutIcon = svg('M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10');
export const MenuIcon = svg('M4 6h16M4 12h16M4 18h16');
export const CloseIcon = svg('M6 6l12 12M18 6 6 18');
export const ChevronIcon = svg('m9 6 6 6-6 6');
export const ShieldIcon = svg('M12 3 5 6v6c0 4.4 3 7.7 7 9 4-1.3 7-4.6 7-9V6l-7-3Z');
export const ChartIcon = svg('M4 20V10m6 10V4m6 16v-7m4 7H2');
export const SyncIcon = svg('M20 12a8 8 0 0 1-14.3 4.9M4 12a8 8 0 0 1 14.3-4.9M18 3v4h-4M6 21v-4h4');
export const BuildingIcon = svg('M4 21V5l8-2v18M12 8h8v13M8 8h.01M8 12h.01M8 16h.01M16 12h.01M16 16h.01M2 21h20');
export const SparkIcon = svg('M12 3v4m0 10v4M3 12h4m10 0h4M6 6l2.5 2.5m7 7L18 18M6 18l2.5-2.5m7-7L18 6');
export const LockIcon = svg('M6 11h12v10H6zM8 11V7a4 4 0 1 1 8 0v4');
export const EyeIcon = svg('M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z');
export const EyeOffIcon = svg('M3 3l18 18M10.6 6.1A9.9 9.9 0 0 1 12 6c6.4 0 10 6 10 6a17 17 0 0 1-3.2 3.9M6.6 6.6A16.7 16.7 0 0 0 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2');
export const PencilIcon = svg('M4 20h4L19 9l-4-4L4 16v4ZM14 6l4 4');
export const TrashIcon = svg('M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6');
export const PlusIcon = svg('M12 5v14M5 12h14');
export const DownloadIcon = svg('M12 4v11m-4-4 4 4 4-4M5 20h14');
export const SearchIcon = svg('M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm10 3-5-5');
export const CheckCircleIcon = svg('M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0ZM8 12l3 3 5-6');
export const XCircleIcon = svg('M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0ZM9 9l6 6m0-6-6 6');
export const InfoIcon = svg('M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0ZM12 11v5M12 8h.01');
export const WarningIcon = svg('M12 4 2.5 20h19L12 4ZM12 10v4M12 17h.01');
export const ClockIcon = svg('M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0ZM12 7v5l3 2');

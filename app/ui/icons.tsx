// The app's icons: one class per icon (icon-css.ts turns each symbol of icons.svg into a CSS
// mask in the stylesheet), so a page carries an empty <i> per icon instead of its SVG
// (icons.test.ts checks every name against the sprite).

/** Without a className an icon is 1.25rem square (h-5 w-5), or as the surrounding rule sizes it (the row actions). */
type IconProps = { className?: string };

export const ICON_NAMES = [
  'home',
  'bell',
  'gear',
  'user',
  'logout',
  'menu',
  'close',
  'chevron',
  'shield',
  'chart',
  'sync',
  'building',
  'spark',
  'lock',
  'eye',
  'eye-off',
  'pencil',
  'trash',
  'plus',
  'download',
  'upload',
  'search',
  'check-circle',
  'x-circle',
  'info',
  'warning',
  'clock',
] as const;
export type IconName = (typeof ICON_NAMES)[number];

export function Icon({ name, className = '' }: IconProps & { name: IconName }) {
  return <i className={className ? `i-${name} ${className}` : `i-${name}`} />;
}

const icon = (name: IconName) =>
  function NamedIcon({ className }: IconProps) {
    return <Icon name={name} className={className} />;
  };

export const HomeIcon = icon('home');
export const BellIcon = icon('bell');
export const GearIcon = icon('gear');
export const UserIcon = icon('user');
export const LogoutIcon = icon('logout');
export const MenuIcon = icon('menu');
export const CloseIcon = icon('close');
export const ShieldIcon = icon('shield');
export const ChartIcon = icon('chart');
export const SyncIcon = icon('sync');
export const BuildingIcon = icon('building');
export const SparkIcon = icon('spark');
export const LockIcon = icon('lock');
export const EyeIcon = icon('eye');
export const EyeOffIcon = icon('eye-off');
export const PencilIcon = icon('pencil');
export const TrashIcon = icon('trash');
export const PlusIcon = icon('plus');
export const DownloadIcon = icon('download');
export const UploadIcon = icon('upload');
export const SearchIcon = icon('search');
export const CheckCircleIcon = icon('check-circle');
export const XCircleIcon = icon('x-circle');
export const InfoIcon = icon('info');
export const WarningIcon = icon('warning');
export const ClockIcon = icon('clock');

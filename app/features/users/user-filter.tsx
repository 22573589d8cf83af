// i18n-area: shell
// The "User" filter of a GET filter form: a list of the users while they are few, else a text
// box for a username or e-mail (the server looks it up), under the same parameter name.
import { inputClass } from '../../ui/form.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function UserFilter({
  id,
  name,
  value,
  text,
  choices,
  allLabel,
}: {
  id?: string;
  name: string;
  /** The chosen user's id (the list's value). */
  value: string;
  /** What the text box shows: the chosen user's name, or the text that named nobody. */
  text: string;
  /** null: too many users to list. */
  choices: { value: string; label: string }[] | null;
  /** The list's first choice, no user (default 'All users'). */
  allLabel?: string;
}) {
  const t = useT();
  if (choices === null) {
    return (
      <input
        id={id}
        type="text"
        name={name}
        defaultValue={text}
        placeholder={t('Username or e-mail')}
        autoComplete="off"
        className={inputClass}
      />
    );
  }
  return (
    <select id={id} name={name} defaultValue={value} className={inputClass}>
      <option value="">{allLabel ?? t('All users')}</option>
      {choices.map((u) => (
        <option key={u.value} value={u.value} translate="no">
          {u.label}
        </option>
      ))}
    </select>
  );
}

// The "User" filter of a GET filter form: a list of the users while they are few, else a text
// box for a username or e-mail (the server looks it up), under the same parameter name.
import { inputClass } from '../../ui/form.tsx';

export function UserFilter({
  id,
  name,
  value,
  text,
  choices,
  allLabel = 'All users',
}: {
  id?: string;
  name: string;
  /** The chosen user's id (the list's value). */
  value: string;
  /** What the text box shows: the chosen user's name, or the text that named nobody. */
  text: string;
  /** null: too many users to list. */
  choices: { value: string; label: string }[] | null;
  /** The list's first choice, no user. */
  allLabel?: string;
}) {
  if (choices === null) {
    return (
      <input
        id={id}
        type="text"
        name={name}
        defaultValue={text}
        placeholder="Username or e-mail"
        autoComplete="off"
        className={inputClass}
      />
    );
  }
  return (
    <select id={id} name={name} defaultValue={value} className={inputClass}>
      <option value="">{allLabel}</option>
      {choices.map((u) => (
        <option key={u.value} value={u.value}>
          {u.label}
        </option>
      ))}
    </select>
  );
}

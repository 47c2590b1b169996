export type NamedProfile = {
  first_name?: string | null;
  last_name?: string | null;
  display_name?: string | null;
};

const clean = (value: string | null | undefined) => (value ?? '').trim();

/** Spec §2: display_name, else first plus last name, else the email's local part, else 'User'. */
export function getDisplayName(profile: NamedProfile | null | undefined, email?: string | null): string {
  const display = clean(profile?.display_name);
  if (display) return display;
  const first = clean(profile?.first_name);
  const last = clean(profile?.last_name);
  if (first && last) return `${first} ${last}`;
  const local = clean(email).split('@')[0];
  if (local) return local;
  return 'User';
}

/** Spec §2: first letters of first and last name, else the email's first letter, else 'U'. */
export function getInitials(profile: NamedProfile | null | undefined, email?: string | null): string {
  const first = clean(profile?.first_name);
  const last = clean(profile?.last_name);
  if (first && last) return (first[0] + last[0]).toUpperCase();
  const address = clean(email);
  if (address) return address[0].toUpperCase();
  return 'U';
}

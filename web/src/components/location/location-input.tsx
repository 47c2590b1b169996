import { useId, useState, type KeyboardEvent } from 'react';

import { cn } from '@/lib/cn';
import { MIN_LOCATION_QUERY, placeOf, useLocationSuggestions, type LocationSuggestion, type PickedPlace } from '@/lib/geocode';

type LocationInputProps = {
  value: string;
  onChange: (value: string) => void;
  /** A suggestion was picked: its short name and coordinates (typing afterwards calls `onChange` only). */
  onPick?: (place: PickedPlace) => void;
  label: string;
  hideLabel?: boolean;
  placeholder?: string;
  className?: string;
  inputClassName?: string;
};

/**
 * A combobox for Australian suburbs: suggestions appear from 2 typed characters, close on pick
 * and hide when the text is shorter than 2. Arrow keys, Enter and Escape work as expected.
 */
export function LocationInput({ value, onChange, onPick, label, hideLabel, placeholder, className, inputClassName }: LocationInputProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const long = value.trim().length >= MIN_LOCATION_QUERY;
  const { data: suggestions = [] } = useLocationSuggestions(value, open && long);
  const visible = open && long && suggestions.length > 0;

  const pick = (suggestion: LocationSuggestion) => {
    onChange(suggestion.display_name);
    const place = placeOf(suggestion);
    if (place) onPick?.(place);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, suggestions.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && visible && active >= 0) {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className={cn('relative', className)}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'mb-1.5 block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={visible}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={visible && active >= 0 ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className={inputClassName}
      />
      {visible && (
        <ul id={`${id}-list`} role="listbox" aria-label={`${label} suggestions`} className="absolute inset-x-0 top-full z-30 mt-1 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 text-left shadow-xl">
          {suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.display_name}-${index}`}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(suggestion);
              }}
              className={cn('cursor-pointer px-3 py-2 text-sm text-slate-800', index === active ? 'bg-brand-50' : 'hover:bg-slate-50')}
            >
              {suggestion.display_name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import type { Skill } from '@/lib/auth/types';
import { cn } from '@/lib/cn';
import { COMMON_SKILLS, DEFAULT_SKILL_LEVEL, SKILLS_SHOWN, skillLevelLabel } from '@/components/skills/common-skills';

type SkillsEditorProps = {
  skills: Skill[];
  onChange: (skills: Skill[]) => void;
  error?: string;
};

/**
 * Spec §4/§5 skills: pick a common skill or type a custom one, set a 1–100 level (default 50);
 * selecting an added skill switches to update mode; names are unique, case-insensitively.
 */
export function SkillsEditor({ skills, onChange, error }: SkillsEditorProps) {
  const ids = useId();
  const [name, setName] = useState('');
  const [level, setLevel] = useState(DEFAULT_SKILL_LEVEL);
  const [editing, setEditing] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);

  const has = (skillName: string) => skills.some((s) => s.name.toLowerCase() === skillName.trim().toLowerCase());
  const available = COMMON_SKILLS.filter((skill) => !has(skill));
  const visible = showAll ? available : available.slice(0, SKILLS_SHOWN);
  const hidden = available.length - visible.length;

  const reset = () => {
    setName('');
    setLevel(DEFAULT_SKILL_LEVEL);
    setEditing(null);
    setLocalError(null);
  };

  const add = () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setLocalError('Please enter a skill name');
      return;
    }
    if (has(trimmed)) {
      setLocalError(`${trimmed} is already in your skills`);
      return;
    }
    const canonical = COMMON_SKILLS.find((s) => s.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
    onChange([...skills, { name: canonical, level }]);
    reset();
  };

  const update = () => {
    if (!editing) return;
    onChange(skills.map((s) => (s.name === editing ? { ...s, level } : s)));
    reset();
  };

  const select = (skill: Skill) => {
    setEditing(skill.name);
    setName(skill.name);
    setLevel(skill.level);
    setLocalError(null);
  };

  const remove = (skillName: string) => {
    onChange(skills.filter((s) => s.name !== skillName));
    if (editing === skillName) reset();
  };

  const message = localError ?? error;

  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4" aria-describedby={message ? `${ids}-error` : undefined}>
      <legend className="px-1 text-sm font-semibold text-slate-900">Your skills</legend>

      {skills.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Added skills">
          {skills.map((skill) => (
            <li key={skill.name} className={cn('flex items-center rounded-full border bg-white text-sm', editing === skill.name ? 'border-brand-500 ring-2 ring-brand-200' : 'border-slate-300')}>
              <button type="button" onClick={() => select(skill)} className="rounded-l-full py-1.5 pl-3 pr-2 text-slate-800" aria-label={`Edit ${skill.name}, level ${skill.level}`}>
                {skill.name} <span className="text-slate-500">· {skill.level}%</span>
              </button>
              <button type="button" onClick={() => remove(skill.name)} className="rounded-r-full py-1.5 pl-1 pr-3 text-slate-500 hover:text-red-600" aria-label={`Remove ${skill.name}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">Add the services you offer so posters can find you.</p>
      )}

      {!editing && (
        <div>
          <p className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">Common skills</p>
          <div className="flex flex-wrap gap-2">
            {visible.map((skill) => (
              <button
                key={skill}
                type="button"
                onClick={() => {
                  setName(skill);
                  setLocalError(null);
                }}
                aria-pressed={name === skill}
                className={cn('rounded-full border px-3 py-1.5 text-sm', name === skill ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 bg-white text-slate-700 hover:border-brand-500')}
              >
                {skill}
              </button>
            ))}
            {hidden > 0 && (
              <button type="button" onClick={() => setShowAll(true)} className="rounded-full px-3 py-1.5 text-sm font-medium text-brand-700 hover:underline">
                +{hidden} more skills available
              </button>
            )}
            {showAll && available.length > SKILLS_SHOWN && (
              <button type="button" onClick={() => setShowAll(false)} className="rounded-full px-3 py-1.5 text-sm font-medium text-brand-700 hover:underline">
                Show fewer
              </button>
            )}
          </div>
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-800">
            {editing ? 'Skill' : 'Skill name'}
          </label>
          <input
            id={`${ids}-name`}
            value={name}
            readOnly={Boolean(editing)}
            placeholder="e.g. Tiling or a skill of your own"
            onChange={(event) => {
              setName(event.target.value);
              setLocalError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                if (editing) update();
                else add();
              }
            }}
            className={inputClasses(Boolean(localError))}
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-level`} className="flex justify-between text-sm font-medium text-slate-800">
            <span>Proficiency</span>
            <span className="text-slate-600">
              {level}% · {skillLevelLabel(level)}
            </span>
          </label>
          <input
            id={`${ids}-level`}
            type="range"
            min={1}
            max={100}
            step={1}
            value={level}
            onChange={(event) => setLevel(Number(event.target.value))}
            aria-valuetext={`${level}% (${skillLevelLabel(level)})`}
            className="h-11 w-full accent-brand-700"
          />
        </div>
      </div>

      <div className="flex flex-wrap gap-2">
        {editing ? (
          <>
            <Button size="sm" onClick={update}>
              Update Skill
            </Button>
            <Button size="sm" variant="outline" onClick={reset}>
              Cancel
            </Button>
          </>
        ) : (
          <Button size="sm" onClick={add}>
            Add Skill
          </Button>
        )}
      </div>

      {message && (
        <p id={`${ids}-error`} role="alert" className="text-sm text-red-600">
          {message}
        </p>
      )}
    </fieldset>
  );
}
